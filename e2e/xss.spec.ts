import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test as base, trpcMutation } from "./fixtures";

// Issue 9 item 3: HTML and script in a question render as text everywhere: Browse, Study (the
// question and, after checking, the explanation) and the duplicate dialog of an import.

const IMG = `<img src=x onerror="window.__xss=1">`;
const SCRIPT = `<script>window.__xss=2</script>`;

const tag = `x${Date.now().toString(36)}`;
const hostile = {
  text: `Which mood stabilizer ${IMG} needs level monitoring ${SCRIPT} in pregnancy? ${tag}`,
  options: {
    A: `Lithium ${IMG}`,
    B: `${SCRIPT} Lamotrigine`,
    C: "Valproate",
    D: "Carbamazepine",
  },
  explanation: `Narrow therapeutic index ${IMG} and ${SCRIPT} renal clearance.`,
  correctAnswer: "A",
  questionType: "fourOptions",
  category: "Bipolar Disorders",
  part: "1",
  year: new Date().getFullYear(),
  isPublic: false,
};

/** Watches for native dialogs (alert, confirm, prompt) for the whole test. */
function watchDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on("dialog", (dialog) => {
    opened.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return opened;
}

/**
 * A signed-in user who owns the hostile question, with native dialogs watched from the start:
 * `dialogs` lists any that opened.
 */
const test = base.extend<{ dialogs: string[] }>({
  dialogs: async ({ page, user }, use) => {
    void user;
    const opened = watchDialogs(page);
    await trpcMutation(page.request, "questions.create", hostile);
    await use(opened);
  },
});

// The CSP would stop these handlers from running even if the markup reached the DOM; switch it
// off here so what is tested is the rendering itself (the CSP has tests of its own).
test.use({ bypassCSP: true });

/** Nothing ran, no element was made from the text: no image, no script carrying the payload. */
async function expectInert(page: Page, dialogs: string[]) {
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator("script", { hasText: "__xss" })).toHaveCount(0);
  expect(dialogs).toEqual([]);
}

test("markup in a question's text, options and explanation shows as text in Browse and Study", async ({
  page,
  dialogs,
}) => {
  // Browse: the card shows the characters as typed.
  await page.goto("/browse");
  const search = page.getByRole("searchbox", { name: "Search questions" });
  await search.fill(tag);
  await search.press("Enter");
  const card = page.getByTestId("question-card").filter({ hasText: tag });
  await expect(card.getByTestId("question-text")).toHaveText(hostile.text);
  await expect(card).toContainText(hostile.options.A);
  await expect(card).toContainText(hostile.options.B);
  await expect(card).toContainText(hostile.explanation);
  await expectInert(page, dialogs);

  // Study: the question and its options, then the explanation after checking.
  await page.goto("/study");
  await page.getByRole("button", { name: "Start Studying" }).click();
  await expect(page.getByTestId("question-text")).toHaveText(hostile.text);
  await expect(page.getByRole("radio", { name: `A. ${hostile.options.A}` })).toBeVisible();
  await expect(page.getByRole("radio", { name: `B. ${hostile.options.B}` })).toBeVisible();
  await expectInert(page, dialogs);
  await page.getByRole("radio", { name: `A. ${hostile.options.A}` }).click();
  await page.getByRole("button", { name: "Check Answer" }).click();
  await expect(page.getByText("Correct! Well done.")).toBeVisible();
  await expect(page.getByText(hostile.explanation)).toBeVisible();
  await expect(page.getByTestId("correct-answers")).toContainText(hostile.options.A);
  await expectInert(page, dialogs);
});

test("markup in an imported file and in the question it duplicates shows as text in the duplicate dialog", async ({
  page,
  dialogs,
}) => {
  // The file holds a near copy (one word changed), with markup of its own in an option.
  const newText = hostile.text.replace("Which mood stabilizer", "Which one mood stabilizer");
  const newOptionC = `Valproate ${IMG}`;
  const cell = (value: string) => `"${value.replace(/"/g, '""')}"`;
  const csv = [
    ["Question", "Option A", "Option B", "Option C", "Option D", "Answer", "Explanation"],
    [
      newText,
      hostile.options.A,
      hostile.options.B,
      newOptionC,
      hostile.options.D,
      "A",
      hostile.explanation,
    ],
  ]
    .map((row) => row.map(cell).join(","))
    .join("\r\n");
  const file = test.info().outputPath("hostile.csv");
  fs.mkdirSync(test.info().outputDir, { recursive: true });
  fs.writeFileSync(file, `${csv}\r\n`);

  await page.goto("/import");
  await page.getByLabel("Choose a CSV or Excel file").setInputFiles(file);
  await expect(page.getByRole("heading", { name: "Step 2: Configure Import" })).toBeVisible();
  await expectInert(page, dialogs);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Showing 1 of 1 questions")).toBeVisible();
  await expectInert(page, dialogs);
  await page.getByRole("button", { name: "Import Questions" }).click();
  await page.getByRole("button", { name: "Review Duplicates" }).click();

  const dialog = page.getByRole("dialog", { name: "Duplicate Questions Detected" });
  const existing = dialog.getByRole("region", { name: "Existing Question" });
  const incoming = dialog.getByRole("region", { name: "New Question" });
  await expect(existing).toContainText(hostile.text);
  await expect(existing).toContainText(hostile.options.A);
  await expect(existing).toContainText(hostile.explanation);
  await expect(incoming).toContainText(newText);
  await expect(incoming).toContainText(hostile.options.B);
  await expect(incoming).toContainText(newOptionC);
  await expectInert(page, dialogs);

  // Resolving it keeps the markup as text too: the saved question reads back unchanged.
  await dialog.getByLabel("Use Newer").check();
  await dialog.getByRole("button", { name: "Apply & Continue" }).click();
  await expect(page.getByRole("heading", { name: "Import Complete" })).toBeVisible();
  await page.getByRole("link", { name: "View Questions" }).click();
  const search = page.getByRole("searchbox", { name: "Search questions" });
  await search.fill(tag);
  await search.press("Enter");
  const card = page.getByTestId("question-card").filter({ hasText: tag });
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("question-text")).toHaveText(newText);
  await expect(card).toContainText(newOptionC);
  await expectInert(page, dialogs);
});
