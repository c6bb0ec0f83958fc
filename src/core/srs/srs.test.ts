import { describe, expect, it } from "vitest";
import { DIFFICULTY, MAX_INTERVAL_DAYS, type Difficulty } from "../constants";
import {
  initialStudyState,
  isDue,
  isMastered,
  lapse,
  nextEase,
  rate,
  type StudyState,
} from "./index";

const NOW = new Date("2025-03-01T12:00:00.000Z");
const day = (n: number) => new Date(NOW.getTime() + n * 86_400_000);
const { HARD, MEDIUM, EASY } = DIFFICULTY;

describe("initialStudyState", () => {
  it("starts at ease 2.5 with nothing scheduled", () => {
    expect(initialStudyState()).toEqual({
      easeFactor: 2.5,
      intervalDays: 0,
      repetitions: 0,
      lapses: 0,
      dueAt: null,
      lastReviewedAt: null,
    });
  });
});

describe("rate from a fresh state", () => {
  it.each<[string, Difficulty, number]>([
    ["Hard", HARD, 2.36],
    ["Medium", MEDIUM, 2.5],
    ["Easy", EASY, 2.6],
  ])("%s → ease %s, interval 1 day", (_label, difficulty, ease) => {
    expect(rate(initialStudyState(), difficulty, NOW)).toEqual({
      easeFactor: ease,
      intervalDays: 1,
      repetitions: 1,
      lapses: 0,
      dueAt: day(1),
      lastReviewedAt: NOW,
    });
  });
});

describe("rate sequences", () => {
  // Each row: rating, then expected ease, interval and repetitions after it.
  const table: [Difficulty, number, number, number][] = [
    [EASY, 2.6, 1, 1],
    [EASY, 2.7, 6, 2],
    [MEDIUM, 2.7, 16, 3], // round(6 × 2.7) = 16.2 → 16
    [HARD, 2.56, 43, 4], // round(16 × 2.7) = 43.2 → 43, ease applied before the drop
    [EASY, 2.66, 110, 5], // round(43 × 2.56) = 110.08 → 110
  ];

  it("follows SM-2 step by step, with intervals from the ease held before each review", () => {
    let state = initialStudyState();
    let t = NOW;
    for (const [difficulty, ease, interval, reps] of table) {
      state = rate(state, difficulty, t);
      expect([state.easeFactor, state.intervalDays, state.repetitions]).toEqual([
        ease,
        interval,
        reps,
      ]);
      expect(state.lastReviewedAt).toEqual(t);
      expect(state.dueAt).toEqual(new Date(t.getTime() + interval * 86_400_000));
      t = state.dueAt!;
    }
  });

  it("Hard all the way floors the ease at 1.3 without drift", () => {
    let state = initialStudyState();
    const eases: number[] = [];
    for (let i = 0; i < 12; i++) {
      state = rate(state, HARD, NOW);
      eases.push(state.easeFactor);
    }
    expect(eases).toEqual([2.36, 2.22, 2.08, 1.94, 1.8, 1.66, 1.52, 1.38, 1.3, 1.3, 1.3, 1.3]);
    // Intervals: 1, 6, then round(prev × ease before): 6×2.22=13.32, 13×2.08=27.04, 27×1.94=52.38
    const intervals: number[] = [];
    let s = initialStudyState();
    for (let i = 0; i < 5; i++) {
      s = rate(s, HARD, NOW);
      intervals.push(s.intervalDays);
    }
    expect(intervals).toEqual([1, 6, 13, 27, 52]);
  });

  it("never schedules beyond 100 years, however often a card is rated Easy", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    let state = initialStudyState();
    for (let i = 0; i < 200; i++) state = rate(state, DIFFICULTY.EASY, now);
    expect(state.intervalDays).toBe(MAX_INTERVAL_DAYS);
    expect(state.dueAt!.getUTCFullYear()).toBe(2125);
    expect(Number.isFinite(state.dueAt!.getTime())).toBe(true);
  });

  it("nextEase applies the SM-2 formula per grade", () => {
    expect(nextEase(2.5, 3)).toBe(2.36);
    expect(nextEase(2.5, 4)).toBe(2.5);
    expect(nextEase(2.5, 5)).toBe(2.6);
    expect(nextEase(1.35, 3)).toBe(1.3);
  });
});

describe("lapse", () => {
  it("resets a long interval to tomorrow and lowers the ease by 0.2", () => {
    const mature: StudyState = {
      easeFactor: 2.66,
      intervalDays: 110,
      repetitions: 5,
      lapses: 1,
      dueAt: day(-3),
      lastReviewedAt: day(-113),
    };
    expect(lapse(mature, NOW)).toEqual({
      easeFactor: 2.46,
      intervalDays: 1,
      repetitions: 0,
      lapses: 2,
      dueAt: day(1),
      lastReviewedAt: NOW,
    });
  });

  it("floors the ease at 1.3", () => {
    expect(lapse({ ...initialStudyState(), easeFactor: 1.4 }, NOW).easeFactor).toBe(1.3);
    expect(lapse({ ...initialStudyState(), easeFactor: 1.3 }, NOW).easeFactor).toBe(1.3);
  });

  it("is followed by the 1-day, 6-day ladder again", () => {
    const after = rate(
      lapse({ ...initialStudyState(), repetitions: 4, intervalDays: 40 }, NOW),
      MEDIUM,
      NOW,
    );
    expect([after.intervalDays, after.repetitions, after.easeFactor]).toEqual([1, 1, 2.3]);
    expect(rate(after, MEDIUM, NOW).intervalDays).toBe(6);
  });
});

describe("rate guards", () => {
  it("never schedules a zero-day interval", () => {
    const broken: StudyState = { ...initialStudyState(), repetitions: 3, intervalDays: 0 };
    expect(rate(broken, EASY, NOW).intervalDays).toBe(1);
  });
});

describe("isMastered and isDue", () => {
  it("mastered only strictly above 2.5", () => {
    expect(isMastered({ easeFactor: 2.5 })).toBe(false);
    expect(isMastered({ easeFactor: 2.51 })).toBe(true);
    expect(isMastered(null)).toBe(false);
    expect(isMastered(rate(initialStudyState(), EASY, NOW))).toBe(true);
  });

  it("due when never studied or when the due time has come", () => {
    expect(isDue(null, NOW)).toBe(true);
    expect(isDue(initialStudyState(), NOW)).toBe(true);
    expect(isDue({ dueAt: NOW }, NOW)).toBe(true);
    expect(isDue({ dueAt: new Date(NOW.getTime() + 1) }, NOW)).toBe(false);
    expect(isDue(rate(initialStudyState(), MEDIUM, NOW), day(1))).toBe(true);
  });
});
