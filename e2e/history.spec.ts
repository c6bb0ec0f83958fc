import { expect, seriousAxeViolations, test, trpcMutation } from "./fixtures";

/**
 * Issue 36 item 4 on a phone (docs/product/history.md): the owner changes a question's key, opens its
 * History from Browse, sees the change, and restores the earlier version.
 */

test.use({ viewport: { width: 375, height: 740 } });

const stamp = Date.now().toString(36);
const TEXT = `Which drug is first line for bipolar maintenance? ${stamp}`;

test("the owner edits a key, sees it in the history, and restores the earlier version", async ({
  page,
  user,
}) => {
  test.setTimeout(90_000);
  void user;
  await trpcMutation(page.request, "questions.create", {
    text: TEXT,
    options: { A: "Haloperidol", B: "Lithium", C: "Sertraline", D: "Diazepam", E: "Clozapine" },
    correctAnswer: "B",
    category: "Bipolar Disorders",
    part: "1",
    year: 2024,
    visibility: "private",
  });

  await page.goto("/browse");
  const form = page.getByRole("search");
  await form.getByRole("searchbox", { name: "Search questions" }).fill(stamp);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const card = page.getByTestId("question-card").filter({ hasText: TEXT });
  await expect(card.locator("li[data-correct]")).toHaveText(/Lithium/);

  // Change the key from B to C.
  await card.getByRole("button", { name: "Edit question" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Question" });
  await edit.getByRole("radio", { name: "C is correct" }).click();
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit.getByText("Question updated successfully")).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(card.locator("li[data-correct]")).toHaveText(/Sertraline/);

  // The history shows the change, newest first.
  await card.getByRole("button", { name: "History" }).click();
  const history = page.getByRole("dialog", { name: "Question history" });
  const versions = history.getByTestId("history-version");
  await expect(versions).toHaveCount(2);
  await expect(versions.nth(0)).toContainText("Version 2");
  await expect(versions.nth(0)).toContainText("Current");
  await expect(versions.nth(0)).toContainText(user.username);
  await expect(versions.nth(0).locator('[data-field="key"]')).toHaveText("Answer key: B → C");
  await expect(versions.nth(1)).toContainText("Version 1");
  await expect(versions.nth(1)).toContainText("First version");
  expect(await seriousAxeViolations(page)).toEqual([]);
  // The dialog fits the phone's width.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);

  // Restore version 1, after confirming.
  await expect(versions.nth(0).getByRole("button", { name: /Restore this version/ })).toHaveCount(
    0,
  );
  await versions
    .nth(1)
    .getByRole("button", { name: /Restore this version/ })
    .click();
  const confirm = page.getByRole("alertdialog", { name: "Restore version 1?" });
  await confirm.getByRole("button", { name: "Restore" }).click();
  await expect(history.getByTestId("history-status")).toHaveText("Version 1 restored");
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0)).toContainText("Version 3");
  await expect(versions.nth(0)).toContainText("Restored from version 1");
  await expect(versions.nth(0).locator('[data-field="key"]')).toHaveText("Answer key: C → B");

  // Back in Browse, the question reads as version 1 again.
  await history.getByRole("button", { name: "Close" }).click();
  await expect(history).toBeHidden();
  await expect(card.locator("li[data-correct]")).toHaveText(/Lithium/);
});
