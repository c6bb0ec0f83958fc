import { describe, expect, it } from "vitest";
import { DIFFICULTY } from "../../constants";
import { DEFAULT_FSRS_SETTINGS } from "../../srs/fsrs";
import { rateState, SM2_SETTINGS } from "../../srs/schedule";
import { scoreFlashcardCandidates } from "../../similarity/flashcards";
import { convertAnkiPackage } from "./convert";
import { BASIC, BASIC_REVERSED, buildPackage, CLOZE } from "./deck-builder.test-utils";
import { imageHashes } from "../../media";
import { withImageHashes } from "./image-refs";
import { ankiCheckItem, ankiCommitQuestion, planAnkiImport } from "./plan";
import { studyStateFromAnki } from "./progress";
import { readAnkiPackage } from "./read";

const DAY = 86_400_000;
const NOW = new Date("2026-06-01T12:00:00Z");
const HASH = "ab".repeat(32);

describe("planAnkiImport", () => {
  it("keeps a note's cards together in note order, counts by kind, and moves unsavable drafts to errors", async () => {
    const pkg = await readAnkiPackage(
      await buildPackage(
        {
          noteTypes: [BASIC, BASIC_REVERSED, CLOZE],
          notes: [
            {
              id: 10,
              noteTypeId: BASIC_REVERSED.id,
              fields: ["Dopamine <img src='a.png'>", "Reward"],
            },
            { id: 20, noteTypeId: BASIC.id, fields: ["Q?<br>A. One<br>B. Two", "Answer: B"] },
            { id: 30, noteTypeId: CLOZE.id, fields: ["{{c1::x}} and {{c2::y}}", ""] },
            { id: 40, noteTypeId: BASIC.id, fields: ["Long " + "x".repeat(25_000), "b"] },
            { id: 50, noteTypeId: BASIC.id, fields: ["", ""] },
          ],
        },
        { format: "anki21b", media: { "a.png": new Uint8Array([1, 2, 3]) } },
      ),
    );
    const plan = planAnkiImport(convertAnkiPackage(pkg, { part: "1", year: 2024 }), NOW);
    expect(plan.skipped.map((s) => s.message)).toEqual(["The note is empty."]);
    expect(plan.counts).toEqual({ multipleChoice: 1, flashcards: 4, skipped: 1 });
    expect(plan.drafts.map((d) => [d.note, d.type, d.ankiCardOrd])).toEqual([
      [1, "flashcard", 0],
      [1, "flashcard", 1],
      [2, "multipleChoice", null],
      [3, "flashcard", 0],
      [3, "flashcard", 1],
    ]);
    expect(plan.errors).toEqual([
      { note: 4, noteId: 40, message: "Note 4: the card's front is longer than 20,000 characters" },
    ]);
    expect(plan.images).toEqual(["a.png"]);
    // The duplicate check compares a flashcard's front as text, flagged as a flashcard.
    expect(ankiCheckItem(plan.drafts[0]!, plan.views[0]!)).toMatchObject({
      questionType: "flashcard",
      text: "Dopamine",
      options: {},
    });
    const item = ankiCommitQuestion(plan.drafts[0]!, plan.views[0]!, {
      hashes: new Map([["a.png", HASH]]),
      keepProgress: false,
    });
    expect(item).toMatchObject({ questionType: "flashcard", images: [HASH] });
    expect(item.text).toBe(`Dopamine <img src="${HASH}">`);
  });
});

describe("image references", () => {
  it("names become the uploaded images' hashes; an image not uploaded goes", () => {
    const html = '<img src="a.png" alt="scan"> and <img src="gone.png">';
    const stored = withImageHashes(html, new Map([["a.png", HASH]]));
    expect(stored).toBe(`<img src="${HASH}" alt="scan"> and `);
    expect(imageHashes(stored)).toEqual([HASH]);
  });
});

describe("studyStateFromAnki (decision 241)", () => {
  const review = {
    state: "review" as const,
    suspended: false,
    intervalDays: 30,
    easeFactor: 2.7,
    dueAt: NOW.getTime() + 5 * DAY,
    reps: 6,
    lapses: 1,
  };

  it("a review card keeps interval, ease, due, reps and lapses; last review = due − interval", () => {
    expect(studyStateFromAnki(review, NOW)).toEqual({
      easeFactor: 2.7,
      intervalDays: 30,
      repetitions: 6,
      lapses: 1,
      dueAt: new Date(NOW.getTime() + 5 * DAY),
      lastReviewedAt: new Date(NOW.getTime() - 25 * DAY),
      stability: null,
      fsrsDifficulty: null,
    });
  });

  it("a learning card starts SM-2's count again; ease is clamped to 1.3-5", () => {
    const s = studyStateFromAnki(
      { ...review, state: "relearning", intervalDays: 0, easeFactor: 0.9, dueAt: null },
      NOW,
    );
    expect(s).toMatchObject({ repetitions: 0, easeFactor: 1.3, dueAt: NOW, lastReviewedAt: NOW });
    expect(studyStateFromAnki({ ...review, easeFactor: 9 }, NOW).easeFactor).toBe(5);
  });

  it("SM-2 and FSRS both carry the Anki interval on: Good on a 30-day card is not a new card", () => {
    const s = studyStateFromAnki(review, NOW);
    const due = new Date(NOW.getTime() + 5 * DAY);
    const sm2 = rateState(s, DIFFICULTY.MEDIUM, due, SM2_SETTINGS);
    expect(sm2.intervalDays).toBe(81); // 30 × 2.7
    const fsrs = rateState(s, DIFFICULTY.MEDIUM, due, {
      scheduler: "fsrs",
      ...DEFAULT_FSRS_SETTINGS,
    });
    expect(fsrs.intervalDays).toBeGreaterThan(30);
    expect(fsrs.lapses).toBe(1);
  });
});

describe("flashcard duplicates", () => {
  it("fronts at least 90% similar are duplicates; cloze siblings are not", () => {
    const bank = [
      { id: "1", text: "Clozapine [...] needs ANC monitoring", options: {}, part: "1" },
      { id: "2", text: "[...] needs ANC monitoring weekly at first", options: {}, part: "1" },
    ];
    const check = scoreFlashcardCandidates(
      { text: "Clozapine [...] needs ANC monitoring", options: {}, part: "1" },
      bank,
    );
    expect(check.isDuplicate).toBe(true);
    expect(check.matches.map((m) => m.question.id)).toEqual(["1"]);
    const other = scoreFlashcardCandidates(
      { text: "Clozapine [...] needs ANC monitoring", options: {}, part: "2" },
      bank,
    );
    expect(other.isDuplicate).toBe(false);
  });
});
