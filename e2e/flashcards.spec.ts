import type { Page } from "@playwright/test";
import { chooseSelectOption, expect, test, trpcMutation } from "./fixtures";

/**
 * Issue 17 in Browse: a flashcard written in the front/back editor, with hostile markup that the preview
 * and the saved card both render inert while formatting stays; the kind shown on each card; editing the
 * back; the Type and Source filters.
 */

const stamp = Date.now().toString(36);

/** The CSP would stop inline handlers anyway: off here, so the sanitizing itself is what is tested. */
test.use({ bypassCSP: true });

function watchDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on("dialog", (dialog) => {
    opened.push(dialog.message());
    void dialog.dismiss();
  });
  return opened;
}

async function expectInert(page: Page, dialogs: string[]) {
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator("main script")).toHaveCount(0);
  await expect(page.locator("main iframe")).toHaveCount(0);
  expect(dialogs).toEqual([]);
}

test("a flashcard written in Browse's editor: formatting kept, scripts gone, editable, filtered by type and source", async ({
  page,
  user,
}) => {
  void user;
  // A long journey (two dialogs, four searches) on a machine shared with other work.
  test.setTimeout(120_000);
  const dialogs = watchDialogs(page);
  const deck = `Deck ${stamp}`;
  // A multiple-choice question and a flashcard from a deck, to filter between.
  await trpcMutation(page.request, "questions.create", {
    text: `Which drug needs ANC monitoring? ${stamp}`,
    options: { A: "Clozapine", B: "Sertraline" },
    correctAnswer: "A",
    part: "1",
    year: new Date().getFullYear(),
  });
  await trpcMutation(page.request, "questions.createFlashcard", {
    front: `Imported card ${stamp}`,
    back: "From a deck",
    part: "1",
    year: new Date().getFullYear(),
    source: deck,
  });

  await page.goto("/browse");
  await page.getByRole("button", { name: "New Flashcard" }).click();
  const dialog = page.getByRole("dialog", { name: "New Flashcard" });
  const front = dialog.getByLabel("Front", { exact: true });
  await front.fill(
    `Lithium ${stamp} <img src=x onerror="window.__xss=1"><script>window.__xss=2</script>` +
      `<iframe src="javascript:window.__xss=3"></iframe>`,
  );
  // Bold through the toolbar: select the word, press B.
  await front.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(0, "Lithium".length));
  await dialog.getByRole("button", { name: "Bold (front)" }).click();
  await expect(front).toHaveValue(new RegExp(`^<b>Lithium</b> ${stamp}`));
  await expect(dialog.getByTestId("flashcard-front-preview").locator("b")).toHaveText("Lithium");
  await expectInert(page, dialogs);

  await dialog.getByLabel("Back", { exact: true }).fill("<ul><li>Renal</li><li>Thyroid</li></ul>");
  await expect(dialog.getByTestId("flashcard-back-preview").locator("li")).toHaveCount(2);
  await dialog.getByRole("button", { name: "Save Flashcard" }).click();
  await expect(dialog.getByText("Flashcard created successfully")).toBeVisible();
  await expect(dialog).toBeHidden();

  // The card: its kind, the front's bold, the back's list, nothing that runs.
  const search = page.getByRole("searchbox", { name: "Search questions" });
  await search.fill(stamp);
  await chooseSelectOption(page.getByLabel("Type", { exact: true }), "Flashcard");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const cards = page.getByTestId("question-card");
  await expect(cards).toHaveCount(2);
  const mine = cards.filter({ hasText: `Lithium ${stamp}` });
  await expect(mine.getByTestId("question-kind")).toHaveText("Flashcard");
  await expect(mine.getByTestId("question-text").locator("b")).toHaveText("Lithium");
  await expect(mine.getByTestId("flashcard-back").locator("li")).toHaveText(["Renal", "Thyroid"]);
  await expectInert(page, dialogs);

  // Multiple choice only.
  await chooseSelectOption(page.getByLabel("Type", { exact: true }), "Multiple choice");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(cards).toHaveCount(1);
  await expect(cards.getByTestId("question-kind")).toHaveText("Multiple choice");

  // By source: the deck's card only, its source shown.
  await chooseSelectOption(page.getByLabel("Type", { exact: true }), "All Types");
  await chooseSelectOption(page.getByLabel("Source", { exact: true }), deck);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(cards).toHaveCount(1);
  await expect(cards.getByTestId("question-source")).toHaveText(`From ${deck}`);

  // Edit the written card's back.
  await chooseSelectOption(page.getByLabel("Source", { exact: true }), "All Sources");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await mine.getByRole("button", { name: "Edit flashcard" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Flashcard" });
  await expect(edit.getByLabel("Front", { exact: true })).toHaveValue(
    new RegExp(`^<b>Lithium</b> ${stamp}$`),
  );
  await edit.getByLabel("Back", { exact: true }).fill("Renal and <i>thyroid</i> function");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit).toBeHidden();
  await expect(mine.getByTestId("flashcard-back").locator("i")).toHaveText("thyroid");
  await expectInert(page, dialogs);
});
