import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { media, questionMedia, questions } from "../../src/server/db/schema";
import { validQuestion } from "../../src/server/features/questions/questions.fixtures";
import {
  addFlashcardWithImage,
  PNG,
  PNG_HASH,
} from "../../src/server/features/users/anki-export.fixtures";
import { createHarness, type Harness, type TestUser } from "../../src/server/test/harness";
import { apiFromCaller } from "../runtime";
import { runExport } from "./export";
import { runImport } from "./import";

/**
 * Issue 17 item 4's round trip, end to end through the CLI on both databases: `prite export anki`
 * of one resident's bank, then `prite import bank.apkg` into a fresh account, gives back the same
 * questions: multiple choice (stem, options, answer, explanation, category), flashcards (front, back,
 * category, deck as source) and their images, byte for byte.
 */

let h: Harness;
let owner: TestUser;
let tmp: string;

beforeAll(async () => {
  h = await createHarness();
  await h.user();
  owner = await h.user();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-anki-round-trip-"));
  await owner.caller.questions.create(validQuestion({ part: "1", year: 2024 }) as never);
  await owner.caller.questions.create(
    validQuestion({
      text: "A patient on clozapine has a fever.\nWhat is checked first?",
      options: { A: "EEG", B: "Absolute neutrophil count", C: "MRI", D: "Lumbar puncture" },
      correctAnswer: "B",
      questionType: "fourOptions",
      explanation: "Agranulocytosis first.\nThen myocarditis.",
      category: "Schizophrenia Spectrum",
      part: "1",
      year: 2024,
    }) as never,
  );
  await addFlashcardWithImage(h.db.db, owner.user.id, {
    front: `What does this <b>ECG</b> show?<br><img src="${PNG_HASH}">`,
    back: "QTc prolongation: <i>stop the citalopram</i>",
    source: "Cardiology::ECG",
    category: "Psychopharmacology",
  });
});
afterAll(async () => {
  await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function bankOf(userId: string) {
  const rows = await h.db.db
    .select()
    .from(questions)
    .where(eq(questions.creatorId, userId))
    .orderBy(asc(questions.createdAt), asc(questions.id));
  const shown = await h.db.db
    .select({ questionId: questionMedia.questionId, sha256: questionMedia.sha256 })
    .from(questionMedia)
    .innerJoin(questions, eq(questions.id, questionMedia.questionId))
    .where(eq(questions.creatorId, userId));
  return rows
    .map((r) => ({
      questionType: r.questionType === "flashcard" ? "flashcard" : "multipleChoice",
      text: r.text,
      options: r.options,
      correctAnswer: r.correctAnswer,
      explanation: r.explanation,
      back: r.back,
      category: r.category,
      part: r.part,
      year: r.year,
      images: shown.filter((s) => s.questionId === r.id).map((s) => s.sha256),
    }))
    .sort((a, b) => a.text.localeCompare(b.text));
}

describe("Anki round trip: prite export anki, then prite import into a fresh account", () => {
  it("gives back the same questions, flashcards and images", async () => {
    const file = path.join(tmp, "bank.apkg");
    const exported = await runExport(apiFromCaller(owner.caller), "anki", file);
    expect(exported.counts).toEqual({ multipleChoice: 2, flashcards: 1, images: 1 });

    const fresh = await h.user();
    const summary = await runImport(apiFromCaller(fresh.caller), [file], {
      part: "1",
      year: "2024",
    });
    expect(summary).toMatchObject({ total: 3, imported: 3, duplicates: 0 });
    expect(summary.errors).toEqual([]);
    expect(summary.warnings).toEqual([]);

    const mine = await bankOf(owner.user.id);
    const theirs = await bankOf(fresh.user.id);
    // Compared by kind (multiple choice or flashcard): the importer picks its own multiple-choice type.
    expect(theirs).toEqual(mine);
    const [stored] = await h.db.db.select().from(media).where(eq(media.sha256, PNG_HASH));
    expect(new Uint8Array(stored!.bytes)).toEqual(PNG);

    // The deck the flashcard came from is its source again; questions without one came from
    // the "PRITE Study" deck.
    const sources = await h.db.db
      .select({ text: questions.text, source: questions.source })
      .from(questions)
      .where(eq(questions.creatorId, fresh.user.id));
    expect(sources.map((s) => s.source).sort()).toEqual([
      "Cardiology::ECG",
      "PRITE Study",
      "PRITE Study",
    ]);
  }, 60_000);
});
