import fs from "node:fs";
import path from "node:path";
import {
  expect,
  makeUser,
  registerViaApi,
  seriousAxeViolations,
  test,
  trpcQuery,
} from "./fixtures";

/**
 * Issue 32's journey at 375 px: a chief resident creates a program, a resident joins by the link, the
 * chief imports a CSV as program questions and assigns a 20-question timed exam due in 3 days; the
 * resident sees it on the Dashboard and takes it; the chief sees "Done" with the score and the
 * heatmap; a user outside the program finds none of those questions in Browse.
 */
test.use({ viewport: { width: 375, height: 740 } });

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function writeCsv(name: string, rows: string[][]): string {
  const file = test.info().outputPath(name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n");
  return file;
}

/** A date `days` from today, as the date input takes it. */
function dateIn(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

test("a program's bank, a timed exam assignment, the resident's result on the dashboard, and nothing for outsiders", async ({
  page,
  user,
  newContext,
}) => {
  test.setTimeout(240_000);
  void user;
  const tag = `prog${Date.now().toString(36)}`;

  // The chief creates the program.
  await page.goto("/program/members");
  const create = page.getByRole("form", { name: "Create a program" });
  await create.getByLabel("Program name").fill("Lakeside Psychiatry");
  await create.getByRole("button", { name: "Create program" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Lakeside Psychiatry" })).toBeVisible();
  const code = (await page.getByTestId("join-code").textContent())!.trim();

  // A resident registers and joins by the link.
  const residentContext = await newContext({ viewport: { width: 375, height: 740 } });
  const resident = await residentContext.newPage();
  const trainee = makeUser({ prefix: "trainee", pgyLevel: "2" });
  await registerViaApi(resident.request, trainee);
  await resident.goto(`/join/${code}`);
  await resident.getByRole("button", { name: "Join Lakeside Psychiatry" }).click();
  await expect(
    resident.getByRole("heading", { level: 1, name: "Lakeside Psychiatry" }),
  ).toBeVisible();

  // The chief bulk-imports a CSV: a program member's import is shared with the program by default.
  const rows: string[][] = [
    ["Question", "Option A", "Option B", "Option C", "Option D", "Answer", "Category"],
  ];
  for (let i = 1; i <= 24; i++) {
    rows.push([
      `Program question ${i} about ${i % 2 ? "lithium" : "clozapine"} ${tag}`,
      "First",
      "Second",
      "Third",
      "Fourth",
      i % 3 === 0 ? "B" : "A",
      i % 2 ? "Psychopharmacology" : "Somatic Treatments",
    ]);
  }
  await page.goto("/import");
  await page.getByLabel("Choose a CSV or Excel file").setInputFiles(writeCsv("bank.csv", rows));
  await expect(page.getByRole("heading", { name: "Step 2: Configure Import" })).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("heading", { name: "Step 3: Review Questions" })).toBeVisible();
  await page.getByRole("button", { name: "Import Questions" }).click();
  await expect(page.getByRole("heading", { name: "Import Complete" })).toBeVisible();
  const imported = await trpcQuery<{ items: { visibility: string }[] }>(
    page.request,
    "questions.search",
    { text: tag, pageSize: 50 },
  );
  expect(imported.items).toHaveLength(24);
  expect(new Set(imported.items.map((q) => q.visibility))).toEqual(new Set(["program"]));

  // A 20-question timed exam for the program, due in 3 days.
  await page.goto("/program/assignments");
  await expect(page.getByRole("heading", { level: 1, name: "Assignments" })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.getByLabel("Kind").selectOption("exam");
  await page.getByLabel("Title (optional)").fill("Block 1");
  await page.getByLabel("Questions").fill("20");
  await page.getByLabel("Mode").selectOption("timed");
  await page.getByLabel("Due date").fill(dateIn(3));
  await page.getByRole("button", { name: "Assign" }).click();
  const assignment = page.getByTestId("assignment").filter({ hasText: "Block 1" });
  await expect(assignment).toContainText("Not started");

  // The resident sees it on the Dashboard and takes it.
  await resident.goto("/");
  await expect(resident.getByText("Block 1")).toBeVisible();
  await resident.getByRole("button", { name: "Start" }).first().click();
  await expect(resident.getByRole("heading", { name: "Question 1 of 20" })).toBeVisible();
  for (let i = 1; i <= 20; i++) {
    await expect(resident.getByRole("heading", { name: `Question ${i} of 20` })).toBeVisible();
    await resident.keyboard.press("a");
    if (i < 20) await resident.keyboard.press("n");
  }
  resident.once("dialog", (d) => void d.accept());
  await resident.getByRole("button", { name: "Submit Exam" }).click();
  await expect(resident.getByTestId("exam-score")).toBeVisible();

  // The chief sees Done with the score, and the resident in the dashboard's heatmap.
  await page.reload();
  await expect(assignment).toContainText("Done");
  await expect(assignment.getByRole("cell", { name: /%$/ })).toBeVisible();
  await page.goto("/program");
  await expect(page.getByRole("heading", { level: 1, name: "Program Dashboard" })).toBeVisible();
  const heatmap = page.getByRole("region", { name: "Heatmap" });
  await expect(heatmap).toContainText(trainee.username);
  await expect(heatmap).toContainText("Psychopharmacology");
  await expect(page.getByRole("region", { name: "Roster" })).toContainText(trainee.username);
  expect(await seriousAxeViolations(page)).toEqual([]);

  // What the resident's program sees of them.
  await resident.goto("/program/me");
  await expect(
    resident.getByRole("heading", { level: 1, name: "What My Program Sees" }),
  ).toBeVisible();
  expect(await seriousAxeViolations(resident)).toEqual([]);

  // Someone outside the program finds none of its questions in Browse.
  const outsiderContext = await newContext({ viewport: { width: 375, height: 740 } });
  const outsider = await outsiderContext.newPage();
  await registerViaApi(outsider.request, makeUser({ prefix: "outsider" }));
  await outsider.goto("/browse");
  const search = outsider.getByRole("searchbox");
  await search.fill(tag);
  await search.press("Enter");
  await expect(outsider.getByText("No questions match your search.")).toBeVisible();
  const seen = await trpcQuery<{ items: unknown[] }>(outsider.request, "questions.search", {
    text: tag,
    pageSize: 50,
  });
  expect(seen.items).toHaveLength(0);
});
