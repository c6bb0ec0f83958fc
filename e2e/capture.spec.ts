import type { Page } from "@playwright/test";
import { chooseSelectOption, expect, test } from "./fixtures";

const year = new Date().getFullYear();

function pastedQuestions(tag: string, opts: { firstAnswer?: string } = {}): string {
  return [
    `1. Which antipsychotic requires monitoring of the absolute neutrophil count? ${tag}`,
    "A. Haloperidol",
    "B. Risperidone",
    "C. Clozapine",
    "D. Aripiprazole",
    ...(opts.firstAnswer ? [`Answer: ${opts.firstAnswer}`] : []),
    "",
    `2. Which drug is a partial agonist at the dopamine D2 receptor? ${tag}`,
    "A. Olanzapine",
    "B. Quetiapine",
    "C. Ziprasidone",
    "D. Aripiprazole",
  ].join("\n");
}

async function chooseOption(page: Page, trigger: ReturnType<Page["getByLabel"]>, name: string) {
  void page;
  await chooseSelectOption(trigger, name);
}

test("/test: save an answer key, parse pasted questions, apply the key, save", async ({
  page,
  user,
}) => {
  void user;
  const tag = `k${Date.now().toString(36)}`;
  await page.goto("/test");
  await expect(page.getByRole("heading", { level: 1, name: "PRITE Study" })).toBeVisible();

  // The answer key for this part and year.
  await page.getByRole("tab", { name: "Process Answer Key" }).click();
  await expect(page.getByLabel("Answer Key Text")).toHaveAttribute("rows", "10");
  await expect(page.getByRole("button", { name: "Process Answer Key" })).toBeDisabled();
  await page.getByLabel("Answer Key Text").fill("1. C\n2. D");
  await page.getByRole("button", { name: "Process Answer Key" }).click();
  await expect(page.getByText("2 answers found")).toBeVisible();
  const grid = page.getByRole("list", { name: "Answers by question number" });
  await expect(grid.getByRole("listitem")).toHaveText(["1.C", "2.D"]);
  await page.getByRole("button", { name: "Save Answer Key" }).click();
  await expect(page.getByRole("heading", { name: "Answer Key Saved!" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Process Another Answer Key" })).toBeVisible();

  // Questions whose text already gives one answer: the key is offered, and wins when accepted.
  await page.getByRole("tab", { name: "Parse Questions" }).click();
  const text = page.getByLabel("Question Text");
  await expect(text).toHaveAttribute("rows", "12");
  await expect(page.getByRole("button", { name: "Parse Questions" })).toBeDisabled();
  await text.fill(pastedQuestions(tag, { firstAnswer: "A" }));
  await page.getByRole("button", { name: "Parse Questions" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(
    `Answer key found for PRITE ${year} Part 1. Apply these answers to your questions?`,
  );
  await confirm.getByRole("button", { name: "Apply" }).click();

  await expect(
    page.getByRole("heading", { name: "Review Questions (2/2 answered)" }),
  ).toBeVisible();
  const first = page.getByRole("listitem", { name: "question 1" });
  const second = page.getByRole("listitem", { name: "question 2" });
  await expect(first.getByText("Answer: C")).toBeVisible();
  await expect(second.getByText("Answer: D")).toBeVisible();
  await expect(first.getByRole("radio", { name: /Clozapine/ })).toHaveAttribute(
    "aria-checked",
    "true",
  );
  await expect(first.getByLabel("Explanation (optional)")).toHaveAttribute("rows", "3");
  await expect(second.getByLabel("Category")).toHaveText("-- Select a category --");
  await chooseOption(page, second.getByLabel("Category"), "Psychopharmacology");
  await first.getByLabel("Explanation (optional)").fill("Clozapine can cause agranulocytosis.");

  await page.getByRole("button", { name: "Save 2 Questions" }).click();
  await expect(page.getByRole("heading", { name: "Questions Saved!" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Start Studying" })).toHaveAttribute(
    "href",
    "/study",
  );
  await page.getByRole("button", { name: "Add More Questions" }).click();
  await expect(page.getByLabel("Question Text")).toHaveValue("");

  // Both are in the bank, with the key's answers.
  await page.goto("/browse");
  const search = page.getByRole("searchbox");
  await search.fill(tag);
  await search.press("Enter");
  await expect(
    page.getByText(
      `Which antipsychotic requires monitoring of the absolute neutrophil count? ${tag}`,
    ),
  ).toBeVisible();
  await expect(
    page.getByText(`Which drug is a partial agonist at the dopamine D2 receptor? ${tag}`),
  ).toBeVisible();
});

test("/test: without answers the save waits for one, and a key for another year is not used", async ({
  page,
  user,
}) => {
  void user;
  const tag = `n${Date.now().toString(36)}`;
  await page.goto("/test");
  // This user's keys: Part 2 of last year and Part 1 of this year, neither of them Part 2 of this year.
  for (const key of [
    { part: "2", year: year - 1 },
    { part: "1", year },
  ]) {
    const saved = await page.request.post("/trpc/answerKeys.save", {
      data: { ...key, answers: { "1": "A", "2": "A" } },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(saved.ok()).toBe(true);
  }
  // The other tab stays in the page (hidden), so look inside the visible panel.
  const panel = page.getByRole("tabpanel");
  await chooseOption(page, panel.getByLabel("Part"), "Part 2");
  await panel.getByLabel("Question Text").fill(pastedQuestions(tag));
  await page.getByRole("button", { name: "Parse Questions" }).click();
  await expect(
    page.getByRole("heading", { name: "Review Questions (0/2 answered)" }),
  ).toBeVisible();
  await expect(page.getByText("Part 2").first()).toBeVisible();
  const save = page.getByRole("button", { name: "Select at least one answer" });
  await expect(save).toBeDisabled();
  await page
    .getByRole("listitem", { name: "question 2" })
    .getByRole("radio", { name: /Aripiprazole/ })
    .click();
  await expect(
    page.getByRole("heading", { name: "Review Questions (1/2 answered)" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Save 2 Questions" }).click();
  await expect(page.getByRole("heading", { name: "Questions Saved!" })).toBeVisible();
});

test("Capture: plain text through the parse step, review, Save All", async ({ page, user }) => {
  void user;
  const tag = `c${Date.now().toString(36)}`;
  await page.goto("/capture");
  await expect(page.getByRole("heading", { level: 1, name: "Capture Questions" })).toBeVisible();
  await expect(page.getByText("How to copy text from a photo")).toBeVisible();
  await expect(page.getByLabel("JSON (recommended)")).toBeChecked();
  await page.getByLabel("Question text").fill(pastedQuestions(tag));
  await page.getByLabel("Plain Text").check();
  await page.getByRole("button", { name: "Process" }).click();

  // Step 2: the text can be corrected; blank text is refused.
  // The text box itself: a bare label match also finds the Plain Text option while step 1 is still up.
  const extracted = page.getByRole("textbox", { name: "Extracted text", exact: true });
  await expect(extracted).not.toHaveValue("");
  const kept = await extracted.inputValue();
  await extracted.fill("");
  await page.getByRole("button", { name: "Parse Questions" }).click();
  await expect(page.getByText("Please enter some text to parse")).toBeVisible();
  await extracted.fill(kept);
  await page.getByRole("button", { name: "Parse Questions" }).click();

  await expect(page.getByRole("heading", { name: "Review Questions (2)" })).toBeVisible();
  const first = page.getByRole("listitem", { name: "question 1" });
  await expect(first.getByText("No answer")).toBeVisible();
  await first.getByRole("radio", { name: /Clozapine/ }).click();
  await expect(first.getByText("Answer: C")).toBeVisible();
  await chooseOption(page, first.getByLabel("Category"), "Psychopharmacology");

  await page.getByRole("button", { name: "Save All" }).click();
  await expect(page.getByText("Successfully saved 2 questions!")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Questions Saved!" })).toBeVisible();
  await page.getByRole("button", { name: "Add More Questions" }).click();
  await expect(page.getByLabel("Question text")).toHaveValue("");
});

test("Capture: the JSON path straight to review, and 'No Questions Found'", async ({
  page,
  user,
}) => {
  void user;
  const tag = `j${Date.now().toString(36)}`;
  await page.goto("/capture");
  const process = page.getByRole("button", { name: "Process" });
  await expect(process).toBeDisabled();

  await page.getByLabel("Question text").fill("Nothing here looks like a question.");
  await process.click();
  await expect(page.getByRole("heading", { name: "No Questions Found" })).toBeVisible();
  await page.getByRole("button", { name: "Try Again" }).click();

  await page.getByLabel("Question text").fill(pastedQuestions(tag, { firstAnswer: "C" }));
  await process.click();
  await expect(page.getByRole("heading", { name: "Review Questions (2)" })).toBeVisible();
  await expect(
    page.getByRole("listitem", { name: "question 1" }).getByText("Answer: C"),
  ).toBeVisible();
});
