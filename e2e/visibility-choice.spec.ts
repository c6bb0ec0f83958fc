import path from "node:path";
import {
  expect,
  makeUser,
  registerViaApi,
  seriousAxeViolations,
  test,
  trpcMutation,
  trpcQuery,
  type TestUser,
} from "./fixtures";
import { ROOT } from "./server";

/**
 * Issue 32 item 2 on the web (docs/product/visibility.md): a program member's import is shared with
 * the program by default, Public is refused without the statement, and an edit makes a question
 * private again.
 */

test.use({ viewport: { width: 375, height: 740 } });

const CSV = path.join(ROOT, "fixtures", "real", "mmlu_clinical_knowledge_dev.csv");
const FIRST = "The energy for all forms of muscle contraction is provided by:";
const REFUSED = "To make questions public, confirm that you may share them and name their source";

interface Page {
  items: { _id: string; text: string; visibility: string; creator: string }[];
  total: number;
}

test("a program member imports for the program, Public needs the statement, an edit makes it private", async ({
  page,
  user,
  newApiContext,
}) => {
  test.setTimeout(120_000);
  const chief: TestUser = makeUser({ prefix: "chief" });
  const director = await newApiContext();
  await registerViaApi(director, chief);
  const program = await trpcMutation<{ code: string }>(director, "programs.create", {
    name: "Riverside Psychiatry",
    institution: "Riverside Health",
  });
  await trpcMutation(page.request, "programs.join", { code: program.code });
  void user;

  // The file import: program by default, named.
  await page.goto("/import");
  await page.getByLabel("Choose a CSV or Excel file").setInputFiles(CSV);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Showing 5 of 5 questions")).toBeVisible();
  const choice = page.getByRole("group", { name: "Who can see these questions" });
  await expect(
    choice.getByRole("radio", { name: /My program: Riverside Psychiatry/ }),
  ).toBeChecked();

  expect(await seriousAxeViolations(page)).toEqual([]);

  // Public without the statement is refused, and nothing is imported.
  await choice.getByRole("radio", { name: /Public/ }).check();
  await expect(choice.getByLabel("I may share these questions publicly")).not.toBeChecked();
  await page.getByRole("button", { name: "Import Questions" }).click();
  await expect(choice.getByRole("alert")).toHaveText(REFUSED);
  await expect(page.getByRole("heading", { name: "Step 3: Review Questions" })).toBeVisible();
  // The checkbox alone is not enough: the source is named too.
  await choice.getByLabel("I may share these questions publicly").click();
  await page.getByRole("button", { name: "Import Questions" }).click();
  await expect(choice.getByRole("alert")).toHaveText(REFUSED);
  const none = await trpcQuery<Page>(page.request, "questions.search", { visibility: "mine" });
  expect(none.total).toBe(0);

  // Back to the program: imported as the program's questions.
  await choice.getByRole("radio", { name: /My program/ }).check();
  await expect(choice.getByLabel("Source")).toBeHidden();
  await page.getByRole("button", { name: "Import Questions" }).click();
  await expect(page.getByText("Successfully imported 5 questions!")).toBeVisible();
  const mine = await trpcQuery<Page>(page.request, "questions.search", { visibility: "mine" });
  expect(mine.total).toBe(5);
  expect(new Set(mine.items.map((q) => q.visibility))).toEqual(new Set(["program"]));
  // The director, a member of the same program, sees them as the program's bank.
  const bank = await trpcQuery<Page>(director, "questions.search", { visibility: "program" });
  expect(bank.total).toBe(5);

  // Browse shows the Program badge; Edit Question makes the first one private.
  await page.goto("/browse");
  await page.getByRole("searchbox", { name: "Search questions" }).fill("muscle contraction");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const card = page.getByTestId("question-card").filter({ hasText: FIRST });
  await expect(card.getByText("Program", { exact: true })).toBeVisible();
  await card.getByRole("button", { name: "Edit question" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Question" });
  const level = dialog.getByRole("group", { name: "Who can see this question" });
  await expect(level.getByRole("radio", { name: /My program/ })).toBeChecked();
  // Public is refused here too without the statement.
  await level.getByRole("radio", { name: /Public/ }).check();
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(level.getByRole("alert")).toHaveText(REFUSED);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await level.getByRole("radio", { name: /Private/ }).check();
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(dialog.getByText("Question updated successfully")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card.getByText("Program", { exact: true })).toHaveCount(0);

  const after = await trpcQuery<Page>(page.request, "questions.search", { visibility: "private" });
  expect(after.items.map((q) => q.text)).toEqual([FIRST]);
  const bankAfter = await trpcQuery<Page>(director, "questions.search", { visibility: "program" });
  expect(bankAfter.total).toBe(4);
  expect(bankAfter.items.map((q) => q.text)).not.toContain(FIRST);
});
