import fs from "node:fs";
import { convertAnkiPackage, readAnkiPackage, sqlJsLoader } from "../src/core/import/anki";
import { expect, test, trpcMutation } from "./fixtures";

// Issue 17, decision 245: Settings > Data "Export for Anki" downloads an .apkg that the app's own
// Anki reader opens, holding the resident's questions.

const loadSqlite = sqlJsLoader();

test("data management: Export for Anki downloads a deck the Anki reader opens", async ({
  page,
  user: _signedIn,
}) => {
  await page.goto("/settings?tab=data");
  const button = page.getByRole("button", { name: "Export for Anki" });
  await button.click();
  // Nothing to export yet: said so, nothing downloaded.
  await expect(
    page.getByRole("status").filter({ hasText: "You have no questions to export yet." }),
  ).toBeVisible();

  await trpcMutation(page.request, "questions.create", {
    text: "First-line treatment for a severe lithium overdose?\nThe level is 4.2 mmol/L.",
    options: { A: "Hemodialysis", B: "Activated charcoal", C: "Flumazenil", D: "Naloxone" },
    correctAnswer: "A",
    explanation: "Lithium is dialyzable; charcoal does not bind it.",
    category: "Psychopharmacology",
    part: "1",
    year: 2024,
  });

  const stamp = new Date().toLocaleDateString("en-CA", { timeZone: "America/New_York" });
  const downloading = page.waitForEvent("download");
  await button.click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe(`prite_questions_${stamp}.apkg`);
  await expect(
    page.getByRole("status").filter({ hasText: "Anki deck exported successfully" }),
  ).toBeVisible();

  const bytes = new Uint8Array(fs.readFileSync((await file.path())!));
  const pkg = await readAnkiPackage(bytes, { loadSqlite });
  expect(pkg.format).toBe("anki2");
  const result = convertAnkiPackage(pkg, { part: "1", year: 2024 });
  expect(result.flashcards).toEqual([]);
  expect(result.questions).toEqual([
    expect.objectContaining({
      text: "First-line treatment for a severe lithium overdose?\nThe level is 4.2 mmol/L.",
      options: {
        A: "Hemodialysis",
        B: "Activated charcoal",
        C: "Flumazenil",
        D: "Naloxone",
        E: "",
      },
      correctAnswer: "A",
      explanation: "Lithium is dialyzable; charcoal does not bind it.",
      category: "Psychopharmacology",
    }),
  ]);
});
