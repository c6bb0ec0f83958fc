import { expect, seriousAxeViolations, test, trpcMutation } from "./fixtures";

/** Issue 34: set an exam date 60 days out at 375 px; the forecast shows the pace and the recall per category. */
const stamp = Date.now().toString(36);

test.use({ viewport: { width: 375, height: 812 } });

test("an exam date 60 days out: the forecast shows the pace and the recall per category", async ({
  page,
  user,
}) => {
  test.setTimeout(90_000);
  expect(user.username).toBeTruthy();
  for (let i = 0; i < 6; i++) {
    await trpcMutation(page.request, "questions.create", {
      text: `Plan question ${i} [${stamp}]: which is right?`,
      options: { A: "One", B: "Two", C: "Three", D: "Four", E: "Five" },
      correctAnswer: "B",
      category: i % 2 ? "Neuroscience" : "Psychopharmacology",
      part: "1",
      year: 2024,
      number: i + 1,
      isPublic: false,
    });
  }
  const exam = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);

  await page.goto("/settings?tab=study");
  const form = page.getByTestId("exam-plan-settings");
  await expect(form).toBeVisible();
  await form.getByLabel("Date of your next PRITE").fill(exam);
  await form.getByRole("button", { name: "Save exam plan" }).click();
  await expect(page.getByText("Exam plan saved")).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);

  await form.getByRole("link", { name: "See the forecast" }).click();
  await expect(page).toHaveURL(/\/study\/plan$/);
  await expect(page.getByRole("heading", { name: `Exam on ${exam}` })).toBeVisible();
  await expect(page.getByTestId("plan-pace")).toContainText(/New questions: \d+ a day\./);
  await expect(page.getByTestId("plan-chart")).toBeVisible();
  const recall = page.getByTestId("plan-recall");
  await expect(recall.getByRole("rowheader", { name: "Neuroscience" })).toBeVisible();
  await expect(recall.getByRole("rowheader", { name: "Psychopharmacology" })).toBeVisible();
  await expect(recall).toContainText("3/3");
  expect(await seriousAxeViolations(page)).toEqual([]);
  // Nothing wider than the phone's screen.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(overflow).toBeLessThanOrEqual(375);
});
