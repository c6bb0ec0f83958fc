import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertAnkiPackage, readAnkiPackage, sqlJsLoader } from "../../../core/import/anki";
import { toImportItem } from "../../../core/import/plan";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { validQuestion } from "../questions/questions.fixtures";
import { addFlashcardWithImage, PNG, PNG_HASH } from "./anki-export.fixtures";
import { restAs } from "./users.fixtures";

/**
 * Export for Anki (decision 245) on both databases: the caller's own questions, multiple choice and
 * flashcards with their images, come back from the .apkg through the app's own Anki reader, and the
 * multiple-choice ones go into a fresh account through the import pipeline and come out the same.
 */

let h: Harness;
let owner: TestUser;
const loadSqlite = sqlJsLoader();

const FRONT = `What does this <b>ECG</b> show?<br><img src="${PNG_HASH}">`;
const BACK = "QTc prolongation: <i>stop the citalopram</i>";

const MCQS = [
  validQuestion({ number: 1 }),
  validQuestion({
    text: "A patient on clozapine has a fever.\nWhat is the next step?",
    options: { A: "ANC", B: "EEG", C: "MRI", D: "Lumbar puncture" },
    correctAnswer: "A",
    questionType: "fourOptions",
    explanation: "",
    category: "Schizophrenia Spectrum",
    part: "2",
    year: 2022,
    number: 2,
  }),
];

beforeAll(async () => {
  h = await createHarness();
  await h.user(); // the first account is the admin
  owner = await h.user();
  for (const q of MCQS) await owner.caller.questions.create(q as never);
  await addFlashcardWithImage(h.db.db, owner.user.id, {
    front: FRONT,
    back: BACK,
    source: "Cardiology::ECG",
    category: "Psychopharmacology",
  });
});
afterAll(async () => {
  await h.close();
});

async function readBack(base64: string) {
  const pkg = await readAnkiPackage(new Uint8Array(Buffer.from(base64, "base64")), { loadSqlite });
  return { pkg, result: convertAnkiPackage(pkg, { part: "1", year: 2024 }) };
}

describe("users.exportAnki", () => {
  it("exports the caller's questions, flashcards and images in an .apkg the Anki reader opens", async () => {
    const out = await owner.caller.users.exportAnki();
    expect(out).toMatchObject({
      success: true,
      counts: { multipleChoice: 2, flashcards: 1, images: 1 },
      message: "Anki deck exported successfully",
    });
    expect(out.fileName).toMatch(/^prite_questions_\d{4}-\d{2}-\d{2}\.apkg$/);
    const { pkg, result } = await readBack(out.package);
    expect(result.warnings).toEqual([]);
    expect(result.flashcards).toHaveLength(1);
    const card = result.flashcards[0]!;
    expect(card.front).toBe(FRONT.replace(PNG_HASH, `${PNG_HASH}.png`));
    expect(card.back).toBe(BACK);
    expect(card).toMatchObject({ source: "Cardiology::ECG", category: "Psychopharmacology" });
    expect(pkg.media.get(`${PNG_HASH}.png`)).toEqual(PNG);
  });

  it("round trip: imported into a fresh account, the multiple-choice questions are the same", async () => {
    const { result } = await readBack((await owner.caller.users.exportAnki()).package);
    const fresh = await h.user();
    const items = result.questions.map((q) => ({
      question: toImportItem(q),
      action: "create" as const,
    }));
    await fresh.caller.imports.commit({ items } as never);
    const pick = (q: {
      text: string;
      options: Record<string, string>;
      correctAnswer: string;
      explanation: string;
      category: string;
    }) => ({
      text: q.text,
      options: q.options,
      correctAnswer: q.correctAnswer,
      explanation: q.explanation,
      category: q.category,
    });
    const mine = (await owner.caller.users.exportQuestions()).questions
      .filter((q) => q.questionType !== "flashcard")
      .map(pick);
    const theirs = (await fresh.caller.users.exportQuestions()).questions.map(pick);
    expect(theirs).toEqual(mine);
    expect(theirs).toHaveLength(MCQS.length);
  });

  it("never holds another user's questions; an empty bank is an empty package", async () => {
    const other = await h.user();
    const out = await other.caller.users.exportAnki();
    expect(out.counts).toEqual({ multipleChoice: 0, flashcards: 0, images: 0 });
    const pkg = await readAnkiPackage(new Uint8Array(Buffer.from(out.package, "base64")), {
      loadSqlite,
    });
    expect(pkg.notes).toEqual([]);
    expect(pkg.media.size).toBe(0);
    await other.caller.questions.create(validQuestion({ text: "Only mine?" }) as never);
    const { result } = await readBack((await other.caller.users.exportAnki()).package);
    expect(result.questions.map((q) => q.text)).toEqual(["Only mine?"]);
    expect(result.flashcards).toEqual([]);
  });

  it("GET /api/users/export/anki answers the same package, and 401 without a session", async () => {
    const rest = restAs(h);
    const res = await rest("GET", "/api/users/export/anki", owner);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { success: boolean; package: string; counts: unknown };
    expect(body.success).toBe(true);
    expect(body.counts).toEqual({ multipleChoice: 2, flashcards: 1, images: 1 });
    const { result } = await readBack(body.package);
    expect(result.questions.map((q) => q.text).sort()).toEqual(
      MCQS.map((q) => String(q.text)).sort(),
    );
    expect((await rest("GET", "/api/users/export/anki", null)).statusCode).toBe(401);
  });
});
