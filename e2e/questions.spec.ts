import type { Locator, Page } from "@playwright/test";
import { chooseSelectOption, expect, makeUser, registerViaApi, test } from "./fixtures";

/**
 * The question bank journey of issue 3: two users each add questions (one public), search, filter,
 * edit their own, see no pencil on the other's, delete their own.
 */

const stamp = Date.now().toString(36);

interface NewQuestion {
  text: string;
  options: string[];
  correct: string;
  category?: string;
  part?: "1" | "2";
  isPublic: boolean;
}

/** Picks an option of a select inside `scope` (the dialog or the search form). */
async function chooseOption(scope: Locator, label: string, option: string) {
  await chooseSelectOption(scope.getByLabel(label, { exact: true }), option);
}

async function addQuestionViaUi(page: Page, q: NewQuestion) {
  await page.getByRole("button", { name: "New Question" }).click();
  const dialog = page.getByRole("dialog", { name: "New Question" });
  await expect(dialog).toBeVisible();
  if (q.part === "2") await chooseOption(dialog, "Part", "Part 2");
  if (q.category) await chooseOption(dialog, "Category", q.category);
  await dialog.getByLabel("Question Text").fill(q.text);
  const letters = ["A", "B", "C", "D", "E"];
  for (const [i, text] of q.options.entries()) {
    await dialog.getByLabel(`Option ${letters[i]}`, { exact: true }).fill(text);
  }
  await dialog.getByRole("radio", { name: `${q.correct} is correct` }).click();
  const level = dialog.getByRole("group", { name: "Who can see this question" });
  if (q.isPublic) {
    await level.getByRole("radio", { name: /Public/ }).check();
    await level.getByLabel("I may share these questions publicly").click();
    await level.getByLabel("Source").fill("Written for this test");
  } else {
    await level.getByRole("radio", { name: /Private/ }).check();
  }
  await dialog.getByRole("button", { name: "Save Question" }).click();
  await expect(dialog.getByText("Question created successfully")).toBeVisible();
  await expect(dialog).toBeHidden();
}

async function searchFor(
  page: Page,
  text: string,
  filters: { part?: string; visibility?: string; category?: string } = {},
) {
  const form = page.getByRole("search");
  await form.getByRole("searchbox", { name: "Search questions" }).fill(text);
  if (filters.part) await chooseOption(form, "Part", filters.part);
  if (filters.category) await chooseOption(form, "Category", filters.category);
  if (filters.visibility) await chooseOption(form, "Visibility", filters.visibility);
  await page.getByRole("button", { name: "Search", exact: true }).click();
}

function cards(page: Page): Locator {
  return page.getByTestId("question-card");
}

function card(page: Page, text: string): Locator {
  return cards(page).filter({ hasText: text });
}

test("two users share, search, filter, edit and delete questions", async ({ page, newContext }) => {
  test.setTimeout(120_000);
  const alicePublic = `Alice public: first-line for bipolar maintenance ${stamp}`;
  const alicePrivate = `Alice private: clozapine monitoring ${stamp}`;
  const bobPublic = `Bob public <b>not bold</b> lithium toxicity ${stamp}`;
  const bobPrivate = `Bob private: delirium workup ${stamp}`;

  // Alice (the fixture's page is not signed in yet as anyone in particular: register her here).
  const alice = makeUser({ prefix: "alice" });
  await registerViaApi(page.request, alice);
  await page.goto("/browse");
  await expect(page.getByRole("heading", { level: 1, name: "Browse Questions" })).toBeVisible();
  await addQuestionViaUi(page, {
    text: alicePublic,
    options: ["Lithium", "Haloperidol", "Sertraline"],
    correct: "A",
    category: "Bipolar Disorders",
    isPublic: true,
  });
  await addQuestionViaUi(page, {
    text: alicePrivate,
    options: ["Weekly ANC", "Lipids"],
    correct: "A",
    part: "2",
    isPublic: false,
  });
  await expect(card(page, alicePublic)).toBeVisible();
  await expect(card(page, alicePrivate)).toBeVisible();

  // Bob, in a browser of his own.
  const bobPage = await (await newContext()).newPage();
  const bob = makeUser({ prefix: "bob" });
  await registerViaApi(bobPage.request, bob);
  await bobPage.goto("/browse");
  await addQuestionViaUi(bobPage, {
    text: bobPublic,
    options: ["Coarse tremor", "Bradycardia"],
    correct: "A",
    category: "Psychopharmacology",
    isPublic: true,
  });
  await addQuestionViaUi(bobPage, {
    text: bobPrivate,
    options: ["Glucose", "Ammonia"],
    correct: "B",
    isPublic: false,
  });

  // Search: Bob finds Alice's public question, never her private one, and gets no pencil on it.
  await searchFor(bobPage, stamp);
  await expect(bobPage.getByTestId("result-count")).toHaveText("3 questions found");
  await expect(card(bobPage, alicePublic)).toBeVisible();
  await expect(card(bobPage, alicePrivate)).toHaveCount(0);
  await expect(
    card(bobPage, alicePublic).getByRole("button", { name: "Edit question" }),
  ).toHaveCount(0);
  await expect(card(bobPage, alicePublic).getByTestId("contributor")).toHaveText(
    "Contributed by Anonymous",
  );
  await expect(card(bobPage, alicePublic).getByText("Public", { exact: true })).toBeVisible();
  // Markup in a question is shown as the characters typed.
  await expect(card(bobPage, bobPublic).getByTestId("question-text")).toHaveText(bobPublic);
  await expect(card(bobPage, bobPublic).locator("b")).toHaveCount(0);
  // The correct option is highlighted.
  await expect(card(bobPage, alicePublic).locator("li[data-correct]")).toHaveText(/Lithium/);

  // Searching the private question's own words finds nothing for Bob.
  await searchFor(bobPage, `clozapine monitoring ${stamp}`);
  await expect(bobPage.getByTestId("result-count")).toHaveText("0 questions found");

  // Filters: mine, public, part.
  await searchFor(bobPage, stamp, { visibility: "My Questions" });
  await expect(bobPage.getByTestId("result-count")).toHaveText("2 questions found");
  await expect(card(bobPage, bobPrivate)).toBeVisible();
  await expect(card(bobPage, alicePublic)).toHaveCount(0);
  await searchFor(bobPage, stamp, { visibility: "Public Questions" });
  await expect(bobPage.getByTestId("result-count")).toHaveText("2 questions found");
  await expect(card(bobPage, bobPrivate)).toHaveCount(0);
  await searchFor(bobPage, stamp, { visibility: "All Questions", category: "Bipolar Disorders" });
  await expect(cards(bobPage)).toHaveCount(1);
  await expect(card(bobPage, alicePublic)).toBeVisible();

  // Edit his own question.
  await searchFor(bobPage, stamp, { category: "All Categories", visibility: "My Questions" });
  await card(bobPage, bobPrivate).getByRole("button", { name: "Edit question" }).click();
  const edit = bobPage.getByRole("dialog", { name: "Edit Question" });
  await expect(edit.getByLabel("Question Text")).toHaveValue(bobPrivate);
  await edit.getByLabel("Question Text").fill(`${bobPrivate} (edited)`);
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit.getByText("Question updated successfully")).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(card(bobPage, `${bobPrivate} (edited)`)).toBeVisible();

  // Delete it, after confirming.
  await card(bobPage, bobPrivate).getByRole("button", { name: "Edit question" }).click();
  await bobPage
    .getByRole("dialog", { name: "Edit Question" })
    .getByRole("button", { name: "Delete" })
    .click();
  const confirm = bobPage.getByRole("alertdialog", {
    name: "Are you sure you want to delete this question?",
  });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(bobPage.getByText("Question deleted successfully")).toBeVisible();
  await expect(card(bobPage, bobPrivate)).toHaveCount(0);
  await expect(bobPage.getByTestId("result-count")).toHaveText("1 question found");

  // Alice sees Bob's public question without a pencil, and the part filter narrows her own.
  await searchFor(page, stamp);
  await expect(card(page, bobPublic)).toBeVisible();
  await expect(card(page, bobPublic).getByRole("button", { name: "Edit question" })).toHaveCount(0);
  await expect(
    card(page, alicePublic).getByRole("button", { name: "Edit question" }),
  ).toBeVisible();
  await searchFor(page, stamp, { part: "Part 2" });
  await expect(cards(page)).toHaveCount(1);
  await expect(card(page, alicePrivate)).toBeVisible();
});

test("the edit form checks the spec's rules and switches question types", async ({
  page,
  user,
}) => {
  void user;
  await page.goto("/browse");
  await page.getByRole("button", { name: "New Question" }).click();
  const dialog = page.getByRole("dialog", { name: "New Question" });
  await dialog.getByRole("button", { name: "Save Question" }).click();
  await expect(dialog.getByText("Question text is required")).toBeVisible();
  await dialog.getByLabel("Question Text").fill(`Typed by hand ${stamp}`);
  await dialog.getByLabel("Option A", { exact: true }).fill("One");
  await dialog.getByRole("button", { name: "Save Question" }).click();
  await expect(dialog.getByText("At least options A and B are required")).toBeVisible();
  await dialog.getByLabel("Option B", { exact: true }).fill("Two");
  await dialog.getByRole("button", { name: "Save Question" }).click();
  await expect(dialog.getByText("Please select a correct answer")).toBeVisible();

  // Multiple correct: instructions set, 15 option letters, 3 answers asked, a warning that does not block.
  await chooseOption(dialog, "Question Type", "Multiple Correct");
  await expect(dialog.getByLabel("Instructions")).toHaveValue("Select the THREE correct answers.");
  await expect(dialog.getByLabel("Number of Correct Answers")).toHaveValue("3");
  await expect(dialog.getByLabel("Option O", { exact: true })).toBeVisible();
  await dialog.getByRole("button", { name: "Save Question" }).click();
  await expect(dialog.getByText("Please select at least one correct answer")).toBeVisible();
  await dialog.getByRole("checkbox", { name: "A is correct" }).click();
  await expect(dialog.getByTestId("count-warning")).toHaveText(
    "You've selected 1 answers, but specified 3 correct answers",
  );
  await chooseOption(dialog, "Question Type", "Four Options");
  await expect(dialog.getByLabel("Option E", { exact: true })).toHaveCount(0);
  await expect(dialog.getByLabel("Number of Correct Answers")).toHaveValue("1");
  await dialog.getByRole("radio", { name: "B is correct" }).click();
  await dialog.getByRole("button", { name: "Save Question" }).click();
  await expect(dialog.getByText("Question created successfully")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card(page, `Typed by hand ${stamp}`)).toBeVisible();
});
