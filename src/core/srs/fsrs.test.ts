import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DIFFICULTY, type Difficulty } from "../constants";
import {
  DEFAULT_FSRS_PARAMETERS,
  DEFAULT_FSRS_SETTINGS,
  intervalForStability,
  isValidParameters,
  parameterProblem,
  type SchedulerSettings,
} from "./fsrs";
import { replayReviews, type ReplayReview } from "./replay";
import { answerState, nextIntervals, rateState } from "./schedule";
import { initialStudyState } from "./index";

const FSRS: SchedulerSettings = { ...DEFAULT_FSRS_SETTINGS, scheduler: "fsrs" };
const T0 = Date.parse("2025-01-01T08:00:00Z");
const DAY = 86_400_000;

const arbLog = fc.array(
  fc.record({
    isCorrect: fc.boolean(),
    difficulty: fc.constantFrom<Difficulty | null>(0, 1, 2, null),
    reviewedAt: fc.integer({ min: 0, max: 3 * 365 * 24 }).map((h) => new Date(T0 + h * 3_600_000)),
  }),
  { maxLength: 40 },
);

describe("FSRS scheduling (issue 19)", () => {
  it("intervals grow with stability", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 2000, noNaN: true }),
        fc.double({ min: 1.01, max: 5, noNaN: true }),
        fc.double({ min: 0.7, max: 0.97, noNaN: true }),
        (s, k, r) => intervalForStability(s * k, r) >= intervalForStability(s, r),
      ),
    );
  });

  it("intervals shrink with a lower desired retention", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 2000, noNaN: true }),
        fc.double({ min: 0.7, max: 0.96, noNaN: true }),
        fc.double({ min: 0.001, max: 0.27, noNaN: true }),
        (s, lower, gap) => {
          const higher = Math.min(0.97, lower + gap);
          return intervalForStability(s, lower) >= intervalForStability(s, higher);
        },
      ),
    );
  });

  it("the memory state does not depend on the retention the card was scheduled at", () => {
    fc.assert(
      fc.property(arbLog, fc.double({ min: 0.7, max: 0.9, noNaN: true }), (log, r) => {
        const lo = replayReviews(log, { ...FSRS, desiredRetention: r });
        const hi = replayReviews(log, { ...FSRS, desiredRetention: 0.97 });
        const now = new Date(T0 + 4 * 365 * DAY);
        const a = rateState(lo, DIFFICULTY.MEDIUM, now, { ...FSRS, desiredRetention: r });
        const b = rateState(hi, DIFFICULTY.MEDIUM, now, { ...FSRS, desiredRetention: r });
        // Same memory model, so same stability whatever the retention it was scheduled for.
        expect(lo.stability ?? null).toBe(hi.stability ?? null);
        return a.intervalDays === b.intervalDays;
      }),
    );
  });

  it("replaying a log twice gives identical states, under both schedulers", () => {
    fc.assert(
      fc.property(arbLog, (log: ReplayReview[]) => {
        for (const settings of [FSRS, { ...FSRS, scheduler: "sm2" as const }]) {
          expect(replayReviews(log, settings)).toEqual(replayReviews([...log], settings));
        }
      }),
    );
  });

  it("a wrong answer is Again; Hard < Good < Easy on a studied card", () => {
    let s = initialStudyState();
    s = rateState(s, DIFFICULTY.MEDIUM, new Date(T0), FSRS);
    const next = nextIntervals(s, new Date(T0 + 3 * DAY), FSRS);
    expect(next.again).toBeLessThanOrEqual(next.hard);
    expect(next.hard).toBeLessThanOrEqual(next.good);
    expect(next.good).toBeLessThan(next.easy);
    const lapsed = answerState(s, false, new Date(T0 + 3 * DAY), FSRS);
    expect(lapsed.lapses).toBe(1);
    expect(lapsed.stability!).toBeLessThan(s.stability!);
  });

  it("a card scheduled by SM-2 without a replay is not new to FSRS", () => {
    const sm2 = { ...FSRS, scheduler: "sm2" as const };
    let s = initialStudyState();
    for (let k = 0; k < 4; k++)
      s = rateState(s, DIFFICULTY.MEDIUM, new Date(T0 + k * 20 * DAY), sm2);
    expect(s.stability ?? null).toBeNull();
    const when = s.dueAt!;
    const fromSm2 = rateState(s, DIFFICULTY.MEDIUM, when, FSRS);
    const fresh = rateState(initialStudyState(), DIFFICULTY.MEDIUM, when, FSRS);
    expect(fromSm2.intervalDays).toBeGreaterThan(fresh.intervalDays);
    expect(fromSm2.stability).toBeGreaterThan(s.intervalDays);
  });

  it("the maximum interval caps both schedulers", () => {
    for (const scheduler of ["sm2", "fsrs"] as const) {
      const settings = { ...FSRS, scheduler, maximumInterval: 10 };
      let s = initialStudyState();
      for (let k = 0; k < 8; k++) {
        s = rateState(s, DIFFICULTY.EASY, new Date(T0 + k * 30 * DAY), settings);
        expect(s.intervalDays).toBeLessThanOrEqual(10);
      }
      expect(s.intervalDays).toBe(10);
    }
  });

  it("refuses an invalid parameter set", () => {
    expect(isValidParameters(DEFAULT_FSRS_PARAMETERS)).toBe(true);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.double({ min: 0, max: 1 }), { maxLength: 30 }).filter((a) => a.length !== 21),
          fc
            .tuple(fc.integer({ min: 0, max: 20 }), fc.constantFrom(NaN, Infinity, -5, 1e6))
            .map(([i, v]) => DEFAULT_FSRS_PARAMETERS.map((w, j) => (j === i ? v : w))),
        ),
        (params) => parameterProblem(params) !== null,
      ),
    );
  });
});
