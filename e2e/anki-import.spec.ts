import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test, trpcQuery } from "./fixtures";
import { ROOT } from "./server";

/** The real decks committed with the project (fixtures/real/SOURCES.md says where each is from). */
const REAL_FIXTURES = path.join(ROOT, "fixtures", "real");

async function expectTile(page: Page, group: string, label: string, value: number) {
  const tile = page
    .getByLabel(group)
    .locator("div")
    .filter({ has: page.getByText(label, { exact: true }) });
  await expect(tile.getByRole("definition")).toHaveText(String(value));
}

test("an Anki deck: uploaded on the Anki tab, reviewed, imported with its image, found in Browse, then studied", async ({
  page,
  user,
}) => {
  void user;
  // Reading, checking, uploading and saving, then Browse: more than the default under load.
  test.setTimeout(120_000);
  // The reader and its WASM arrive only once a deck is chosen.
  const wasm: string[] = [];
  page.on("request", (r) => {
    if (/\.wasm$/.test(new URL(r.url()).pathname)) wasm.push(r.url());
  });
  await page.goto("/import");
  await page.getByRole("tab", { name: "Anki Import" }).click();
  expect(wasm).toEqual([]);
  await page
    .getByLabel("Choose an Anki deck")
    .setInputFiles(path.join(REAL_FIXTURES, "anki_apkg_export_output.apkg"));

  await expect(page.getByText("Review anki_apkg_export_output.apkg")).toBeVisible();
  expect(wasm).toHaveLength(1);
  await expectTile(page, "Deck contents", "Multiple choice", 0);
  await expectTile(page, "Deck contents", "Flashcards", 3);
  await expectTile(page, "Deck contents", "Skipped notes", 0);
  await expectTile(page, "Deck contents", "Images", 1);
  const first = page.getByRole("list", { name: "First questions of the deck" });
  await expect(first.getByRole("listitem")).toHaveCount(3);
  await expect(first).toContainText("card #1 front");

  // Issue 31: each tag with the category it sets ('food' and 'fruit' are on one note of three: their
  // leaves; the note takes the first), changed here to a category of the list.
  const food = page.getByLabel("Category for tag food");
  await expect(food).toHaveValue("Food");
  await expect(page.getByLabel("Category for tag fruit")).toHaveValue("Fruit");
  await expect(first.getByRole("listitem").first()).toContainText("Food");
  await food.fill("psychopharmacology");
  await food.press("Enter");
  await expect(food).toHaveValue("Psychopharmacology");
  await expect(first.getByRole("listitem").first()).toContainText("Psychopharmacology");

  await page.getByRole("button", { name: "Import 3 Questions" }).click();
  await expect(page.getByRole("heading", { name: "Import Complete" })).toBeVisible();
  await expect(page.getByText("Successfully imported 3 questions!")).toBeVisible();

  // The image travelled with its flashcard: stored, and named by hash in the card's HTML.
  const bank = await trpcQuery<{
    questions: { text: string; questionType: string; category: string }[];
  }>(page.request, "users.exportQuestions");
  const cards = bank.questions.filter((q) => q.questionType === "flashcard");
  expect(cards.find((q) => q.text === "card #1 front")?.category).toBe("Psychopharmacology");
  expect(cards.map((q) => q.text.replace(/<img src="[0-9a-f]{64}">/, "[img]"))).toEqual(
    expect.arrayContaining(["card #1 front", "card #2 front", "card #3 with image [img]"]),
  );

  await page.getByRole("link", { name: "View Questions" }).click();
  await expect(page).toHaveURL(/\/browse$/);
  const search = page.getByRole("searchbox");
  await search.fill("card #2 front");
  await search.press("Enter");
  await expect(page.getByText("card #2 front").first()).toBeVisible();

  // Then studied: the image card shows its picture, and each flashcard is rated with the keyboard.
  await page.goto("/study");
  await expect(page.getByTestId("overview-due")).toHaveText("3");
  await page.getByRole("button", { name: "Start Studying" }).click();
  const fronts: string[] = [];
  for (let i = 1; i <= 3; i++) {
    await expect(page.getByRole("heading", { name: `Question ${i}/3` })).toBeVisible();
    const front = page.getByTestId("flashcard-front");
    await expect(front).toContainText("card #");
    const text = (await front.textContent()) ?? "";
    fronts.push(text.trim());
    if (text.includes("with image")) {
      const img = front.locator("img");
      await expect(img).toHaveAttribute("src", /^\/api\/media\/[0-9a-f]{64}$/);
      await expect
        .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
    }
    await page.keyboard.press("Space");
    await expect(page.getByTestId("flashcard-back")).toBeVisible();
    await page.keyboard.press(i === 1 ? "1" : "3");
  }
  await expect(page.getByText("Session Complete")).toBeVisible();
  expect(fronts.some((f) => f.includes("with image"))).toBe(true);
  // Again on the first counts as incorrect, Good on the others as correct.
  await expect
    .poll(async () => {
      const s = await trpcQuery<{ totalStudied: number; correctAnswers: number }>(
        page.request,
        "stats.summary",
      );
      return [s.totalStudied, s.correctAnswers];
    })
    .toEqual([3, 2]);
});

test("a file that is not an Anki deck is refused in the product's words", async ({
  page,
  user,
}) => {
  void user;
  await page.goto("/import");
  await page.getByRole("tab", { name: "Anki Import" }).click();
  await page.getByLabel("Choose an Anki deck").setInputFiles({
    name: "notes.apkg",
    mimeType: "application/octet-stream",
    buffer: Buffer.from("just some text, not a deck"),
  });
  await expect(
    page.getByText(
      "This file is not an Anki deck. Export the deck from Anki as an .apkg file and try again.",
    ),
  ).toBeVisible();
});
