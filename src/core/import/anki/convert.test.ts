// Tests run only in Node: they read the real decks from the fixtures folder.
/* eslint-disable no-restricted-imports */
import { readFileSync } from "node:fs";
import path from "node:path";
/* eslint-enable no-restricted-imports */
import { describe, expect, it } from "vitest";
import { parseQuestionsText } from "../../parsing";
import { ImportError } from "../errors";
import { convertAnkiPackage, type AnkiConversion } from "./convert";
import {
  BASIC,
  BASIC_REVERSED,
  buildPackage,
  CLOZE,
  type TestDeck,
  type TestNoteType,
  TYPE_IN,
} from "./deck-builder.test-utils";
import { ANKI_MESSAGES } from "./messages";
import { readAnkiPackage } from "./read";

const REAL = path.resolve(__dirname, "../../../../fixtures/real");
const OPTIONS = { part: "1", year: 2024 } as const;

async function convertReal(name: string): Promise<AnkiConversion> {
  const pkg = await readAnkiPackage(new Uint8Array(readFileSync(path.join(REAL, name))));
  return convertAnkiPackage(pkg, OPTIONS);
}

async function convertDeck(
  deck: TestDeck,
  media?: Record<string, Uint8Array>,
): Promise<AnkiConversion> {
  const pkg = await readAnkiPackage(await buildPackage(deck, { format: "anki21b", media }));
  return convertAnkiPackage(pkg, OPTIONS);
}

describe("the real decks, with exact counts", () => {
  it("ham_extra_class_2024_2028.apkg: 590 multiple choice, 0 flashcards, 1 skipped (the CSV header)", async () => {
    const result = await convertReal("ham_extra_class_2024_2028.apkg");
    expect(result.questions).toHaveLength(590);
    expect(result.flashcards).toHaveLength(0);
    expect(result.skipped).toEqual([
      {
        note: 1,
        noteId: 1740118295380,
        message: "A spreadsheet header row, not a card (Column A, Column B).",
      },
    ]);
    // Every answer comes from the colour of the option on the back: one warning each.
    expect(result.warnings).toHaveLength(590);
    expect(
      result.warnings.every((w) => /^Answer [A-D] inferred from the colour/.test(w.message)),
    ).toBe(true);
    expect(result.questions.every((q) => q.correctAnswer !== "")).toBe(true);
    const byLetter = { A: 0, B: 0, C: 0, D: 0 } as Record<string, number>;
    for (const q of result.questions)
      byLetter[q.correctAnswer] = (byLetter[q.correctAnswer] ?? 0) + 1;
    expect(byLetter).toEqual({ A: 149, B: 148, C: 148, D: 145 });

    const first = result.questions[0];
    expect(first).toMatchObject({
      type: "multipleChoice",
      number: null,
      part: "1",
      year: 2024,
      text: "Why is it not legal to transmit a 3 kHz bandwidth USB signal with a carrier frequency of 14.348 MHz?",
      options: {
        A: "USB is not used on 20-meter phone",
        B: "The lower 1 kHz of the signal is outside the 20-meter band",
        C: "14.348 MHz is outside the 20-meter band",
        D: "The upper 1 kHz of the signal is outside the 20-meter band",
        E: "",
      },
      correctAnswer: "D",
      explanation: "",
      category: "",
      source: "Default",
      ankiNoteId: 1740118295381,
      images: [],
      progress: null,
    });
    expect(result.warnings[0]).toEqual({
      note: 2,
      noteId: 1740118295381,
      message: "Answer D inferred from the colour of its option on the back of the card.",
      kind: "colourAnswer",
    });
  });

  it("ham deck: every inferred answer agrees with the NCVEC pool's answer key", async () => {
    const result = await convertReal("ham_extra_class_2024_2028.apkg");
    const pool = parseQuestionsText(
      readFileSync(path.join(REAL, "ncvec_extra_class_pool_2024.txt"), "utf8"),
      OPTIONS,
    );
    const norm = (s: string): string =>
      s.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, " ").trim();
    const key = new Map(
      pool.filter((q) => q.correctAnswer !== "").map((q) => [norm(q.text), q.correctAnswer]),
    );
    let compared = 0;
    for (const q of result.questions) {
      const expected = key.get(norm(q.text));
      if (expected === undefined) continue;
      compared++;
      expect({ text: q.text, answer: q.correctAnswer }).toEqual({ text: q.text, answer: expected });
    }
    expect(compared).toBe(590); // every ham question is in the pool
  });

  it("anki_apkg_export_output.apkg: 0 multiple choice, 3 flashcards, 0 skipped, the image listed", async () => {
    const result = await convertReal("anki_apkg_export_output.apkg");
    expect(result.questions).toHaveLength(0);
    expect(result.skipped).toHaveLength(0);
    expect(result.warnings).toHaveLength(0);
    expect(result.flashcards.map((f) => [f.front, f.back, f.images, f.tags, f.source])).toEqual([
      ["card #1 front", "card #1 back", [], ["food", "fruit"], "deck-name"],
      ["card #2 front", "card #2 back", [], [], "deck-name"],
      ['card #3 with image <img src="anki.png" />', "card #3 back", ["anki.png"], [], "deck-name"],
    ]);
    expect(result.flashcards[0]).toMatchObject({
      type: "flashcard",
      part: "1",
      year: 2024,
      category: "Food",
      ankiCardOrd: 0,
    });
  });
});

const MCQ_FIELDS: TestNoteType = {
  id: 2000,
  name: "PRITE MCQ",
  fields: ["Question", "A", "B", "C", "D", "E", "Answer", "Explanation", "Category"],
  templates: [
    {
      name: "Card 1",
      front: "{{Question}}<br>A. {{A}}<br>B. {{B}}",
      back: "{{FrontSide}}<hr id=answer>{{Answer}}",
    },
  ],
};

const OPTION_FIELDS: TestNoteType = {
  id: 2001,
  name: "Board question",
  fields: ["Stem", "Option A", "Option B", "Option C", "Correct", "Rationale"],
  templates: [{ name: "Card 1", front: "{{Stem}}", back: "{{Correct}}" }],
};

/** A custom note type: several fields, a conditional and an inverted section, a text filter. */
const CUSTOM: TestNoteType = {
  id: 2002,
  name: "Drug card",
  fields: ["Drug", "Class", "Mechanism", "Pearl"],
  templates: [
    {
      name: "Drug → class",
      front: "<b>{{Drug}}</b>{{#Pearl}}<br><i>has a pearl</i>{{/Pearl}}",
      back: "{{FrontSide}}<hr id=answer>{{Class}}{{^Mechanism}} (mechanism unknown){{/Mechanism}}{{#Mechanism}}<br>{{text:Mechanism}}{{/Mechanism}}",
    },
    { name: "Class → drug", front: "{{Class}}", back: "{{FrontSide}}<hr id=answer>{{Drug}}" },
  ],
};

describe("generated decks: note types to drafts", () => {
  it("Basic, reversed, type-in and cloze notes become one flashcard per Anki card", async () => {
    const result = await convertDeck({
      noteTypes: [BASIC, BASIC_REVERSED, TYPE_IN, CLOZE],
      notes: [
        {
          id: 1,
          noteTypeId: BASIC.id,
          fields: ["What does SSRI stand for?", "Selective serotonin reuptake inhibitor"],
        },
        { id: 2, noteTypeId: BASIC_REVERSED.id, fields: ["Clozapine", "Agranulocytosis"] },
        { id: 3, noteTypeId: TYPE_IN.id, fields: ["First-line for OCD?", "SSRI"] },
        {
          id: 4,
          noteTypeId: CLOZE.id,
          fields: [
            "{{c1::Lithium}} needs {{c2::renal::organ}} monitoring; {{c1::it}} is teratogenic",
            "Ebstein anomaly",
          ],
        },
      ],
    });
    expect(result.questions).toHaveLength(0);
    expect(result.skipped).toHaveLength(0);
    expect(result.flashcards.map((f) => [f.ankiNoteId, f.ankiCardOrd, f.front, f.back])).toEqual([
      [1, 0, "What does SSRI stand for?", "Selective serotonin reuptake inhibitor"],
      [2, 0, "Clozapine", "Agranulocytosis"],
      [2, 1, "Agranulocytosis", "Clozapine"],
      [3, 0, "First-line for OCD?", "SSRI"],
      [
        4,
        0,
        "[...] needs renal monitoring; [...] is teratogenic",
        "<b>Lithium</b> needs renal monitoring; <b>it</b> is teratogenic<br>\nEbstein anomaly",
      ],
      [
        4,
        1,
        "Lithium needs [organ] monitoring; it is teratogenic",
        "Lithium needs <b>renal</b> monitoring; it is teratogenic<br>\nEbstein anomaly",
      ],
    ]);
  });

  it("a custom note type is rendered with its templates, sections and filters", async () => {
    const result = await convertDeck({
      noteTypes: [CUSTOM],
      notes: [
        {
          id: 1,
          noteTypeId: CUSTOM.id,
          fields: ["Bupropion", "NDRI", "", "Lowers the seizure threshold"],
        },
        {
          id: 2,
          noteTypeId: CUSTOM.id,
          fields: ["Mirtazapine", "NaSSA", "<b>α2</b> antagonist", ""],
        },
      ],
    });
    expect(result.flashcards.map((f) => [f.front, f.back])).toEqual([
      ["<b>Bupropion</b><br><i>has a pearl</i>", "NDRI (mechanism unknown)"],
      ["NDRI", "Bupropion"],
      ["<b>Mirtazapine</b>", "NaSSA<br>α2 antagonist"],
      ["NaSSA", "Mirtazapine"],
    ]);
  });

  it("fields named Question, A-E, Answer and Explanation map directly to multiple choice", async () => {
    const result = await convertDeck({
      noteTypes: [MCQ_FIELDS, OPTION_FIELDS],
      notes: [
        {
          id: 1,
          noteTypeId: MCQ_FIELDS.id,
          fields: [
            "Which drug needs CBC monitoring?",
            "Clozapine",
            "Sertraline",
            "Lithium",
            "",
            "",
            "A",
            "Risk of <b>agranulocytosis</b>.",
            "",
          ],
          tags: "pharm::Psychopharmacology",
        },
        {
          id: 2,
          noteTypeId: OPTION_FIELDS.id,
          fields: [
            "Defense mechanism in OCD?",
            "Undoing",
            "Splitting",
            "Denial",
            "Answer: a",
            "Undoing &amp; isolation of affect",
          ],
        },
        {
          id: 3,
          noteTypeId: OPTION_FIELDS.id,
          fields: ["Unanswered?", "Yes", "No", "", "Both", ""],
        },
      ],
    });
    expect(result.flashcards).toHaveLength(0);
    expect(
      result.questions.map((q) => [q.text, q.options, q.correctAnswer, q.explanation, q.category]),
    ).toEqual([
      [
        "Which drug needs CBC monitoring?",
        { A: "Clozapine", B: "Sertraline", C: "Lithium", D: "", E: "" },
        "A",
        "Risk of agranulocytosis.",
        "Psychopharmacology",
      ],
      [
        "Defense mechanism in OCD?",
        { A: "Undoing", B: "Splitting", C: "Denial", D: "", E: "" },
        "A",
        "Undoing & isolation of affect",
        "",
      ],
      ["Unanswered?", { A: "Yes", B: "No", C: "", D: "", E: "" }, "", "", ""],
    ]);
    expect(result.warnings).toEqual([
      {
        note: 3,
        noteId: 3,
        message: 'The answer "Both" names no single option: set it while reviewing.',
        kind: "unreadAnswer",
      },
    ]);
  });

  it("options in the front's HTML with the answer named on the back; an explanation kept", async () => {
    const result = await convertDeck({
      noteTypes: [BASIC],
      notes: [
        {
          id: 1,
          noteTypeId: BASIC.id,
          fields: [
            "Most common side effect of lithium?<br>A) Tremor<br>B) Rash<br>C) Alopecia<br>D) Ataxia<br>E) Seizure",
            "Answer: A<br>Fine tremor occurs in up to 25% of patients.",
          ],
        },
        {
          id: 2,
          noteTypeId: BASIC.id,
          fields: ["Pick one:<div>A. Haloperidol</div><div>B. Aripiprazole</div>", "Aripiprazole"],
        },
        { id: 3, noteTypeId: BASIC.id, fields: ["Vitamin B1 is also called A. thiamine", "Yes"] },
      ],
    });
    expect(
      result.questions.map((q) => [q.text, q.options.E, q.correctAnswer, q.explanation]),
    ).toEqual([
      [
        "Most common side effect of lithium?",
        "Seizure",
        "A",
        "Fine tremor occurs in up to 25% of patients.",
      ],
      ["Pick one:", "", "B", ""],
    ]);
    // One option is not a question: note 3 stays a flashcard.
    expect(result.flashcards.map((f) => f.ankiNoteId)).toEqual([3]);
    expect(result.warnings).toHaveLength(0);
  });
});

describe("content, tags, media and progress", () => {
  it("sanitizes XSS out of fields, strips sounds with a warning, lists images and warns of missing ones", async () => {
    const result = await convertDeck(
      {
        noteTypes: [BASIC],
        notes: [
          {
            id: 1,
            noteTypeId: BASIC.id,
            fields: [
              'Pupil <img src="eye.png" onerror="alert(1)"><script>alert(2)</script><img src="https://evil.example/x.png"> [sound:pupil.mp3]',
              '<a href="javascript:alert(3)">link</a><style>body{display:none}</style><div onclick="x()">Miosis</div><img src="gone.jpg">',
            ],
          },
        ],
      },
      { "eye.png": Uint8Array.from([0x89, 0x50, 0x4e, 0x47]) },
    );
    const card = result.flashcards[0];
    expect(card?.front).toBe('Pupil <img src="eye.png">');
    expect(card?.back).toBe('link<div>Miosis</div><img src="gone.jpg">');
    expect(card?.images).toEqual(["eye.png", "gone.jpg"]);
    expect(result.warnings.map((w) => w.message)).toEqual([
      "Sound removed (pupil.mp3): PRITE Study does not play audio.",
      "The image gone.jpg is not in the deck's media; it was left out.",
    ]);
  });

  it("a tag or a level of a :: hierarchy naming a category of the list sets it, the leaf first", async () => {
    const result = await convertDeck({
      noteTypes: [BASIC],
      decks: { 5: "PRITE::Part 1" },
      notes: [
        {
          id: 1,
          noteTypeId: BASIC.id,
          fields: ["a", "b"],
          tags: "misc Board::substance_use_disorders",
        },
        {
          id: 2,
          noteTypeId: BASIC.id,
          fields: ["c", "d"],
          tags: "OBSESSIVE-COMPULSIVE-DISORDERS",
          cards: [{ ord: 0, deckId: 5 }],
        },
        { id: 3, noteTypeId: BASIC.id, fields: ["e", "f"], tags: "Psychopharmacology::Lithium" },
      ],
    });
    expect(result.flashcards.map((f) => [f.category, f.source])).toEqual([
      ["Substance Use Disorders", "Default"],
      ["Obsessive-Compulsive Disorders", "PRITE::Part 1"],
      ["Psychopharmacology", "Default"],
    ]);
  });

  it("issue 31: tags naming no category of the list set their leaf ('_' for spaces), except Anki's and deck-wide ones", async () => {
    const note = (id: number, tags: string) => ({
      id,
      noteTypeId: BASIC.id,
      fields: [`front ${id}`, `back ${id}`],
      tags,
    });
    const result = await convertDeck({
      noteTypes: [BASIC],
      notes: [
        note(1, "PRITE::Neuro::Neurology everywhere"),
        note(2, "child_and_adolescent_psychiatry everywhere"),
        note(3, "PRITE::Neuro::Neurology marked everywhere"),
        note(4, "child_and_adolescent_psychiatry leech Default"),
      ],
    });
    expect(result.flashcards.map((f) => f.category)).toEqual([
      "Neurology",
      "Child and adolescent psychiatry",
      "Neurology",
      "Child and adolescent psychiatry",
    ]);
    expect(result.tags.map((t) => [t.tag, t.category, t.rule])).toEqual([
      ["child_and_adolescent_psychiatry", "Child and adolescent psychiatry", "leaf"],
      ["Default", "", "deckName"],
      ["everywhere", "", "mostNotes"],
      ["leech", "", "ankiTag"],
      ["marked", "", "ankiTag"],
      ["PRITE::Neuro::Neurology", "Neurology", "leaf"],
    ]);
  });

  it("exposes each studied card's interval, ease, due date, reps and lapses", async () => {
    const createdAt = 1_700_000_000;
    const result = await convertDeck({
      noteTypes: [BASIC_REVERSED],
      createdAt,
      notes: [
        {
          id: 1,
          noteTypeId: BASIC_REVERSED.id,
          fields: ["Haloperidol", "Butyrophenone"],
          cards: [
            { ord: 0, type: 2, queue: 2, due: 30, ivl: 21, factor: 2650, reps: 7, lapses: 1 },
            { ord: 1, type: 1, queue: 1, due: 1_700_003_600, ivl: 0, factor: 0, reps: 1 },
          ],
        },
        {
          id: 2,
          noteTypeId: BASIC_REVERSED.id,
          fields: ["New", "Card"],
          cards: [{ ord: 0, type: 2, queue: -1, due: 2, ivl: 3, factor: 2500, reps: 2 }],
        },
      ],
    });
    expect(result.flashcards.map((f) => f.progress)).toEqual([
      {
        state: "review",
        suspended: false,
        intervalDays: 21,
        easeFactor: 2.65,
        dueAt: (createdAt + 30 * 86_400) * 1000,
        reps: 7,
        lapses: 1,
      },
      {
        state: "learning",
        suspended: false,
        intervalDays: 0,
        easeFactor: null,
        dueAt: 1_700_003_600_000,
        reps: 1,
        lapses: 0,
      },
      {
        state: "review",
        suspended: true,
        intervalDays: 3,
        easeFactor: 2.5,
        dueAt: (createdAt + 2 * 86_400) * 1000,
        reps: 2,
        lapses: 0,
      },
    ]);
  });

  it("skips empty notes and refuses a deck with no usable note, in the product's words", async () => {
    const deck: TestDeck = {
      noteTypes: [BASIC],
      notes: [
        { id: 1, noteTypeId: BASIC.id, fields: ["<div><br></div>", "&nbsp;"] },
        // The field names again, as a CSV header imported into Anki gives: skipped too.
        { id: 2, noteTypeId: BASIC.id, fields: ["Front", "Back"] },
        { id: 3, noteTypeId: BASIC.id, fields: ["[sound:ptsd.mp3]", ""] },
      ],
    };
    const pkg = await readAnkiPackage(await buildPackage(deck, { format: "anki2" }));
    try {
      convertAnkiPackage(pkg, OPTIONS);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ImportError);
      expect((error as ImportError).message).toBe(ANKI_MESSAGES.noUsableNotes);
    }
    const withOne: TestDeck = {
      ...deck,
      notes: [...deck.notes, { id: 4, noteTypeId: BASIC.id, fields: ["Usable", "note"] }],
    };
    const result = convertAnkiPackage(
      await readAnkiPackage(await buildPackage(withOne, { format: "anki2" })),
      OPTIONS,
    );
    expect(result.flashcards).toHaveLength(1);
    expect(result.skipped.map((s) => [s.note, s.message])).toEqual([
      [1, "The note is empty."],
      [2, "A spreadsheet header row, not a card (Front, Back)."],
      [3, "The note holds only sound, which PRITE Study does not play."],
    ]);
  });
});
