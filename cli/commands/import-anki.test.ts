import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANKI_MESSAGES } from "../../src/core/import/anki";
import {
  BASIC,
  BASIC_REVERSED,
  buildPackage,
  CLOZE,
  type TestDeck,
} from "../../src/core/import/anki/deck-builder.test-utils";
import { media, questionMedia, questions, studyStates } from "../../src/server/db/schema";
import { createHarness, type Harness, type TestUser } from "../../src/server/test/harness";
import { apiFromCaller, type Api } from "../runtime";
import { formatImportSummary, runImport, type ImportOptions } from "./import";

const REAL = path.resolve(__dirname, "../../fixtures/real");
const HAM = path.join(REAL, "ham_extra_class_2024_2028.apkg");
const EXPORT = path.join(REAL, "anki_apkg_export_output.apkg");
const DAY = 86_400_000;
/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  ),
);

let h: Harness;
let tmp: string;

beforeAll(async () => {
  h = await createHarness();
  await h.user(); // the first account is the admin; the tests act as residents
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-anki-import-"));
});
afterAll(async () => {
  await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function resident(): Promise<{ user: TestUser; api: Api }> {
  const user = await h.user();
  return { user, api: apiFromCaller(user.caller) };
}

const opts = (extra: ImportOptions = {}): ImportOptions => ({ part: "1", year: "2024", ...extra });

async function writeDeck(
  name: string,
  deck: TestDeck,
  mediaFiles?: Record<string, Uint8Array>,
): Promise<string> {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, await buildPackage(deck, { format: "anki21b", media: mediaFiles }));
  return file;
}

async function ownQuestions(userId: string) {
  return h.db.db
    .select()
    .from(questions)
    .where(eq(questions.creatorId, userId))
    .orderBy(asc(questions.createdAt));
}

describe("prite import deck.apkg: the real decks", () => {
  it("ham_extra_class_2024_2028.apkg: 590 multiple choice with inferred answers, the CSV header skipped, the deck as source", async () => {
    const { user, api } = await resident();
    const summary = await runImport(api, [HAM], opts());
    expect(summary).toMatchObject({ total: 590, imported: 590, duplicates: 0, skipped: 0 });
    expect(summary.deck).toMatchObject({ multipleChoice: 590, flashcards: 0, images: 0 });
    expect(summary.deck!.skippedNotes).toHaveLength(1);
    expect(summary.deck!.skippedNotes[0]!.message).toMatch(/spreadsheet header/);
    expect(summary.warnings).toHaveLength(590);
    expect(summary.errors).toEqual([]);
    const rows = await ownQuestions(user.user.id);
    expect(rows).toHaveLength(590);
    expect(rows.every((r) => r.questionType !== "flashcard" && r.correctAnswer !== "")).toBe(true);
    expect(new Set(rows.map((r) => r.source)).size).toBe(1);
    expect(rows[0]!.source).not.toBe("");
    const text = formatImportSummary(summary);
    expect(text).toContain(
      "ham_extra_class_2024_2028.apkg: 590 multiple choice, 0 flashcards, 1 notes skipped",
    );
    expect(text).toMatch(
      /Skipped notes: 1\n {2}ham_extra_class_2024_2028\.apkg note \d+: A spreadsheet header/,
    );
    // Issue 31: the 590 colour-inferred answers are one line with the count and the first notes.
    expect(text).toContain(
      "Warnings: 590\n  ham_extra_class_2024_2028.apkg, 590 notes: Answer inferred from the colour of its option on the back of the card. (notes 2, 3, 4, 5, 6, …)\n  (--verbose lists each one)",
    );
    expect(text.split("\n").length).toBeLessThan(15);
    // --verbose: every warning on its own line; --json: all of them, each with its note and kind.
    const verbose = formatImportSummary(summary, { verbose: true }).split("\n");
    expect(
      verbose.filter((l) => / note \d+: Answer [A-D] inferred from the colour/.test(l)),
    ).toHaveLength(590);
    const json = JSON.parse(JSON.stringify(summary)) as typeof summary;
    expect(json.warnings).toHaveLength(590);
    expect(json.warnings[0]).toEqual({
      file: "ham_extra_class_2024_2028.apkg",
      row: 2,
      unit: "note",
      kind: "colourAnswer",
      message: expect.stringMatching(/^Answer [A-D] inferred from the colour/),
    });

    // The same deck again: every question is a duplicate of the first import, skipped by default.
    const again = await runImport(api, [HAM], opts());
    expect(again).toMatchObject({ total: 590, duplicates: 590, skipped: 590, imported: 0 });
    expect(await h.questionsCreatedBy(user.user.id)).toBe(590);
  }, 120_000);

  it("anki_apkg_export_output.apkg: 3 flashcards, the PNG stored once and shown by hash", async () => {
    const { user, api } = await resident();
    const summary = await runImport(api, [EXPORT], opts());
    expect(summary).toMatchObject({ total: 3, imported: 3 });
    expect(summary.deck).toMatchObject({ multipleChoice: 0, flashcards: 3, images: 1 });
    const rows = await ownQuestions(user.user.id);
    expect(rows.map((r) => r.questionType)).toEqual(["flashcard", "flashcard", "flashcard"]);
    const shown = await h.db.db
      .select({ questionId: questionMedia.questionId, sha256: questionMedia.sha256 })
      .from(questionMedia)
      .innerJoin(questions, eq(questions.id, questionMedia.questionId))
      .where(eq(questions.creatorId, user.user.id));
    expect(shown).toHaveLength(1);
    const card = rows.find((r) => r.id === shown[0]!.questionId)!;
    expect(`${card.text}${card.back}`).toContain(`<img src="${shown[0]!.sha256}"`);
    const [stored] = await h.db.db.select().from(media).where(eq(media.sha256, shown[0]!.sha256));
    expect(stored!.mimeType).toBe("image/png");
    expect(stored!.uploadedBy).toBe(user.user.id);

    // Flashcards are duplicates by their front: a second import finds all three.
    const again = await runImport(api, [EXPORT], opts({ onDuplicate: "keep-both" }));
    expect(again).toMatchObject({ total: 3, duplicates: 3, imported: 3, skipped: 0 });
    expect(await h.questionsCreatedBy(user.user.id)).toBe(6);
  }, 60_000);
});

const GENERATED: TestDeck = {
  createdAt: 1_700_000_000,
  decks: { 2: "Psychiatry::Pharmacology" },
  noteTypes: [BASIC, BASIC_REVERSED, CLOZE],
  notes: [
    {
      id: 1_700_000_000_001,
      noteTypeId: BASIC.id,
      fields: ['First-line for bipolar depression? <img src="scan.png">', "Quetiapine"],
      tags: "Psychopharmacology",
      cards: [
        {
          ord: 0,
          deckId: 2,
          type: 2,
          queue: 2,
          due: 1_150,
          ivl: 30,
          factor: 2700,
          reps: 6,
          lapses: 1,
        },
      ],
    },
    {
      id: 1_700_000_000_002,
      noteTypeId: BASIC_REVERSED.id,
      fields: ["Clozapine", "Agranulocytosis monitoring"],
      cards: [
        { ord: 0, deckId: 2 },
        { ord: 1, deckId: 2 },
      ],
    },
    {
      id: 1_700_000_000_003,
      noteTypeId: CLOZE.id,
      fields: ["{{c1::Lithium}} needs {{c2::level}} monitoring", ""],
      cards: [
        {
          ord: 0,
          deckId: 2,
          type: 2,
          queue: 2,
          due: 1_140,
          ivl: 12,
          factor: 2300,
          reps: 4,
          lapses: 0,
        },
        { ord: 1, deckId: 2 },
      ],
    },
    {
      id: 1_700_000_000_004,
      noteTypeId: BASIC.id,
      fields: [
        "Which drug is a mood stabilizer?<br>A. Lithium<br>B. Haloperidol<br>C. Sertraline",
        "Answer: A",
      ],
      cards: [
        {
          ord: 0,
          deckId: 2,
          type: 2,
          queue: 2,
          due: 1_090,
          ivl: 100,
          factor: 2500,
          reps: 9,
          lapses: 2,
        },
      ],
    },
  ],
};

describe("prite import deck.apkg: generated decks", () => {
  it("a reversed note gives two flashcards, a cloze note one per number, options A-C one question", async () => {
    const { user, api } = await resident();
    const file = await writeDeck("mixed.apkg", GENERATED, { "scan.png": PNG });
    const summary = await runImport(api, [file], opts({ part: "2", year: "2023" }));
    expect(summary.deck).toMatchObject({ multipleChoice: 1, flashcards: 5, images: 1 });
    expect(summary).toMatchObject({ total: 6, imported: 6 });
    const rows = await ownQuestions(user.user.id);
    expect(rows.filter((r) => r.questionType === "flashcard")).toHaveLength(5);
    const mcq = rows.find((r) => r.questionType !== "flashcard")!;
    expect(mcq).toMatchObject({ correctAnswer: "A", part: "2", year: 2023 });
    expect(rows.every((r) => r.source === "Psychiatry::Pharmacology")).toBe(true);
    const first = rows.find((r) => r.text.startsWith("First-line"))!;
    expect(first.category).toBe("Psychopharmacology");
    expect(first.back).toContain("Quetiapine");
    // Without --keep-progress nothing is scheduled.
    const [states] = await h.db.db
      .select({ n: count() })
      .from(studyStates)
      .where(eq(studyStates.userId, user.user.id));
    expect(Number(states!.n)).toBe(0);
  });

  it("issue 31: tags set categories, the summary prints the mapping, --tag-map FILE changes it", async () => {
    const note = (id: number, tags: string) => ({
      id,
      noteTypeId: BASIC.id,
      fields: [`Tagged front ${id}`, `back ${id}`],
      tags,
    });
    const deck: TestDeck = {
      noteTypes: [BASIC],
      notes: [
        note(1, "PRITE::Neuro::Neurology"),
        note(2, "child_and_adolescent_psychiatry"),
        note(3, "PRITE::Neuro::Neurology marked"),
        note(4, "child_and_adolescent_psychiatry"),
      ],
    };
    const file = await writeDeck("tagged.apkg", deck);
    const first = await resident();
    const summary = await runImport(first.api, [file], opts());
    const categories = async (userId: string) =>
      (await ownQuestions(userId)).map((r) => [r.text, r.category]).sort();
    expect(await categories(first.user.user.id)).toEqual([
      ["Tagged front 1", "Neurology"],
      ["Tagged front 2", "Child and adolescent psychiatry"],
      ["Tagged front 3", "Neurology"],
      ["Tagged front 4", "Child and adolescent psychiatry"],
    ]);
    expect(formatImportSummary(summary)).toContain(
      [
        "Tag categories (change with --tag-map FILE, CSV tag,category):",
        "  child_and_adolescent_psychiatry → Child and adolescent psychiatry, 2 notes",
        "  marked → no category (Anki's own tag), 1 note",
        "  PRITE::Neuro::Neurology → Neurology, 2 notes",
      ].join("\n"),
    );

    const map = path.join(tmp, "tags.csv");
    fs.writeFileSync(
      map,
      'tag,category\nchild_and_adolescent_psychiatry,child psychiatry\n"PRITE::Neuro::Neurology",Neuroscience\n',
    );
    const second = await resident();
    const mapped = await runImport(second.api, [file], opts({ tagMap: map }));
    expect(await categories(second.user.user.id)).toEqual([
      ["Tagged front 1", "Neuroscience"],
      ["Tagged front 2", "Child Psychiatry"],
      ["Tagged front 3", "Neuroscience"],
      ["Tagged front 4", "Child Psychiatry"],
    ]);
    expect(mapped.deck!.tags).toContainEqual({
      tag: "child_and_adolescent_psychiatry",
      category: "Child Psychiatry",
      notes: 2,
      rule: "chosen",
    });
  });

  it("a bad --tag-map file is refused in words, and nothing is imported", async () => {
    const { user, api } = await resident();
    const file = await writeDeck("tagged-bad.apkg", {
      noteTypes: [BASIC],
      notes: [{ id: 1, noteTypeId: BASIC.id, fields: ["f", "b"], tags: "Peds" }],
    });
    const bad = path.join(tmp, "bad-tags.csv");
    fs.writeFileSync(bad, "Peds,Child Psychiatry\n,Ethics\n");
    await expect(runImport(api, [file], opts({ tagMap: bad }))).rejects.toThrow(
      "--tag-map bad-tags.csv: Row 2: the tag is empty. Nothing was imported.",
    );
    const unknown = path.join(tmp, "unknown-tags.csv");
    fs.writeFileSync(unknown, "Pedz,Child Psychiatry\n");
    await expect(runImport(api, [file], opts({ tagMap: unknown }))).rejects.toThrow(
      "--tag-map unknown-tags.csv: the deck has no tag pedz. Nothing was imported.",
    );
    await expect(
      runImport(api, [file], opts({ tagMap: path.join(tmp, "missing.csv") })),
    ).rejects.toThrow(/Cannot read .*missing\.csv: no such file, or no permission\./);
    await expect(
      runImport(api, [EXPORT.replace(".apkg", ".csv")], opts({ tagMap: bad })),
    ).rejects.toThrow("--tag-map applies to an Anki deck only.");
    expect(await h.questionsCreatedBy(user.user.id)).toBe(0);
  });

  it("--keep-progress: each studied card's interval, ease, due, reps and lapses become the study state", async () => {
    const { user, api } = await resident();
    const file = await writeDeck("progress.apkg", GENERATED, { "scan.png": PNG });
    const summary = await runImport(api, [file], opts({ keepProgress: true }));
    expect(summary.deck!.progressKept).toBe(3);
    const rows = await h.db.db
      .select({ text: questions.text, state: studyStates })
      .from(studyStates)
      .innerJoin(questions, eq(questions.id, studyStates.questionId))
      .where(eq(studyStates.userId, user.user.id));
    expect(rows).toHaveLength(3);
    const byText = (start: string) => rows.find((r) => r.text.startsWith(start))!.state;
    const created = GENERATED.createdAt! * 1000;
    expect(byText("First-line")).toMatchObject({
      easeFactor: 2.7,
      intervalDays: 30,
      repetitions: 6,
      lapses: 1,
      dueAt: new Date(created + 1_150 * DAY),
      available: true,
    });
    expect(byText("Which drug")).toMatchObject({
      easeFactor: 2.5,
      intervalDays: 100,
      repetitions: 9,
      lapses: 2,
      dueAt: new Date(created + 1_090 * DAY),
    });
    expect(byText("Which drug").lastReviewedAt).toEqual(new Date(created + 990 * DAY));
    expect(formatImportSummary(summary)).toContain("Anki progress kept for 3 questions.");
  });

  it("--on-duplicate newer merges a flashcard into the importer's own flashcard by its front", async () => {
    const { user, api } = await resident();
    const deck = (back: string): TestDeck => ({
      noteTypes: [BASIC],
      notes: [
        {
          id: 1_700_000_100_000,
          noteTypeId: BASIC.id,
          fields: ["Serotonin syndrome triad?", back],
        },
      ],
    });
    await runImport(api, [await writeDeck("v1.apkg", deck("Old back"))], opts());
    const summary = await runImport(
      api,
      [await writeDeck("v2.apkg", deck("Mental status, autonomic, neuromuscular"))],
      opts({ onDuplicate: "newer" }),
    );
    expect(summary).toMatchObject({ total: 1, duplicates: 1, merged: 1, imported: 0 });
    const rows = await ownQuestions(user.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.back).toBe("Mental status, autonomic, neuromuscular");
  });

  it("a multiple-choice question is never a duplicate of a flashcard with the same text", async () => {
    const { api } = await resident();
    const text = "Which drug is a mood stabilizer?";
    await runImport(
      api,
      [
        await writeDeck("card.apkg", {
          noteTypes: [BASIC],
          notes: [{ id: 1_700_000_200_000, noteTypeId: BASIC.id, fields: [text, "Lithium"] }],
        }),
      ],
      opts(),
    );
    const { results } = await api.imports.checkDuplicates.mutate({
      questions: [
        { text, options: { A: "Lithium", B: "Haloperidol" }, part: "1", year: 2024, number: null },
        { text, options: {}, part: "1", year: 2024, number: null, questionType: "flashcard" },
      ],
    });
    expect(results[0]!.matches).toEqual([]);
    expect(results[1]!.isDuplicate).toBe(true);
    expect(results[1]!.matches[0]!.similarity.reasons).toEqual(["Front text is 100% similar"]);
  });
});

describe("prite import deck.apkg: bad input, nothing written", () => {
  async function refused(file: string, message: string, extra: ImportOptions = {}) {
    const { user, api } = await resident();
    await expect(runImport(api, [file], opts(extra))).rejects.toThrow(
      `${path.basename(file)}: ${message}`,
    );
    expect(await h.questionsCreatedBy(user.user.id)).toBe(0);
  }

  it("a file that is not a ZIP", async () => {
    const file = path.join(tmp, "notes.apkg");
    fs.writeFileSync(file, "just some text, not a deck");
    await refused(file, ANKI_MESSAGES.notZip);
  });

  it("a deck with no usable notes", async () => {
    const file = await writeDeck("empty.apkg", {
      noteTypes: [BASIC],
      notes: [{ id: 1_700_000_300_000, noteTypeId: BASIC.id, fields: ["", ""] }],
    });
    await refused(file, ANKI_MESSAGES.noUsableNotes);
  });

  it("an image that is not an image", async () => {
    const file = await writeDeck(
      "fake-image.apkg",
      {
        noteTypes: [BASIC],
        notes: [
          {
            id: 1_700_000_400_000,
            noteTypeId: BASIC.id,
            fields: ['Look: <img src="virus.png">', "Back"],
          },
        ],
      },
      { "virus.png": new TextEncoder().encode("MZ this is a program, not a picture") },
    );
    const { user, api } = await resident();
    await expect(runImport(api, [file], opts())).rejects.toThrow(
      /fake-image\.apkg: The image virus\.png in this deck was refused: .*not an image.*Nothing was imported\./,
    );
    expect(await h.questionsCreatedBy(user.user.id)).toBe(0);
  });

  it("a commit naming an image that was never uploaded is refused whole", async () => {
    const { user, api } = await resident();
    const missing = "0".repeat(64);
    await expect(
      api.imports.commit.mutate({
        items: [
          {
            question: {
              questionType: "flashcard",
              text: `Front <img src="${missing}">`,
              back: "",
              part: "1",
              year: 2024,
              images: [missing],
            },
            action: "create",
          },
        ],
      }),
    ).rejects.toThrow("Item 1: an image it shows was not uploaded");
    expect(await h.questionsCreatedBy(user.user.id)).toBe(0);
  });

  it("a flashcard's HTML is sanitized on save and shows the uploaded images it names", async () => {
    const { user, api } = await resident();
    const { sha256 } = await api.imports.uploadMedia.mutate({
      data: Buffer.from(PNG).toString("base64"),
    });
    await api.imports.commit.mutate({
      items: [
        {
          question: {
            questionType: "flashcard",
            text: `<b>Front</b><script>alert(1)</script><img src="${sha256}"><img src="https://evil.example/x.png">`,
            back: '<a href="javascript:alert(1)" onclick="x()">Back</a>',
            part: "1",
            year: 2024,
          },
          action: "create",
        },
      ],
    });
    const [row] = await ownQuestions(user.user.id);
    expect(row!.text).toBe(`<b>Front</b><img src="${sha256}">`);
    expect(row!.back).toBe("Back");
    const [shown] = await h.db.db
      .select({ n: count() })
      .from(questionMedia)
      .where(and(eq(questionMedia.questionId, row!.id), sql`${questionMedia.sha256} = ${sha256}`));
    expect(Number(shown!.n)).toBe(1);
  });

  it("decks are imported one at a time", async () => {
    const { api } = await resident();
    await expect(runImport(api, [HAM, EXPORT], opts())).rejects.toThrow(
      "Import one Anki deck at a time, without other files.",
    );
  });
});
