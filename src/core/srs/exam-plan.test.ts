import fc from "fast-check";
import { forgetting_curve } from "ts-fsrs";
import { describe, expect, it } from "vitest";
import { DIFFICULTY, type Difficulty } from "../constants";
import {
  allowedDays,
  cutForExam,
  DAY_MS,
  examPace,
  lastDayBeforeExam,
  placeReview,
  recallAfter,
  startOfLocalDay,
  weekdayOf,
} from "./exam-plan";
import { forecast } from "./forecast";
import { DEFAULT_FSRS_PARAMETERS, DEFAULT_FSRS_SETTINGS, type SchedulerSettings } from "./fsrs";
import { answerState, rateState } from "./schedule";
import { initialStudyState, type StudyState } from "./index";
import { localDayKey } from "../stats/days";

const FSRS: SchedulerSettings = { ...DEFAULT_FSRS_SETTINGS, scheduler: "fsrs" };
const T0 = Date.parse("2026-03-02T14:00:00Z");

const arbStudied = fc.record({
  stability: fc.double({ min: 0.5, max: 3000, noNaN: true }),
  fsrsDifficulty: fc.double({ min: 1, max: 10, noNaN: true }),
  elapsed: fc.integer({ min: 0, max: 400 }),
  repetitions: fc.integer({ min: 1, max: 20 }),
});

function studied(
  a: { stability: number; fsrsDifficulty: number; elapsed: number; repetitions: number },
  now: number,
): StudyState {
  return {
    ...initialStudyState(),
    repetitions: a.repetitions,
    intervalDays: Math.max(1, a.elapsed),
    stability: a.stability,
    fsrsDifficulty: a.fsrsDifficulty,
    lastReviewedAt: new Date(now - a.elapsed * DAY_MS),
    dueAt: new Date(now),
  };
}

describe("recall (FSRS retrievability from ts-fsrs)", () => {
  it("is ts-fsrs's forgetting curve: 0.9 after one stability", () => {
    expect(recallAfter(10, 10)).toBeCloseTo(0.9, 6);
    expect(recallAfter(7, 30)).toBe(forgetting_curve([...DEFAULT_FSRS_PARAMETERS], 30, 7));
  });
});

describe("the exam cut", () => {
  it("cuts an interval that would jump past the exam to the last day before it", () => {
    // With the target above the desired retention, FSRS's own interval would let recall fall under it.
    const exam = { at: T0 + 20 * DAY_MS + 3_600_000, targetRetention: 0.95 };
    const settings = { ...FSRS, exam };
    const state = studied({ stability: 8, fsrsDifficulty: 5, elapsed: 8, repetitions: 3 }, T0);
    const plain = rateState(state, DIFFICULTY.MEDIUM, new Date(T0), FSRS);
    expect(plain.intervalDays).toBeGreaterThan(20);
    expect(recallAfter(plain.stability!, 20)).toBeLessThan(0.95);
    const cut = rateState(state, DIFFICULTY.MEDIUM, new Date(T0), settings);
    expect(cut.intervalDays).toBe(20);
    expect(cut.dueAt!.getTime()).toBeLessThan(exam.at);
    expect(cut.stability).toBe(plain.stability);
  });

  it("leaves SM-2 and intervals that end before the exam alone", () => {
    const exam = { at: T0 + 200 * DAY_MS, targetRetention: 0.9 };
    const state = studied({ stability: 3, fsrsDifficulty: 5, elapsed: 3, repetitions: 2 }, T0);
    const withDate = rateState(state, DIFFICULTY.MEDIUM, new Date(T0), { ...FSRS, exam });
    expect(withDate).toEqual(rateState(state, DIFFICULTY.MEDIUM, new Date(T0), FSRS));
    const sm2 = { ...FSRS, scheduler: "sm2" as const, exam };
    expect(cutForExam({ ...state, intervalDays: 400 }, new Date(T0), sm2).intervalDays).toBe(400);
  });

  it("property: never past the exam when the target needs a review before it; never longer", () => {
    fc.assert(
      fc.property(
        arbStudied,
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        fc.double({ min: 0.5, max: 365, noNaN: true }),
        fc.double({ min: 0.7, max: 0.99, noNaN: true }),
        (a, rating, right, examDays, target) => {
          const now = new Date(T0);
          const exam = { at: T0 + examDays * DAY_MS, targetRetention: target };
          const state = studied(a, T0);
          const plain = right
            ? rateState(state, rating as Difficulty, now, FSRS)
            : answerState(state, false, now, FSRS);
          const next = right
            ? rateState(state, rating as Difficulty, now, { ...FSRS, exam })
            : answerState(state, false, now, { ...FSRS, exam });
          expect(next.intervalDays).toBeLessThanOrEqual(plain.intervalDays);
          expect(next.intervalDays).toBeGreaterThanOrEqual(1);
          const pastExam = next.dueAt!.getTime() >= exam.at;
          const recallAtExam = recallAfter(next.stability!, examDays);
          if (pastExam && lastDayBeforeExam(T0, exam.at) >= 1) {
            expect(recallAtExam).toBeGreaterThanOrEqual(target);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("load balancing and easy days", () => {
  const plan = { loadBalance: true, easyDays: [] as number[], timeZone: "America/Chicago" };

  it("places the review on the lightest allowed day", () => {
    const now = new Date(T0);
    const state = {
      ...studied({ stability: 30, fsrsDifficulty: 5, elapsed: 10, repetitions: 3 }, T0),
      intervalDays: 30,
      dueAt: new Date(T0 + 30 * DAY_MS),
    };
    const { min, max } = allowedDays(state, now, 10, FSRS);
    expect(min).toBeLessThan(30);
    expect(max).toBeGreaterThan(30);
    const light = localDayKey(new Date(T0 + min * DAY_MS), "America/Chicago");
    const placed = placeReview(state, now, 10, FSRS, plan, (k) => (k === light ? 0 : 50));
    expect(placed.intervalDays).toBe(min);
    expect(placed.dueAt!.getTime()).toBe(T0 + min * DAY_MS);
    // Even loads: the scheduler's own interval.
    expect(placeReview(state, now, 10, FSRS, plan, () => 5).intervalDays).toBe(30);
    // Both off: untouched.
    expect(placeReview(state, now, 10, FSRS, { ...plan, loadBalance: false }, () => 0)).toBe(state);
  });

  it("keeps reviews off easy days when another allowed day is as light", () => {
    const now = new Date(T0);
    const state = {
      ...studied({ stability: 30, fsrsDifficulty: 5, elapsed: 10, repetitions: 3 }, T0),
      intervalDays: 30,
      dueAt: new Date(T0 + 30 * DAY_MS),
    };
    const own = weekdayOf(localDayKey(state.dueAt, "America/Chicago"));
    const placed = placeReview(state, now, 10, FSRS, { ...plan, easyDays: [own] }, () => 3);
    expect(weekdayOf(localDayKey(placed.dueAt!, "America/Chicago"))).not.toBe(own);
  });

  it("property: every placed interval stays within its allowed range and before a needed exam", () => {
    fc.assert(
      fc.property(
        arbStudied,
        fc.integer({ min: 0, max: 2 }),
        fc.option(fc.double({ min: 2, max: 200, noNaN: true }), { nil: null }),
        fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 7, maxLength: 7 }),
        (a, rating, examDays, easyDays, loads) => {
          const now = new Date(T0);
          const exam =
            examDays === null ? null : { at: T0 + examDays * DAY_MS, targetRetention: 0.9 };
          const settings = { ...FSRS, exam };
          const state = studied(a, T0);
          const next = rateState(state, rating as Difficulty, now, settings);
          const range = allowedDays(next, now, a.elapsed, settings);
          const placed = placeReview(
            next,
            now,
            a.elapsed,
            settings,
            { loadBalance: true, easyDays, timeZone: "UTC" },
            (k) => loads[weekdayOf(k)]!,
          );
          expect(placed.intervalDays).toBeGreaterThanOrEqual(range.min);
          expect(placed.intervalDays).toBeLessThanOrEqual(range.max);
          expect(placed.intervalDays).toBeLessThanOrEqual(settings.maximumInterval);
          expect(placed.dueAt!.getTime()).toBe(T0 + placed.intervalDays * DAY_MS);
          if (
            exam &&
            lastDayBeforeExam(T0, exam.at) >= 1 &&
            recallAfter(next.stability!, examDays!) < 0.9
          ) {
            expect(placed.dueAt!.getTime()).toBeLessThan(exam.at);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("examPace", () => {
  it("raises the pace to cover the bank a week before the exam", () => {
    const p = examPace({
      unseen: 3000,
      today: "2026-01-01",
      examDate: "2026-05-01",
      newPerDay: 20,
      maxNewPerDay: 100,
    });
    expect(p.daysLeft).toBe(113);
    expect(p.perDay).toBe(27);
    expect(p.covered).toBe(true);
  });

  it("says plainly when the maximum cannot cover the bank, and what would", () => {
    const p = examPace({
      unseen: 3000,
      today: "2026-01-01",
      examDate: "2026-01-31",
      newPerDay: 20,
      maxNewPerDay: 50,
    });
    expect(p.covered).toBe(false);
    expect(p.perDay).toBe(50);
    expect(p.needed).toBe(131);
    expect(p.coveringExamDate).toBe("2026-03-09");
    expect(p.message).toMatch(/cannot be covered in time/);
    expect(p.message).toMatch(/131/);
  });

  it("property: within the limits; covered means the days left see every question", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20000 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 0, max: 500 }),
        (unseen, days, newPerDay, maxNew) => {
          const examDate = new Date(Date.parse("2026-01-01") + days * DAY_MS)
            .toISOString()
            .slice(0, 10);
          const p = examPace({
            unseen,
            today: "2026-01-01",
            examDate,
            newPerDay,
            maxNewPerDay: maxNew,
          });
          expect(p.perDay).toBeGreaterThanOrEqual(newPerDay);
          expect(p.perDay).toBeLessThanOrEqual(Math.max(newPerDay, maxNew));
          if (p.covered && unseen > 0)
            expect(p.perDay * p.daysLeft!).toBeGreaterThanOrEqual(unseen);
          if (!p.covered) expect(p.coveringExamDate).not.toBeNull();
        },
      ),
    );
  });
});

describe("startOfLocalDay", () => {
  it("finds local midnight, DST days included", () => {
    expect(new Date(startOfLocalDay("2026-03-08", "America/Chicago")).toISOString()).toBe(
      "2026-03-08T06:00:00.000Z",
    );
    expect(new Date(startOfLocalDay("2026-03-09", "America/Chicago")).toISOString()).toBe(
      "2026-03-09T05:00:00.000Z",
    );
    expect(new Date(startOfLocalDay("2026-07-01", "UTC")).toISOString()).toBe(
      "2026-07-01T00:00:00.000Z",
    );
  });
});

describe("forecast", () => {
  it("counts due reviews, introductions at the pace and recall per category", () => {
    const now = new Date(T0);
    const cards = Array.from({ length: 50 }, (_, i) => ({
      category: i % 2 ? "Neurology" : "Psychiatry",
      dueAt: T0 + (i % 10) * DAY_MS,
      lastReviewedAt: T0 - 5 * DAY_MS,
      stability: 8,
      difficulty: 5,
    }));
    const f = forecast({
      now,
      timeZone: "UTC",
      cards,
      unseenByCategory: { Neurology: 100, Psychiatry: 100 },
      pace: 10,
      examDate: "2026-04-01",
      targetRetention: 0.9,
      settings: { ...FSRS, exam: { at: Date.parse("2026-04-01T00:00:00Z"), targetRetention: 0.9 } },
    });
    expect(f.days.length).toBe(31);
    expect(f.days[0]!.date).toBe("2026-03-02");
    expect(f.days.reduce((n, d) => n + d.new, 0)).toBe(200);
    expect(f.days[0]!.new).toBe(10);
    expect(f.days.slice(0, 10).reduce((n, d) => n + d.reviews, 0)).toBeGreaterThanOrEqual(50);
    expect(Object.keys(f.recallByCategory)).toEqual(["Neurology", "Psychiatry"]);
    expect(f.recallByCategory.Neurology!.total).toBe(125);
    expect(f.recallByCategory.Neurology!.seen).toBe(125);
    expect(f.recallByCategory.Neurology!.recall).toBeGreaterThan(0.8);
    expect(f.shareSeen).toBeCloseTo(50 / 250);
    expect(f.shareSeenByExam).toBe(1);
  });

  it("is fast for 10,000 cards", () => {
    const cards = Array.from({ length: 10_000 }, (_, i) => ({
      category: `C${i % 12}`,
      dueAt: T0 + (i % 90) * DAY_MS,
      lastReviewedAt: T0 - (i % 30) * DAY_MS,
      stability: 1 + (i % 200),
      difficulty: 1 + (i % 9),
    }));
    const start = performance.now();
    const f = forecast({
      now: new Date(T0),
      timeZone: "America/New_York",
      cards,
      unseenByCategory: { C1: 2000 },
      pace: 40,
      examDate: "2026-07-01",
      targetRetention: 0.9,
      settings: FSRS,
    });
    expect(performance.now() - start).toBeLessThan(2000); // a guard on a shared machine; bench/study-plan-bench.ts measures
    expect(f.days.length).toBe(122);
  });
});
