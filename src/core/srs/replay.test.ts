import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DIFFICULTY, type Difficulty } from "../constants";
import { initialStudyState, lapse, rate } from "./index";
import { replayReviews, type ReplayReview } from "./replay";

const T0 = new Date("2025-03-01T12:00:00.000Z");
const at = (days: number) => new Date(T0.getTime() + days * 86_400_000);

describe("replayReviews", () => {
  it("gives the never-studied state for an empty log", () => {
    expect(replayReviews([])).toEqual(initialStudyState());
  });

  it("takes the live flow's steps: rated right answers schedule, wrong ones lapse", () => {
    const log: ReplayReview[] = [
      { isCorrect: true, difficulty: DIFFICULTY.EASY, reviewedAt: at(0) },
      { isCorrect: true, difficulty: DIFFICULTY.MEDIUM, reviewedAt: at(1) },
      { isCorrect: false, difficulty: DIFFICULTY.HARD, reviewedAt: at(7) },
    ];
    const live = lapse(
      rate(rate(initialStudyState(), DIFFICULTY.EASY, at(0)), DIFFICULTY.MEDIUM, at(1)),
      at(7),
    );
    expect(replayReviews(log)).toEqual(live);
  });

  it("an answer never rated only records when it was reviewed", () => {
    const rated = rate(initialStudyState(), DIFFICULTY.EASY, at(0));
    expect(
      replayReviews([
        { isCorrect: true, difficulty: DIFFICULTY.EASY, reviewedAt: at(0) },
        { isCorrect: true, difficulty: null, reviewedAt: at(2) },
      ]),
    ).toEqual({ ...rated, lastReviewedAt: at(2) });
  });

  it("orders by review time, whatever order the rows arrive in", () => {
    const review = fc.record({
      isCorrect: fc.boolean(),
      difficulty: fc.constantFrom<Difficulty | null>(null, 0, 1, 2),
      reviewedAt: fc.integer({ min: 0, max: 4000 }).map((d) => at(d / 10)),
    });
    const log = fc.uniqueArray(review, {
      maxLength: 30,
      selector: (r) => r.reviewedAt.getTime(),
    });
    fc.assert(
      fc.property(
        log,
        fc.infiniteStream(fc.double({ min: 0, max: 1, noNaN: true })),
        (rows, keys) => {
          const shuffled = rows
            .map((row) => ({ row, key: keys.next().value as number }))
            .sort((a, b) => a.key - b.key)
            .map(({ row }) => row);
          const byTime = [...rows].sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
          expect(replayReviews(shuffled)).toEqual(replayReviews(byTime));
        },
      ),
    );
  });
});
