import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, makeUser, registerViaApi, test, trpcMutation } from "./fixtures";
import { ROOT } from "./server";

/** The real files committed with the project (fixtures/real/SOURCES.md says where each is from). */
const REAL_FIXTURES = path.join(ROOT, "fixtures", "real");

function csvCell(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function writeCsv(name: string, rows: string[][]): string {
  const file = test.info().outputPath(name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n");
  return file;
}

/** The resolved dialog's results, read from the complete screen's stat tiles. */
async function expectCount(page: Page, label: string, value: number) {
  const tile = page
    .getByLabel("Import results")
    .locator("div")
    .filter({ has: page.getByText(label, { exact: true }) });
  await expect(tile.getByRole("definition")).toHaveText(String(value));
}

test("a CSV with one duplicate: resolved with Use Newer, counted, and found in Browse", async ({
  page,
  user,
}) => {
  void user;
  const tag = `e2e${Date.now().toString(36)}`;
  const year = new Date().getFullYear();
  await page.goto("/import");

  // The bank already holds (an older wording of) the first question, with the wrong answer.
  const existingText = `Which medication is first line for acute mania during pregnancy? ${tag}`;
  await trpcMutation(page.request, "questions.create", {
    text: existingText,
    options: { A: "Lithium", B: "Haloperidol", C: "Valproate", D: "Carbamazepine" },
    correctAnswer: "A",
    part: "1",
    year,
  });

  const newText = `Which medication is first-line for acute mania during pregnancy? ${tag}`;
  const file = writeCsv("questions.csv", [
    ["Question", "Option A", "Option B", "Option C", "Option D", "Answer", "Category"],
    [newText, "Lithium", "Haloperidol", "Valproate", "Carbamazepine", "B", "Psychopharmacology"],
    [
      `Which neurotransmitter is most associated with the reward pathway? ${tag}`,
      "Serotonin",
      "Dopamine",
      "GABA",
      "Glycine",
      "B",
      "Neuroscience",
    ],
    [
      `Which scale rates the severity of tardive dyskinesia? ${tag}`,
      "AIMS",
      "HAM-D",
      "YMRS",
      "PANSS",
      "A",
      "Somatic Treatments",
    ],
    [`A row with a single option ${tag}`, "Only one", "", "", "", "A", "Other"],
  ]);

  // Step 1: the file input inside the drop zone.
  await expect(page.getByRole("heading", { name: "Step 1: Upload" })).toBeVisible();
  await expect(page.getByText("CSV files (.csv)")).toBeVisible();
  await page.getByLabel("Choose a CSV or Excel file").setInputFiles(file);

  // Step 2: preview and the auto-detected settings.
  await expect(page.getByRole("heading", { name: "Step 2: Configure Import" })).toBeVisible();
  const preview = page.getByRole("table", { name: "File preview" });
  await expect(preview.getByRole("columnheader", { name: "Question" })).toBeVisible();
  await expect(preview.getByRole("row")).toHaveCount(5);
  await expect(page.getByLabel("Format Type")).toContainText("Question Per Row");
  await expect(page.getByLabel("Question Column")).toHaveText("Question");
  await expect(page.getByLabel("Option B Column")).toHaveText("Option B");
  await expect(page.getByLabel("Answer Column (optional)")).toHaveText("Answer");
  await expect(page.getByLabel("File includes category information")).toBeChecked();
  await expect(page.getByLabel("PRITE Year")).toHaveText(String(year));
  await page.getByRole("button", { name: "Next" }).click();

  // Step 3: review, the summary, and the row that cannot become a question.
  await expect(page.getByRole("heading", { name: "Step 3: Review Questions" })).toBeVisible();
  await expect(page.getByText("Showing 3 of 3 questions")).toBeVisible();
  await expect(page.getByText("Questions will be assigned to your account")).toBeVisible();
  await expect(page.getByText("Categories will be imported")).toBeVisible();
  await expect(page.getByText("Answers will be imported")).toBeVisible();
  await expect(page.getByText("Row 5: at least options A and B are required")).toBeVisible();
  await page.getByRole("button", { name: "Import Questions" }).click();

  // Duplicate detection, then the dialog.
  await expect(page.getByText("Duplicate Detection Complete")).toBeVisible();
  await page.getByRole("button", { name: "Review Duplicates" }).click();
  const dialog = page.getByRole("dialog", { name: "Duplicate Questions Detected" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Question 1 of 1")).toBeVisible();
  await expect(dialog.getByText(/Possible duplicate detected \(\d+% match\)/)).toBeVisible();
  await expect(dialog.getByText(/Question text is \d+% similar/)).toBeVisible();
  await expect(dialog.getByRole("region", { name: "Existing Question" })).toContainText(
    existingText,
  );
  await expect(dialog.getByRole("region", { name: "New Question" })).toContainText(newText);
  await dialog.getByLabel("Use Newer").check();
  await dialog.getByRole("button", { name: "Apply & Continue" }).click();

  // Complete: three questions, one duplicate merged, two created, one bad row.
  await expect(page.getByRole("heading", { name: "Import Complete" })).toBeVisible();
  await expect(page.getByText("Successfully imported 2 questions!")).toBeVisible();
  await expectCount(page, "Total", 3);
  await expectCount(page, "Duplicates", 1);
  await expectCount(page, "Merged", 1);
  await expectCount(page, "Imported", 2);
  await expectCount(page, "Errors", 1);

  await page.getByRole("link", { name: "View Questions" }).click();
  await expect(page).toHaveURL(/\/browse$/);
  await expect(page.getByRole("heading", { level: 1, name: "Browse Questions" })).toBeVisible();
  // Use Newer put the file's wording and answer on the existing question: one copy, not two.
  const search = page.getByRole("searchbox");
  await search.fill(tag);
  await search.press("Enter");
  await expect(page.getByText(newText)).toHaveCount(1);
  await expect(page.getByText(existingText)).toHaveCount(0);
  await expect(
    page.getByText(`Which neurotransmitter is most associated with the reward pathway? ${tag}`),
  ).toBeVisible();
  await expect(
    page.getByText(`Which scale rates the severity of tardive dyskinesia? ${tag}`),
  ).toBeVisible();
});

test("a real headerless CSV imports with the detected settings and no duplicates", async ({
  page,
  user,
}) => {
  void user;
  await page.goto("/import");
  await page
    .getByLabel("Choose a CSV or Excel file")
    .setInputFiles(path.join(REAL_FIXTURES, "mmlu_clinical_knowledge_dev.csv"));
  await expect(page.getByLabel("Header Row")).toHaveText("No header row");
  await expect(
    page
      .getByRole("table", { name: "File preview" })
      .getByRole("columnheader", { name: "Column 1" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Showing 5 of 5 questions")).toBeVisible();
  await page.getByRole("button", { name: "Import Questions" }).click();
  await expect(page.getByText("No duplicates found. Proceeding with import.")).toBeVisible();
  await expect(page.getByText("Successfully imported 5 questions!")).toBeVisible();
  await expectCount(page, "Imported", 5);
  await expectCount(page, "Errors", 0);

  await page.getByRole("button", { name: "Import More Questions" }).click();
  await expect(page.getByRole("heading", { name: "Step 1: Upload" })).toBeVisible();
});

test("a file that is not a spreadsheet is refused with the spec's message", async ({
  page,
  user,
}) => {
  void user;
  await page.goto("/import");
  const file = test.info().outputPath("notes.txt");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, "1. Not a spreadsheet\nA. yes\nB. no\n");
  await page.getByLabel("Choose a CSV or Excel file").setInputFiles(file);
  await expect(
    page.getByText("Unsupported file format. Please upload a CSV or Excel file."),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Step 1: Upload" })).toBeVisible();
});

test("the Anki and PRITE Scores tabs", async ({ page, user }) => {
  void user;
  await page.goto("/import");
  await page.getByRole("tab", { name: "Anki Import" }).click();
  // The Anki tab takes a deck (its journey is e2e/anki-import.spec.ts).
  await expect(page.getByLabel("Choose an Anki deck")).toBeAttached();
  await expect(page.getByText(/\.apkg or \.colpkg, up to 200 MB/)).toBeVisible();
  await page.getByRole("tab", { name: "PRITE Scores" }).click();
  await expect(page.getByText("Track your performance over time")).toBeVisible();
  await page.getByRole("link", { name: "Enter PRITE Scores" }).click();
  await expect(page).toHaveURL(/\/settings\?tab=prite-scores$/);
});

test("SheetJS loads only for a workbook; every sheet of it can be chosen", async ({
  page,
  user,
}) => {
  void user;
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await page.goto("/import");
  await expect(page.getByRole("heading", { name: "Step 1: Upload" })).toBeVisible();
  expect(scripts.filter((url) => /xlsx/i.test(url))).toEqual([]);

  await page
    .getByLabel("Choose a CSV or Excel file")
    .setInputFiles(path.join(REAL_FIXTURES, "quizserver_multisheet_data.xlsx"));
  await expect(page.getByRole("heading", { name: "Step 2: Configure Import" })).toBeVisible();
  expect(scripts.filter((url) => /xlsx/i.test(url)).length).toBeGreaterThan(0);
  const sheet = page.getByLabel("Sheet");
  await expect(sheet).toHaveText("Demo Questions");
  await sheet.click();
  await page.getByRole("option", { name: "Tesla Coils", exact: true }).click();
  await expect(page.getByText(/sheet Tesla Coils/)).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Showing 6 of 6 questions")).toBeVisible();
});

/** Letters and digits that share few bigrams with anything else in the bank. */
function noise(seed: number, length = 36): string {
  let x = (seed * 2654435761) >>> 0;
  let out = "";
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x ^ (x >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
    out += "bcdfghjklmnpqrstvwxz0123456789"[x % 30];
    if (i % 6 === 5) out += " ";
  }
  return out.trim();
}

test("the dialog: batches with a percentage, Cancel, Manual Merge fields, another user's question, Apply to All Remaining", async ({
  page,
  user,
  newApiContext,
}) => {
  void user;
  test.setTimeout(120_000);
  const tag = `d${Date.now().toString(36)}`;
  const year = new Date().getFullYear();
  await page.goto("/import");

  // Another user's public question, which this user may not change.
  const other = await newApiContext();
  await registerViaApi(other, makeUser({ prefix: "pub" }));
  const publicText = `Which antidepressant carries a boxed warning for priapism risk? ${tag}`;
  const publicOptions = ["Trazodone", "Sertraline", "Bupropion", "Mirtazapine"];
  await trpcMutation(other, "questions.create", {
    text: publicText,
    options: { A: "Trazodone", B: "Sertraline", C: "Bupropion", D: "Mirtazapine" },
    correctAnswer: "A",
    part: "1",
    year,
    isPublic: true,
  });

  // Three of this user's own questions.
  const own = [
    {
      text: `Which lobe lesion classically causes prosopagnosia in most patients? ${tag}`,
      options: ["Frontal", "Parietal", "Occipitotemporal", "Insular"],
    },
    {
      text: `Which vitamin deficiency causes Wernicke encephalopathy in alcohol use? ${tag}`,
      options: ["Thiamine", "Niacin", "Cobalamin", "Folate"],
    },
    {
      text: `Which enzyme does disulfiram inhibit to cause the acetaldehyde reaction? ${tag}`,
      options: ["Aldehyde dehydrogenase", "Alcohol dehydrogenase", "CYP2E1", "MAO-B"],
    },
  ];
  for (const q of own) {
    await trpcMutation(page.request, "questions.create", {
      text: q.text,
      options: { A: q.options[0], B: q.options[1], C: q.options[2], D: q.options[3] },
      correctAnswer: "A",
      part: "1",
      year,
    });
  }

  // The file: near-copies of all four, then enough new questions for two duplicate-check batches.
  const reworded = (text: string) => text.replace("Which ", "Which one ");
  const rows: string[][] = [["Question", "Option A", "Option B", "Option C", "Option D", "Answer"]];
  rows.push([reworded(own[0]!.text), ...own[0]!.options, "C"]);
  rows.push([reworded(publicText), ...publicOptions, "A"]);
  rows.push([reworded(own[1]!.text), ...own[1]!.options, "A"]);
  rows.push([reworded(own[2]!.text), ...own[2]!.options, "A"]);
  for (let i = 0; i < 146; i++) {
    rows.push([
      `${noise(i * 7 + 1)} ${tag}`,
      noise(i * 7 + 2, 12),
      noise(i * 7 + 3, 12),
      noise(i * 7 + 4, 12),
      noise(i * 7 + 5, 12),
      "B",
    ]);
  }
  await page.getByLabel("Choose a CSV or Excel file").setInputFiles(writeCsv("batches.csv", rows));
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Showing 10 of 150 questions")).toBeVisible();

  // Each batch of 100 is held back a moment, so the percentage can be read between them.
  await page.route("**/trpc/imports.checkDuplicates**", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await page.getByRole("button", { name: "Import Questions" }).click();
  await expect(page.getByText("Checking for duplicate questions...")).toBeVisible();
  const progress = page.getByRole("progressbar", { name: "Duplicate check progress" });
  await expect(page.getByText("0% (0 of 150)")).toBeVisible();
  await expect(page.getByText("66% (100 of 150)")).toBeVisible();
  await expect(progress).toHaveAttribute("aria-valuenow", "66");
  await expect(page.getByText("Duplicate Detection Complete")).toBeVisible();
  const stat = (label: string) =>
    page.getByRole("term").filter({ hasText: label }).locator("xpath=following-sibling::dd");
  await expect(stat("Total Questions")).toHaveText("150");
  await expect(stat("Potential Duplicates")).toHaveText("4");
  await page.unroute("**/trpc/imports.checkDuplicates**");

  // Cancel in the dialog goes back to the wizard; nothing has been saved.
  await page.getByRole("button", { name: "Review Duplicates" }).click();
  const dialog = page.getByRole("dialog", { name: "Duplicate Questions Detected" });
  await expect(dialog.getByText("Question 1 of 4")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { name: "Step 3: Review Questions" })).toBeVisible();
  await page.getByRole("button", { name: "Import Questions" }).click();
  await page.getByRole("button", { name: "Review Duplicates" }).click();

  // 1 of 4, an own question: four strategies; Manual Merge lists the fields and needs one ticked.
  await expect(dialog.getByText("Question 1 of 4")).toBeVisible();
  const strategies = dialog.getByRole("group", { name: "Resolution Strategy" }).getByRole("radio");
  await expect(strategies).toHaveCount(4);
  for (const name of ["Use Newer", "Use Metadata", "Manual Merge", "Keep Both"]) {
    await expect(dialog.getByLabel(name)).toBeVisible();
  }
  await dialog.getByLabel("Manual Merge").check();
  const fields = dialog.getByRole("group", { name: "Fields to take from the new question" });
  for (const name of [
    "Question Text",
    "Category",
    "Part",
    "Year",
    "Question Number",
    "Correct Answer",
    "Explanation",
    "Option A",
    "Option B",
    "Option C",
    "Option D",
    "Option E",
  ]) {
    await expect(fields.getByRole("checkbox", { name, exact: true })).not.toBeChecked();
  }
  const applyContinue = dialog.getByRole("button", { name: "Apply & Continue" });
  await expect(applyContinue).toBeDisabled();
  await fields.getByRole("checkbox", { name: "Correct Answer", exact: true }).check();
  await expect(applyContinue).toBeEnabled();
  await applyContinue.click();

  // 2 of 4, another user's public question: only Skip or Keep Both.
  await expect(dialog.getByText("Question 2 of 4")).toBeVisible();
  await expect(dialog.getByRole("region", { name: "Existing Question" })).toContainText(publicText);
  await expect(strategies).toHaveCount(1);
  await expect(dialog.getByLabel("Keep Both")).toBeChecked();
  await expect(dialog.getByText(/belongs to another user/)).toBeVisible();
  await dialog.getByRole("button", { name: "Skip This Question" }).click();

  // 3 of 4: Use Newer for this one and the last.
  await expect(dialog.getByText("Question 3 of 4")).toBeVisible();
  await dialog.getByLabel("Use Newer").check();
  await dialog.getByRole("button", { name: "Apply to All Remaining" }).click();

  await expect(page.getByRole("heading", { name: "Import Complete" })).toBeVisible();
  await expect(page.getByText("Successfully imported 147 questions!")).toBeVisible();
  await expectCount(page, "Total", 150);
  await expectCount(page, "Duplicates", 4);
  await expectCount(page, "Merged", 3);
  await expectCount(page, "Imported", 147);
  await expectCount(page, "Errors", 0);

  // Manual Merge took only the answer: the old wording stays. Use Newer took the new wording. Skip
  // kept both: the public original and the imported copy.
  await page.getByRole("link", { name: "View Questions" }).click();
  const search = page.getByRole("searchbox");
  // Each search waits for its own answer (the count line names the words), so a slow answer under
  // two parallel spec files is not read as a missing question.
  const find = async (words: string) => {
    await search.fill(`${words}`);
    const answered = page.waitForResponse(
      (r) => r.url().includes("questions.search") && r.url().includes(words),
      { timeout: 20_000 },
    );
    await search.press("Enter");
    await answered;
  };
  await find("prosopagnosia");
  await expect(page.getByText(own[0]!.text, { exact: true })).toHaveCount(1);
  await expect(page.getByText(reworded(own[0]!.text), { exact: true })).toHaveCount(0);
  await find("wernicke");
  await expect(page.getByText(reworded(own[1]!.text), { exact: true })).toHaveCount(1);
  await expect(page.getByText(own[1]!.text, { exact: true })).toHaveCount(0);
  await find("priapism");
  await expect(page.getByText(publicText, { exact: true })).toHaveCount(1);
  await expect(page.getByText(reworded(publicText), { exact: true })).toHaveCount(1);
});
