import type { APIRequestContext, Page } from "@playwright/test";
import {
  expect,
  makeUser,
  registerViaApi,
  seriousAxeViolations,
  test,
  trpcMutation,
  trpcQuery,
} from "./fixtures";

/** Issue 16: practice exams and mock exams in the browser. */

const stamp = Date.now().toString(36);

async function addQuestions(
  request: APIRequestContext,
  n: number,
  opts: { isPublic?: boolean; prefix?: string } = {},
): Promise<Map<string, string>> {
  const byText = new Map<string, string>();
  for (let i = 0; i < n; i++) {
    const text = `${opts.prefix ?? "Exam"} question ${i + 1}: which option is right? [${stamp}-${i}]`;
    const q = await trpcMutation<{ _id: string }>(request, "questions.create", {
      text,
      options: { A: "Wrong", B: "Right", C: "Also wrong", D: "Still wrong" },
      correctAnswer: "B",
      category: i % 2 ? "Neuroscience" : "Psychopharmacology",
      part: "1",
      year: 2024,
      explanation: `Because B is right (${i + 1}).`,
      isPublic: opts.isPublic ?? false,
    });
    byText.set(text, q._id);
  }
  return byText;
}

async function startExam(page: Page, opts: { size: number; mode: "Tutor" | "Timed" }) {
  await page.goto("/exams");
  await expect(page.getByRole("heading", { level: 1, name: "Practice Exam" })).toBeVisible();
  await page.getByLabel("Number of questions").fill(String(opts.size));
  await page.getByRole("radio", { name: new RegExp(`^${opts.mode}`) }).check();
  await page.getByRole("button", { name: "Start Exam" }).click();
  await expect(page.getByRole("heading", { name: `Question 1 of ${opts.size}` })).toBeVisible();
}

test("a tutor exam: the explanation after each answer, the report, the incorrect ones sent to study", async ({
  page,
  user,
}) => {
  void user;
  test.setTimeout(120_000);
  await addQuestions(page.request, 6);
  await page.goto("/");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Practice Exam" })
    .click();
  await startExam(page, { size: 5, mode: "Tutor" });

  for (let i = 1; i <= 5; i++) {
    await expect(page.getByRole("heading", { name: `Question ${i} of 5` })).toBeVisible();
    // Key 2 chooses B, A is chosen by its letter; Enter confirms.
    const right = i !== 2 && i !== 4;
    await page.keyboard.press(right ? "2" : "a");
    await page.keyboard.press("Enter");
    const feedback = page.getByTestId("exam-feedback");
    await expect(feedback).toContainText(right ? "Correct!" : "Not quite right.");
    await expect(feedback).toContainText("Correct answer: B");
    await expect(feedback).toContainText(/Because B is right/);
    if (i === 3) await page.keyboard.press("f");
    if (i < 5) await page.keyboard.press("n");
  }
  // On a phone the numbered questions are behind the row that shows the progress.
  await page.getByRole("button", { name: /^Questions/ }).click();
  await expect(page.getByRole("button", { name: "Question 3, answered, flagged" })).toBeVisible();

  page.once("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: "Submit Exam" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Exam Results" })).toBeVisible();
  const score = page.getByTestId("exam-score");
  await expect(score).toContainText("60%");
  await expect(score).toContainText("3 of 5");
  await expect(page.getByRole("list", { name: "Correct by category" })).toBeVisible();

  await page.getByRole("button", { name: "Incorrect", exact: true }).click();
  await expect(
    page.getByRole("list", { name: "Exam questions" }).locator(":scope > li"),
  ).toHaveCount(2);
  await page.getByRole("button", { name: "Flagged", exact: true }).click();
  await expect(
    page.getByRole("list", { name: "Exam questions" }).locator(":scope > li"),
  ).toHaveCount(1);

  await page.getByRole("button", { name: "Study these incorrect" }).click();
  await expect(page.getByText("2 questions are due for study today.")).toBeVisible();
  const due = await trpcQuery<{ total: number }>(page.request, "study.due", { limit: 50 });
  expect(due.total).toBeGreaterThanOrEqual(2);

  // History lists it as submitted, with its score.
  await page.getByRole("link", { name: "Back to Practice Exam" }).click();
  await expect(page.getByRole("list", { name: "My exams" })).toContainText("Score 60% (3/5)");
});

test("a timed exam runs on the server's clock: its time runs out with the page closed and it shows as expired", async ({
  page,
  context,
  user,
}) => {
  void user;
  // The shortest timed exam the PRITE's rules allow: 5 questions × 30 s.
  test.setTimeout(240_000);
  await addQuestions(page.request, 5, { prefix: "Timed" });
  await page.goto("/exams");
  await page.getByLabel("Number of questions").fill("5");
  await page.getByLabel("Seconds per question").fill("30");
  await page.getByRole("button", { name: "Start Exam" }).click();
  await expect(page.getByRole("heading", { name: "Question 1 of 5" })).toBeVisible();
  await expect(page.getByRole("timer", { name: "Time left" })).toHaveText(/^2:[0-5]\d$/);
  // Strike out an option with a right-click, then answer: saved at once.
  await page.getByRole("radio", { name: /^A\. Wrong/ }).click({ button: "right" });
  await expect(page.getByRole("radio", { name: "A. Wrong (struck out)" })).toBeVisible();
  await page.keyboard.press("b");
  await page.getByRole("button", { name: /^Questions/ }).click();
  await expect(page.getByRole("button", { name: "Question 1, answered" })).toBeVisible();
  const url = page.url();
  await page.waitForTimeout(500);
  await page.close();

  const request = context.request;
  const [exam] = await trpcQuery<{ id: string; status: string; endsAt: string }[]>(
    request,
    "exams.list",
  );
  expect(exam!.status).toBe("in_progress");
  const waitMs = Date.parse(exam!.endsAt) - Date.now() + 12_000;
  await new Promise((r) => setTimeout(r, Math.max(0, waitMs)));

  // Submitted by the server with nobody on the page (the sweep), counted from the saved answer.
  const [after] = await trpcQuery<{ status: string; correctCount: number }[]>(
    request,
    "exams.list",
  );
  expect(after).toMatchObject({ status: "expired", correctCount: 1 });
  const again = await context.newPage();
  await again.goto(url);
  await expect(again.getByRole("heading", { level: 1, name: "Exam Results" })).toBeVisible();
  await expect(again.getByText(/Expired \(time ran out\)/)).toBeVisible();
  await expect(again.getByTestId("exam-score")).toContainText("1 of 5");
});

test("a mock exam: shared with a code, joined by a second resident, and the creator's item analysis", async ({
  page,
  user,
  newContext,
}) => {
  void user;
  test.setTimeout(90_000);
  await addQuestions(page.request, 5, { isPublic: true, prefix: "Mock" });
  await startExam(page, { size: 5, mode: "Tutor" });
  for (let i = 1; i <= 5; i++) {
    await page.keyboard.press("2");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("exam-feedback")).toBeVisible();
    if (i < 5) await page.keyboard.press("n");
  }
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: "Submit Exam" }).click();
  await page.getByRole("button", { name: "Share as mock exam" }).click();
  const code = (await page.getByTestId("join-code").innerText()).trim();
  expect(code).toMatch(/^[A-Z2-9]{8}$/);

  // A second resident joins with the link and takes it.
  const second = await newContext();
  const taker = makeUser({ prefix: "taker" });
  const other = await second.newPage();
  await registerViaApi(other.request, taker);
  await other.goto(`/exams?join=${code}`);
  await expect(other.getByLabel("Join code")).toHaveValue(code);
  await other.getByRole("button", { name: "Join", exact: true }).click();
  await expect(other.getByRole("heading", { name: "Question 1 of 5" })).toBeVisible();
  for (let i = 1; i <= 5; i++) {
    await other.keyboard.press(i <= 2 ? "1" : "2");
    await other.keyboard.press("Enter");
    await expect(other.getByTestId("exam-feedback")).toBeVisible();
    if (i < 5) await other.keyboard.press("n");
  }
  other.once("dialog", (d) => void d.accept());
  await other.getByRole("button", { name: "Submit Exam" }).click();
  await expect(other.getByTestId("exam-score")).toContainText("3 of 5");

  // The creator's view: the takers, the spread, and each item's analysis.
  await page.getByRole("link", { name: "See the takers' results" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Mock Exam Results" })).toBeVisible();
  await expect(page.getByRole("cell", { name: taker.username })).toBeVisible();
  // The creator's own exam was the draft: the takers are those who joined.
  await expect(page.getByTestId("mock-spread")).toContainText("1 finished · mean 60.0%");
  const analysis = page.getByRole("table", { name: "Item analysis" });
  await expect(analysis.locator("tbody tr")).toHaveCount(5);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "CSV" }).click();
  expect((await download).suggestedFilename()).toBe(`mock-exam-${code}.csv`);

  // Closed to new takers: a third resident is told so.
  await page.getByRole("button", { name: "Close to new takers" }).click();
  await expect(page.getByText(/closed to new takers/)).toBeVisible();
  const third = makeUser({ prefix: "late" });
  const lateContext = await newContext();
  const late = await lateContext.newPage();
  await registerViaApi(late.request, third);
  await late.goto(`/exams?join=${code}`);
  await late.getByRole("button", { name: "Join", exact: true }).click();
  await expect(late.getByRole("alert")).toBeVisible();
});

test("the exam screens have no serious or critical accessibility violations (axe)", async ({
  page,
  user,
}) => {
  void user;
  test.setTimeout(120_000);
  await addQuestions(page.request, 5, { prefix: "Axe" });
  await page.goto("/exams");
  await expect(page.getByRole("heading", { level: 1, name: "Practice Exam" })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);

  await startExam(page, { size: 5, mode: "Tutor" });
  await page.getByRole("radio", { name: /^A\. Wrong/ }).click({ button: "right" });
  await page.keyboard.press("2");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("exam-feedback")).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);

  page.once("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: "Submit Exam" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Exam Results" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Exam questions" })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);

  // The scan itself finds a critical violation: a button without a name.
  await page.evaluate(() =>
    document.querySelector("main")!.append(document.createElement("button")),
  );
  expect(await seriousAxeViolations(page)).toEqual([expect.stringMatching(/^button-name: /)]);
});
