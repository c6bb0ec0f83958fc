import {
  expect,
  makeUser,
  registerViaApi,
  seriousAxeViolations,
  test,
  trpcMutation,
} from "./fixtures";

/**
 * Issue 36's journey at 375 px: a resident reports a wrong key from Study; the owner sees the report on
 * the Reports page, fixes the key in the editor and marks the report fixed with a note; the resident
 * reads the answer under My reports; the question's history shows the key's change.
 */
test.use({ viewport: { width: 375, height: 740 } });

test("a wrong key reported from Study, fixed by its owner, and the answer read by the resident", async ({
  page,
  user,
  newContext,
}) => {
  test.setTimeout(180_000);
  void user;
  const stamp = Date.now().toString(36);
  const text = `Which drug needs weekly blood counts at first? [${stamp}]`;
  // The owner shares a question whose key is wrong (A; clozapine is B).
  await trpcMutation(page.request, "questions.create", {
    text,
    options: { A: "Lithium", B: "Clozapine", C: "Sertraline", D: "Bupropion" },
    correctAnswer: "A",
    questionType: "fourOptions",
    category: "Psychopharmacology",
    part: "1",
    year: 2024,
    visibility: "public",
    shareStatement: "I may share these questions publicly. Source: written by me",
  });

  // A resident studies it, answers B, is told it is wrong, and reports the key.
  const residentContext = await newContext({ viewport: { width: 375, height: 740 } });
  const resident = await residentContext.newPage();
  await registerViaApi(resident.request, makeUser({ prefix: "resident" }));
  await resident.goto("/study");
  await resident.getByRole("button", { name: "Start Studying" }).click();
  while ((await resident.getByTestId("question-text").innerText()) !== text) {
    await resident.getByRole("button", { name: "Next Question" }).click();
  }
  await resident.getByRole("radio", { name: "B. Clozapine" }).click();
  await resident.getByRole("button", { name: "Check Answer" }).click();
  await expect(resident.getByText("Not quite right.")).toBeVisible();
  await resident.getByRole("button", { name: "Report a problem" }).click();
  const dialog = resident.getByRole("dialog", { name: "Report a problem" });
  await expect(dialog.getByRole("radio", { name: "Wrong answer" })).toBeChecked();
  await dialog.getByLabel("Comment").fill("Clozapine (B) needs the weekly counts, not lithium");
  expect(await seriousAxeViolations(resident)).toEqual([]);
  await dialog.getByRole("button", { name: "Send report" }).click();
  await expect(dialog).toBeHidden();
  await expect(resident.getByRole("status").filter({ hasText: "Reported." })).toBeVisible();

  // Until it is fixed, readers see the quiet notice with the report's text (Browse here).
  await resident.goto("/browse");
  await resident.getByRole("searchbox", { name: "Search questions" }).fill(stamp);
  await resident.getByRole("button", { name: "Search" }).click();
  const card = resident.getByTestId("question-card").filter({ hasText: stamp });
  await expect(card.getByTestId("reported-notice")).toContainText(
    "Reported: the key may be wrong — “Clozapine (B) needs the weekly counts, not lithium”",
  );

  // The owner sees it on the Reports page, fixes the key in the editor and marks it fixed.
  await page.goto("/reports");
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
  const item = page.getByTestId("queue-item").filter({ hasText: stamp });
  await expect(item).toContainText("Wrong answer");
  await expect(item).toContainText("Clozapine (B) needs the weekly counts");
  expect(await seriousAxeViolations(page)).toEqual([]);
  await item.getByRole("button", { name: "Edit the question" }).click();
  const editor = page.getByRole("dialog", { name: "Edit Question" });
  await editor.getByRole("radio", { name: "B is correct" }).click();
  await editor.getByRole("button", { name: "Save Changes" }).click();
  await expect(editor.getByText("Question updated successfully")).toBeVisible();
  await expect(editor).toBeHidden();
  await item.getByLabel("Note to the reporter").fill("Thanks: the key is now B");
  await item.getByRole("button", { name: "Mark fixed" }).click();
  await expect(page.getByText("Report fixed: the reporter sees your note")).toBeVisible();

  // The resident reads the answer under My reports.
  await resident.goto("/reports");
  const mine = resident.getByTestId("my-report").filter({ hasText: stamp });
  await expect(mine).toContainText("Fixed");
  await expect(mine.getByTestId("report-response")).toContainText("Thanks: the key is now B");
  // Fixed: the notice is gone.
  await resident.goto("/browse");
  await resident.getByRole("searchbox", { name: "Search questions" }).fill(stamp);
  await resident.getByRole("button", { name: "Search" }).click();
  await expect(card.getByRole("listitem").filter({ hasText: "Clozapine" })).toHaveAttribute(
    "data-correct",
    "true",
  );
  await expect(card.getByTestId("reported-notice")).toHaveCount(0);

  // The owner's history of the question shows the key's change.
  await page.goto("/browse");
  await page.getByRole("searchbox", { name: "Search questions" }).fill(stamp);
  await page.getByRole("button", { name: "Search" }).click();
  const ownCard = page.getByTestId("question-card").filter({ hasText: stamp });
  await ownCard.getByRole("button", { name: "History" }).click();
  const history = page.getByRole("dialog", { name: "Question history" });
  await expect(
    history.getByTestId("history-version").first().locator('[data-field="key"]'),
  ).toContainText("Answer key: A → B");
});
