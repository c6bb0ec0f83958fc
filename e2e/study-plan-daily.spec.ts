import fs from "node:fs";
import path from "node:path";
import { expect, seriousAxeViolations, test, trpcMutation, trpcQuery } from "./fixtures";

// Issue 34 at a phone's width: new questions come in 20 a day, and a leech waits in Browse.
test.use({ viewport: { width: 375, height: 740 } });

function writeCsv(name: string, rows: string[][]): string {
  const file = test.info().outputPath(name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, rows.map((row) => row.join(",")).join("\r\n") + "\r\n");
  return file;
}

test("a bank of 300 imported questions: Study shows New 20, not 300", async ({ page, user }) => {
  void user;
  test.setTimeout(90_000);
  const tag = `plan${Date.now().toString(36)}`;
  const rows = [["Question", "Option A", "Option B", "Option C", "Option D", "Answer", "Category"]];
  for (let i = 0; i < 300; i++) {
    rows.push([
      `Imported question ${i} ${tag}`,
      "One",
      "Two",
      "Three",
      "Four",
      "B",
      "Neuroscience",
    ]);
  }
  await page.goto("/import");
  await page.getByLabel("Choose a CSV or Excel file").setInputFiles(writeCsv("bank.csv", rows));
  await expect(page.getByRole("heading", { name: "Step 2: Configure Import" })).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("heading", { name: "Step 3: Review Questions" })).toBeVisible();
  await page.getByRole("button", { name: "Import Questions" }).click();
  await expect(page.getByText("Successfully imported 300 questions!")).toBeVisible({
    timeout: 30_000,
  });

  await page.goto("/study");
  await expect(page.getByTestId("overview-new")).toHaveText("20");
  await expect(page.getByTestId("overview-review")).toHaveText("0");
  await expect(page.getByTestId("overview-due")).toHaveText("20");
  expect(await seriousAxeViolations(page)).toEqual([]);

  // Settings › Study: the limit, saved, changes the day's list.
  await page.goto("/settings");
  await page.getByRole("tab", { name: "Study" }).click();
  await page.getByLabel("New questions per day").fill("5");
  await page.getByRole("button", { name: "Save limits" }).click();
  await expect(page.getByText("Daily limits saved")).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.goto("/study");
  await expect(page.getByTestId("overview-new")).toHaveText("5");
});

test("a question missed the threshold number of times appears in Browse › Leeches", async ({
  page,
  user,
}) => {
  void user;
  await trpcMutation(page.request, "study.setDailyLimits", { leechThreshold: 2 });
  const text = `The question that will not stick ${Date.now().toString(36)}`;
  const created = await trpcMutation<{ _id: string }>(page.request, "questions.create", {
    text,
    options: { A: "Wrong", B: "Right" },
    correctAnswer: "B",
    part: "1",
    year: 2024,
  });
  for (let i = 0; i < 2; i++) {
    await trpcMutation(page.request, "study.answer", {
      questionId: created._id,
      selected: ["A"],
      timeSpentMs: 1000,
    });
  }
  const plan = await trpcQuery<{ leechCount: number }>(page.request, "study.dayPlan");
  expect(plan.leechCount).toBe(1);

  await page.goto("/study");
  await page.getByTestId("leeches-link").click();
  const list = page.getByTestId("leeches-list");
  await expect(list.getByRole("heading", { name: "Leeches (1)" })).toBeVisible();
  await expect(list.getByText(text)).toBeVisible();
  await expect(list.getByText("Missed 2 times.")).toBeVisible();
  await expect(
    list.getByRole("list", { name: "Your answers, oldest first" }).getByRole("listitem"),
  ).toHaveCount(2);
  expect(await seriousAxeViolations(page)).toEqual([]);

  // Reset, confirmed: back to new, gone from the list.
  await list.getByRole("button", { name: "Reset to new" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Reset" }).click();
  await expect(list.getByRole("heading", { name: "Leeches (0)" })).toBeVisible();
});
