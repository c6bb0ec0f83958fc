import type { Page } from "@playwright/test";
import { expect, mainNav, seriousAxeViolations, test, trpcMutation } from "./fixtures";

/** Issue 31 items 7 and 8: the navigation and the exam runner on a phone's narrow screen. */

/** The entries the bottom bar shows, and any of their texts cut to fit (wider than its box). */
async function barEntries(page: Page) {
  const entries = mainNav(page).locator(":scope > ul > li").filter({ visible: true });
  const cut = await entries.evaluateAll((items) =>
    items.flatMap((item) =>
      [...item.querySelectorAll<HTMLElement>("a, button, span")]
        .filter((el) => el.scrollWidth > el.clientWidth || el.textContent?.includes("…"))
        .map((el) => `${item.textContent}: ${el.tagName} ${el.scrollWidth} > ${el.clientWidth}`),
    ),
  );
  return { entries, cut };
}

const MORE_PAGES = [
  { name: "Capture", path: "/capture", heading: "Capture Questions" },
  { name: "Import", path: "/import", heading: "Import Questions" },
  // Issue 32: the program's pages (the heading is /program's, the dashboard's, while in no program).
  { name: "Program", path: "/program", heading: "Program" },
  // Issue 36: reports on questions (the review queue and the user's own).
  { name: "Reports", path: "/reports", heading: "Reports" },
  { name: "Settings", path: "/settings", heading: "Settings" },
  { name: "Admin", path: "/admin", heading: "Admin Dashboard" },
];

for (const width of [320, 375, 430]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 740 } });

    test("five entries, none cut; More reaches the other pages, marks the current one, and passes axe", async ({
      page,
      admin,
    }) => {
      void admin;
      test.setTimeout(120_000);
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
      const { entries, cut } = await barEntries(page);
      expect(cut).toEqual([]);
      await expect(entries).toHaveCount(5);
      await expect(entries).toHaveText(["Home", "Study", "Exam", "Browse", "More"]);

      const more = mainNav(page).getByRole("button", { name: "More", exact: true });
      const sheet = page.getByRole("dialog", { name: "More" });
      await more.click();
      await expect(sheet).toBeVisible();
      await expect(sheet.getByRole("link")).toHaveText(MORE_PAGES.map((p) => p.name));
      expect(await seriousAxeViolations(page)).toEqual([]);
      // Escape closes it and gives the focus back to More.
      await page.keyboard.press("Escape");
      await expect(sheet).toBeHidden();
      await expect(more).toBeFocused();

      for (const { name, path, heading } of MORE_PAGES) {
        await more.click();
        await sheet.getByRole("link", { name, exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`${path}(\\?.*)?$`));
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        // Closed by the navigation; opened again, it marks the page it leads to now.
        await expect(sheet).toBeHidden();
        await more.click();
        await expect(sheet.getByRole("link", { name, exact: true })).toHaveAttribute(
          "aria-current",
          "page",
        );
        await expect(sheet.locator('[aria-current="page"]')).toHaveCount(1);
        await page.keyboard.press("Escape");
      }
    });
  });
}

test.describe("a resident who is no admin", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("More holds Capture, Import, Program, Reports and Settings, and no Admin", async ({
    page,
    user,
  }) => {
    void user;
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect((await barEntries(page)).entries).toHaveCount(5);
    await mainNav(page).getByRole("button", { name: "More", exact: true }).click();
    const sheet = page.getByRole("dialog", { name: "More" });
    await expect(sheet.getByRole("link")).toHaveText([
      "Capture",
      "Import",
      "Program",
      "Reports",
      "Settings",
    ]);
    await expect(page.getByRole("link", { name: "Admin" })).toHaveCount(0);
  });
});

test.describe("on a wide screen", () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test("every page keeps its own entry, and there is no More", async ({ page, admin }) => {
    void admin;
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    const { entries, cut } = await barEntries(page);
    await expect(entries).toHaveText([
      "Home",
      "Study",
      "Exam",
      "Capture",
      "Import",
      "Browse",
      "Program",
      "Reports",
      "Settings",
      "Admin",
    ]);
    expect(cut).toEqual([]);
    await expect(mainNav(page).getByRole("button", { name: "More" })).toBeHidden();
  });
});

test.describe("the exam runner on a phone", () => {
  test.use({ viewport: { width: 375, height: 667 } });

  test("the question comes first; the navigator opens from its row, shows the progress and jumps", async ({
    page,
    user,
  }) => {
    void user;
    test.setTimeout(90_000);
    const stamp = Date.now().toString(36);
    for (let i = 1; i <= 40; i++) {
      await trpcMutation(page.request, "questions.create", {
        text: `Phone question ${i}: which option is right? [${stamp}]`,
        options: { A: "Wrong", B: "Right", C: "Also wrong", D: "Still wrong" },
        correctAnswer: "B",
        category: "Neuroscience",
        part: "1",
        year: 2024,
        isPublic: false,
      });
    }
    await page.goto("/exams");
    await page.getByLabel("Number of questions").fill("40");
    await page.getByRole("radio", { name: /^Tutor/ }).check();
    await page.getByRole("button", { name: "Start Exam" }).click();
    await expect(page.getByRole("heading", { name: "Question 1 of 40" })).toBeVisible();

    // The fold: the top of the bottom bar, which covers the end of the viewport.
    const fold = (await mainNav(page).boundingBox())!.y;
    const text = page.getByTestId("exam-question-text");
    const options = page.getByRole("radiogroup", { name: "Options" }).getByRole("radio");
    await expect(options).toHaveCount(4);
    for (const shown of [text, ...(await options.all())]) {
      const box = (await shown.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(fold);
    }
    const navigator = page.getByRole("navigation", { name: "Questions" });
    await expect(navigator).toBeHidden();

    // The row shows the progress: answered and flagged.
    const row = page.getByRole("button", { name: /^Questions/ });
    await expect(row).toContainText("0/40 answered");
    await page.keyboard.press("2");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("exam-feedback")).toContainText("Correct!");
    await page.keyboard.press("f");
    await expect(row).toContainText("1/40 answered · 1 flagged");

    await row.click();
    await expect(row).toHaveAttribute("aria-expanded", "true");
    await expect(navigator).toBeVisible();
    await expect(
      navigator.getByRole("button", { name: "Question 1, answered, flagged" }),
    ).toBeVisible();
    await navigator.getByRole("button", { name: "Question 17, not answered" }).click();
    await expect(page.getByRole("heading", { name: "Question 17 of 40" })).toBeVisible();
    await expect(navigator).toBeHidden();
    await expect(row).toHaveAttribute("aria-expanded", "false");
    await expect(row).toBeFocused();

    // A wide screen keeps the navigator beside the question, without the row.
    await page.setViewportSize({ width: 1024, height: 768 });
    await expect(navigator).toBeVisible();
    await expect(row).toBeHidden();
  });
});
