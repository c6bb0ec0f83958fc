import { describe, expect, it } from "vitest";
import type { AnswerResult, StudyQuestion } from "./question-view";
import { advancedFrom, withAnswer, withRating, type Session } from "./session-state";

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
