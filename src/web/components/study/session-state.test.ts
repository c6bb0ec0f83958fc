import { describe, expect, it } from "vitest";
import type { AnswerResult, StudyQuestion } from "./question-view";
import {
  advancedFrom,
  outcomeOf,
  withAnswer,
  withFlashcardRating,
  withRating,
  type Session,
} from "./session-state";

const question = (id: string) => ({ _id: id }) as StudyQuestion;
const verdict = { isCorrect: true, correctAnswers: ["A"] } as unknown as AnswerResult;

function session(): Session {
  return {
    id: "s1",
    category: null,
    questions: [question("q1"), question("q2"), question("q3")],
    index: 0,
    entries: {},
  };
}

/** React applies queued functional updates in order, each to the result of the one before. */
const applyQueued = (start: Session, updates: ((s: Session) => Session)[]) =>
  updates.reduce((s, update) => update(s), start);

describe("study session transitions", () => {
  it("keeps the rating when the same event moves on to the next question", () => {
    const answered = withAnswer(session(), "q1", ["A"], verdict);
    expect(answered.entries.q1).toEqual({ selected: ["A"], result: verdict, rated: null });
    // rateAndAdvance queues the rating, then advance queues the move.
    const next = applyQueued(answered, [(s) => withRating(s, "q1", 2), (s) => advancedFrom(s, 0)]);
    expect(next.index).toBe(1);
    expect(next.entries.q1?.rated).toBe(2);
  });

  it("moves on once for a double press and never past the last question", () => {
    const twice = applyQueued(session(), [(s) => advancedFrom(s, 0), (s) => advancedFrom(s, 0)]);
    expect(twice.index).toBe(1);
    const last = { ...session(), index: 2 };
    expect(advancedFrom(last, 2)).toBe(last);
  });

  it("rates only answered questions and leaves the rest alone", () => {
    const s = session();
    expect(withRating(s, "q2", 0)).toBe(s);
    const answered = withAnswer(withAnswer(s, "q1", ["A"], verdict), "q2", ["B"], verdict);
    const rated = withRating(answered, "q2", 0);
    expect(rated.entries.q1?.rated).toBeNull();
    expect(rated.entries.q2?.rated).toBe(0);
    expect(answered.entries.q2?.rated).toBeNull();
  });
});

describe("a flashcard in the session (issue 17)", () => {
  it("counts its rating as the outcome: Again incorrect, the others correct", () => {
    const again = withFlashcardRating(session(), "q1", "again");
    const good = withFlashcardRating(again, "q2", "good");
    expect(outcomeOf(good.entries.q1)).toEqual({ isCorrect: false });
    expect(outcomeOf(good.entries.q2)).toEqual({ isCorrect: true });
    expect(outcomeOf(good.entries.q3)).toBeNull();
    expect(good.entries.q2).toEqual({ selected: [], result: null, rated: null, flashcard: "good" });
  });

  it("keeps the rating when the same event moves on", () => {
    const next = applyQueued(session(), [
      (s) => withFlashcardRating(s, "q1", "easy"),
      (s) => advancedFrom(s, 0),
    ]);
    expect(next.index).toBe(1);
    expect(next.entries.q1?.flashcard).toBe("easy");
  });

  it("an answered multiple-choice question's outcome is its verdict", () => {
    expect(outcomeOf(withAnswer(session(), "q1", ["A"], verdict).entries.q1)).toEqual({
      isCorrect: true,
    });
  });
});
