import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Difficulty } from "@/core/constants";
import { replayReviews } from "@/core/srs/replay";
import { SM2_SETTINGS } from "@/core/srs/schedule";
import {
  answerOffline,
  dueFromCopy,
  inAnswerOrder,
  settleInCopy,
  toStudyState,
  type OfflineCopy,
  type OfflineQuestion,
  type QueuedReview,
} from "./local-study";

const FSRS = { ...SM2_SETTINGS, scheduler: "fsrs" as const };

function question(id: string, over: Partial<OfflineQuestion> = {}): OfflineQuestion {
  return {
    _id: id,
    creator: "me",
    contributor: "me",
    text: `Question ${id}`,
    options: { A: "alpha", B: "beta", C: "gamma", D: "delta" },
    correctAnswer: "B",
    correctAnswers: ["B"],
    numCorrectAnswers: 1,
    questionType: "standard",
    back: "",
    source: "",
    images: [],
    instructions: "",
    explanation: `Because ${id}.`,
    generatedExplanation: "",
    category: "Neuroscience",
    part: "1",
    year: 2024,
    number: null,
    isPublic: false,
    visibility: "private",
    createdAt: "2024-01-01T00:00:00.000Z",
    updatedAt: "2024-01-01T00:00:00.000Z",
    studyData: [],
    reported: null,
    takenDownAt: null,
    ...over,
  };
}

function copyOf(questions: OfflineQuestion[], settings = SM2_SETTINGS): OfflineCopy {
  return { questions, states: {}, settings, savedAt: "2024-01-01T00:00:00.000Z" };
}

const T0 = Date.parse("2024-03-01T08:00:00Z");

describe("answering from the offline copy", () => {
  it("gives the server's verdict, the explanation, and the intervals of each rating", () => {
    const q = question("q1");
    const { result, pending } = answerOffline(copyOf([q]), q, {
      id: "11111111-1111-4111-8111-111111111111",
      selected: ["b"],
      timeSpentMs: 4_000,
      now: new Date(T0),
    });
    expect(result).toMatchObject({
      isCorrect: true,
      selected: ["B"],
      correctAnswers: ["B"],
      explanation: "Because q1.",
      scheduler: "sm2",
    });
    expect(result.nextIntervals.easy).toBeGreaterThanOrEqual(result.nextIntervals.hard);
    expect(pending.review).toEqual({
      id: "11111111-1111-4111-8111-111111111111",
      questionId: "q1",
      selected: ["B"],
      timeSpentMs: 4_000,
      reviewedAt: new Date(T0).toISOString(),
      difficulty: null,
    });
  });

  it("needs every answer of a multiple-correct question and no other", () => {
    const q = question("m", {
      questionType: "multipleCorrect",
      correctAnswer: "",
      correctAnswers: ["A", "C"],
      numCorrectAnswers: 2,
    });
    const answer = (selected: string[]) =>
      answerOffline(copyOf([q]), q, { id: "x", selected, timeSpentMs: 0, now: new Date(T0) }).result
        .isCorrect;
    expect(answer(["C", "A"])).toBe(true);
    expect(answer(["A"])).toBe(false);
    expect(answer(["A", "B"])).toBe(false);
  });
});

describe("the local queue is rescheduled as the server replays it", () => {
  const step = fc.record({
    correct: fc.boolean(),
    difficulty: fc.option(fc.constantFrom<Difficulty>(0, 1, 2), { nil: null }),
    gapHours: fc.integer({ min: 1, max: 24 * 40 }),
  });

  for (const settings of [SM2_SETTINGS, FSRS]) {
    it(`settling answers one by one gives the state replaying their log gives (${settings.scheduler})`, () => {
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 15 }), (steps) => {
          const q = question("card");
          let copy = copyOf([q], settings);
          let t = T0;
          const log: { isCorrect: boolean; difficulty: Difficulty | null; reviewedAt: Date }[] = [];
          for (const s of steps) {
            t += s.gapHours * 3_600_000;
            const { pending } = answerOffline(copy, q, {
              id: `r${t}`,
              selected: [s.correct ? "B" : "A"],
              timeSpentMs: 1_000,
              now: new Date(t),
            });
            copy = settleInCopy(copy, pending, s.difficulty);
            log.push({
              isCorrect: s.correct,
              difficulty: s.correct ? s.difficulty : null,
              reviewedAt: new Date(t),
            });
          }
          const replayed = replayReviews(log, settings);
          const local = toStudyState(copy.states.card);
          expect(local.dueAt?.getTime()).toBe(replayed.dueAt?.getTime());
          expect(local.intervalDays).toBe(replayed.intervalDays);
          expect(local.repetitions).toBe(replayed.repetitions);
          expect(local.lapses).toBe(replayed.lapses);
          expect(local.easeFactor).toBeCloseTo(replayed.easeFactor, 9);
          expect(local.stability ?? null).toBe(replayed.stability ?? null);
        }),
        { numRuns: 150 },
      );
    });
  }

  it("sends the queue in the order the answers were given", () => {
    const queue = [5, 1, 3, 2, 4].map((seq): QueuedReview => ({
      id: `id${seq}`,
      seq,
      questionId: "q",
      selected: ["A"],
      timeSpentMs: 0,
      reviewedAt: new Date(T0 + seq).toISOString(),
      difficulty: null,
    }));
    expect(inAnswerOrder(queue).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("the due list from the copy", () => {
  it("keeps the server's order, drops cards answered until they are due again, and filters by category", () => {
    const qs = [
      question("a"),
      question("b", { category: "Psychopharmacology" }),
      question("c"),
      question("d"),
    ];
    let copy = copyOf(qs);
    expect(dueFromCopy(copy, new Date(T0)).map((q) => q._id)).toEqual(["a", "b", "c", "d"]);
    const { pending } = answerOffline(copy, qs[2]!, {
      id: "r1",
      selected: ["B"],
      timeSpentMs: 0,
      now: new Date(T0),
    });
    copy = settleInCopy(copy, pending, 2);
    expect(dueFromCopy(copy, new Date(T0 + 60_000)).map((q) => q._id)).toEqual(["a", "b", "d"]);
    // A wrong answer brings the card back at once under SM-2 (a lapse is due now).
    const wrong = answerOffline(copy, qs[0]!, {
      id: "r2",
      selected: ["C"],
      timeSpentMs: 0,
      now: new Date(T0),
    });
    copy = settleInCopy(copy, wrong.pending, null);
    expect(copy.states.a!.lapses).toBe(1);
    expect(
      dueFromCopy(copy, new Date(T0 + 60_000), { category: "Psychopharmacology" }).map(
        (q) => q._id,
      ),
    ).toEqual(["b"]);
    expect(dueFromCopy(copy, new Date(T0), { limit: 2 })).toHaveLength(2);
  });
});
