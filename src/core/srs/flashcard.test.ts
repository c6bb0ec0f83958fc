import { Rating, type Grade } from "ts-fsrs";
import { describe, expect, it } from "vitest";
import { DEFAULT_FSRS_SETTINGS, fsrsReview, type SchedulerSettings } from "./fsrs";
import {
  FLASHCARD_RATINGS,
  flashcardReview,
  intervalForRating,
  ratingOfReview,
  type FlashcardRating,
} from "./flashcard";
import { initialStudyState, type StudyState } from "./index";
import { applyReview, replayReviews } from "./replay";
import { nextIntervals, SM2_SETTINGS } from "./schedule";

const FSRS: SchedulerSettings = { ...DEFAULT_FSRS_SETTINGS, scheduler: "fsrs" };
const NOW = new Date("2025-03-01T12:00:00.000Z");
const DAY = 86_400_000;

/** A card reviewed twice under SM-2, last 6 days ago, due now. */
const studied: StudyState = {
  easeFactor: 2.5,
  intervalDays: 6,
  repetitions: 2,
  lapses: 0,
  dueAt: NOW,
  lastReviewedAt: new Date(NOW.getTime() - 6 * DAY),
};

const rated = (state: StudyState, rating: FlashcardRating, settings: SchedulerSettings) =>
  applyReview(state, { ...flashcardReview(rating), reviewedAt: NOW }, settings);

describe("a flashcard's rating as a review (decision 235)", () => {
  it("Again is an incorrect review; Hard, Good and Easy are correct ones with difficulty 0, 1, 2", () => {
    expect(FLASHCARD_RATINGS.map((r) => flashcardReview(r))).toEqual([
      { isCorrect: false, difficulty: null },
      { isCorrect: true, difficulty: 0 },
      { isCorrect: true, difficulty: 1 },
      { isCorrect: true, difficulty: 2 },
    ]);
  });

  it("reads back as the same rating from the review log", () => {
    for (const r of FLASHCARD_RATINGS) expect(ratingOfReview(flashcardReview(r))).toBe(r);
  });
});

describe("under SM-2", () => {
  it("Again is a lapse: ease −0.20, back tomorrow, repetitions 0, one more lapse", () => {
    expect(rated(studied, "again", SM2_SETTINGS)).toEqual({
      easeFactor: 2.3,
      intervalDays: 1,
      repetitions: 0,
      lapses: 1,
      dueAt: new Date(NOW.getTime() + DAY),
      lastReviewedAt: NOW,
    });
  });

  it.each<[FlashcardRating, number]>([
    ["hard", 2.36], // quality 3
    ["good", 2.5], // quality 4
    ["easy", 2.6], // quality 5
  ])(
    "%s → quality grade of the matching difficulty: ease %s, interval round(6 × 2.5)",
    (r, ease) => {
      expect(rated(studied, r, SM2_SETTINGS)).toEqual({
        easeFactor: ease,
        intervalDays: 15,
        repetitions: 3,
        lapses: 0,
        dueAt: new Date(NOW.getTime() + 15 * DAY),
        lastReviewedAt: NOW,
      });
    },
  );

  it("a new card: Again tomorrow with a lapse, the others tomorrow as a first success", () => {
    const fresh = initialStudyState();
    expect(rated(fresh, "again", SM2_SETTINGS)).toMatchObject({ intervalDays: 1, lapses: 1 });
    for (const r of ["hard", "good", "easy"] as const) {
      expect(rated(fresh, r, SM2_SETTINGS)).toMatchObject({
        intervalDays: 1,
        repetitions: 1,
        lapses: 0,
      });
    }
  });
});

describe("under FSRS", () => {
  it.each<[FlashcardRating, Grade]>([
    ["again", Rating.Again],
    ["hard", Rating.Hard],
    ["good", Rating.Good],
    ["easy", Rating.Easy],
  ])("%s is FSRS grade %s", (r, grade) => {
    for (const state of [initialStudyState(), studied]) {
      expect(rated(state, r, FSRS)).toEqual(fsrsReview(state, grade, NOW, FSRS));
    }
  });

  it("the intervals grow from Again to Easy, and Again counts a lapse", () => {
    const days = FLASHCARD_RATINGS.map((r) => rated(studied, r, FSRS).intervalDays);
    expect([...days].sort((a, b) => a - b)).toEqual(days);
    expect(days[0]).toBeLessThan(days[3]!);
    expect(rated(studied, "again", FSRS).lapses).toBe(1);
  });
});

describe("the intervals shown on the rating buttons", () => {
  it.each([
    ["SM-2", SM2_SETTINGS],
    ["FSRS", FSRS],
  ] as const)("%s: each button's interval is the one its rating then schedules", (_n, settings) => {
    const next = nextIntervals(studied, NOW, settings);
    for (const r of FLASHCARD_RATINGS) {
      expect(intervalForRating(next, r)).toBe(rated(studied, r, settings).intervalDays);
    }
  });

  it("replaying a log of ratings gives the state the ratings gave one by one", () => {
    const ratings: FlashcardRating[] = ["good", "again", "hard", "easy", "good"];
    for (const settings of [SM2_SETTINGS, FSRS]) {
      let state = initialStudyState();
      const log = ratings.map((r, i) => {
        const review = { ...flashcardReview(r), reviewedAt: new Date(NOW.getTime() + i * 3 * DAY) };
        state = applyReview(state, review, settings);
        return review;
      });
      expect(replayReviews(log, settings)).toEqual(state);
    }
  });
});
