import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  computeSessionStats,
  computeStreak,
  computeStudyStats,
  localDayKey,
  percent,
  percentileBand,
  percentileRank,
  resolveTimeZone,
  scoreImprovement,
  shiftDayKey,
  type Review,
} from "./index";

const LA = "America/Los_Angeles";
const TOKYO = "Asia/Tokyo";
const utc = (iso: string) => new Date(iso);

describe("localDayKey", () => {
  it("reads the calendar day of the zone", () => {
    const t = utc("2025-01-10T16:00:00Z");
    expect(localDayKey(t, LA)).toBe("2025-01-10");
    expect(localDayKey(t, TOKYO)).toBe("2025-01-11");
    expect(localDayKey(t, "UTC")).toBe("2025-01-10");
  });

  it("falls back to UTC for an unknown zone", () => {
    const t = utc("2025-01-10T23:30:00Z");
    expect(localDayKey(t, "Mars/Olympus_Mons")).toBe("2025-01-10");
    expect(resolveTimeZone("Mars/Olympus_Mons")).toBe("UTC");
    expect(resolveTimeZone("")).toBe("UTC");
    expect(resolveTimeZone(undefined)).toBe("UTC");
    expect(resolveTimeZone(TOKYO)).toBe(TOKYO);
  });

  it("agrees with Intl for every zone shape: half and quarter hours, 30-minute DST, both hemispheres", () => {
    const zones = [
      "America/Los_Angeles",
      "America/St_Johns", // -3:30 with DST
      "Asia/Kolkata", // +5:30
      "Asia/Kathmandu", // +5:45
      "Australia/Lord_Howe", // +10:30, DST of 30 minutes
      "Pacific/Chatham", // +12:45 with DST
      "Europe/London",
      "Africa/Casablanca", // DST suspended during Ramadan
      "Pacific/Kiritimati", // +14
      "UTC",
    ];
    const exact = (ms: number, zone: string) =>
      new Intl.DateTimeFormat("en-CA", {
        timeZone: zone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
      }).format(ms);
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        // 2015-2035, to the second, and a second either side of every quarter hour too.
        fc.integer({ min: 1_420_070_400, max: 2_082_758_400 }),
        fc.constantFrom(-1, 0, 1, 7),
        (zone, seconds, nudge) => {
          const ms = (Math.floor(seconds / 900) * 900 + nudge) * 1000;
          expect(localDayKey(new Date(ms), zone)).toBe(exact(ms, zone));
        },
      ),
      { numRuns: 5_000 },
    );
    // Every minute around a transition: Lord Howe leaves DST at 02:00 local on 6 April 2025.
    for (let ms = Date.UTC(2025, 3, 5, 13, 0); ms < Date.UTC(2025, 3, 5, 17, 0); ms += 60_000) {
      expect(localDayKey(new Date(ms), "Australia/Lord_Howe")).toBe(
        exact(ms, "Australia/Lord_Howe"),
      );
    }
  });

  it("turns the day at local midnight on both sides of a DST change", () => {
    // 9 March 2025 is 23 hours long in Los Angeles (clocks jump from 02:00 PST to 03:00 PDT).
    expect(localDayKey(utc("2025-03-09T07:59:00Z"), LA)).toBe("2025-03-08"); // 23:59 PST
    expect(localDayKey(utc("2025-03-09T08:00:00Z"), LA)).toBe("2025-03-09"); // 00:00 PST
    expect(localDayKey(utc("2025-03-10T06:59:00Z"), LA)).toBe("2025-03-09"); // 23:59 PDT
    expect(localDayKey(utc("2025-03-10T07:00:00Z"), LA)).toBe("2025-03-10"); // 00:00 PDT
  });
});

describe("shiftDayKey", () => {
  it.each([
    ["2025-03-01", -1, "2025-02-28"],
    ["2024-03-01", -1, "2024-02-29"],
    ["2025-01-01", -1, "2024-12-31"],
    ["2025-03-09", 1, "2025-03-10"],
    ["2025-11-02", -1, "2025-11-01"],
  ])("%s shifted by %i → %s", (key, days, expected) => {
    expect(shiftDayKey(key, days)).toBe(expected);
  });
});

describe("computeStreak", () => {
  it("counts consecutive days ending today", () => {
    expect(computeStreak(["2025-01-07", "2025-01-08", "2025-01-09"], "2025-01-09")).toBe(3);
  });

  it("stays alive through yesterday when today has no study yet", () => {
    expect(computeStreak(new Set(["2025-01-07", "2025-01-08"]), "2025-01-09")).toBe(2);
  });

  it("is 0 once a whole day is missed", () => {
    expect(computeStreak(["2025-01-07", "2025-01-08"], "2025-01-10")).toBe(0);
    expect(computeStreak([], "2025-01-10")).toBe(0);
  });

  it("restarts after a gap day", () => {
    expect(
      computeStreak(["2025-01-05", "2025-01-06", "2025-01-08", "2025-01-09"], "2025-01-09"),
    ).toBe(2);
  });

  it("crosses month and year ends", () => {
    expect(computeStreak(["2024-12-30", "2024-12-31", "2025-01-01"], "2025-01-01")).toBe(3);
  });

  it("gives different streaks for the same instants in Los Angeles and Tokyo", () => {
    const reviews = [utc("2025-01-10T14:00:00Z"), utc("2025-01-10T16:00:00Z")];
    const now = utc("2025-01-10T20:00:00Z");
    const streakIn = (tz: string) =>
      computeStreak(
        reviews.map((r) => localDayKey(r, tz)),
        localDayKey(now, tz),
      );
    // LA: both at 06:00 and 08:00 on 10 Jan. Tokyo: 23:00 on 10 Jan and 01:00 on 11 Jan.
    expect(streakIn(LA)).toBe(1);
    expect(streakIn(TOKYO)).toBe(2);
  });

  it("counts a 23-hour DST day like any other", () => {
    const reviews = ["2025-03-09T07:59:00Z", "2025-03-10T06:59:00Z", "2025-03-10T07:00:00Z"].map(
      utc,
    );
    const days = reviews.map((r) => localDayKey(r, LA));
    expect(days).toEqual(["2025-03-08", "2025-03-09", "2025-03-10"]);
    expect(computeStreak(days, "2025-03-10")).toBe(3);
    // The first and third reviews are 23h01 apart yet two calendar days apart.
    expect(computeStreak(days, "2025-03-11")).toBe(3);
    expect(computeStreak(days, "2025-03-12")).toBe(0);
  });
});

describe("computeStudyStats", () => {
  const NY = "America/New_York";
  const reviews: Review[] = [];
  function add(category: string, total: number, correct: number, startIso: string) {
    const start = utc(startIso).getTime();
    for (let i = 0; i < total; i++) {
      reviews.push({
        questionId: `${category || "none"}-${i}`,
        category,
        isCorrect: i < correct,
        reviewedAt: new Date(start + i * 60_000),
        timeSpentMs: 1000 * (i + 1),
      });
    }
  }
  add("Psychopharmacology", 6, 5, "2025-06-13T14:00:00Z"); // NY 13 Jun 10:00
  add("Neuroscience", 5, 2, "2025-06-14T14:00:00Z"); // NY 14 Jun 10:00
  add("", 5, 3, "2025-06-15T03:30:00Z"); // NY 14 Jun 23:30, UTC 15 Jun
  add("Ethics", 4, 0, "2025-06-15T13:00:00Z"); // NY 15 Jun 09:00
  add("Sleep-Wake Disorders", 5, 4, "2025-06-15T14:00:00Z"); // NY 15 Jun 10:00
  const sessions = [
    "2025-06-13T13:59:00Z",
    "2025-06-14T13:59:00Z",
    "2025-06-15T03:29:00Z",
    "2025-06-15T12:59:00Z",
  ].map((iso) => ({ startedAt: utc(iso) }));
  const now = utc("2025-06-15T16:00:00Z");

  it("summarises totals, mastery, streak and history in the user's zone", () => {
    const s = computeStudyStats(reviews, { timeZone: NY, now, sessions });
    expect(s.totalStudied).toBe(25);
    expect(s.correctAnswers).toBe(14);
    expect(s.incorrectAnswers).toBe(11);
    expect(s.masteryLevel).toBe(56);
    expect(s.streakDays).toBe(3);
    expect(s.lastStudyDate).toBe("2025-06-15");
    expect(s.answeredToday).toBe(9);
    expect(s.studyHistory).toEqual([
      { date: "2025-06-13", sessionsCount: 1, questionsStudied: 6 },
      { date: "2025-06-14", sessionsCount: 2, questionsStudied: 10 },
      { date: "2025-06-15", sessionsCount: 1, questionsStudied: 9 },
    ]);
  });

  it("assigns days differently in UTC", () => {
    const s = computeStudyStats(reviews, { timeZone: "UTC", now, sessions });
    expect(s.studyHistory).toEqual([
      { date: "2025-06-13", sessionsCount: 1, questionsStudied: 6 },
      { date: "2025-06-14", sessionsCount: 1, questionsStudied: 5 },
      { date: "2025-06-15", sessionsCount: 2, questionsStudied: 14 },
    ]);
    expect(s.answeredToday).toBe(14);
  });

  it("computes per-category performance with 'Uncategorized'", () => {
    const s = computeStudyStats(reviews, { timeZone: NY, now });
    expect(s.categoryPerformance).toEqual({
      Psychopharmacology: { total: 6, correct: 5, accuracy: 83 },
      Neuroscience: { total: 5, correct: 2, accuracy: 40 },
      Uncategorized: { total: 5, correct: 3, accuracy: 60 },
      Ethics: { total: 4, correct: 0, accuracy: 0 },
      "Sleep-Wake Disorders": { total: 5, correct: 4, accuracy: 80 },
    });
  });

  it("ranks weakest and strongest among categories with at least 5 answers", () => {
    const s = computeStudyStats(reviews, { timeZone: NY, now });
    // Ethics (0%) has only 4 answers and is left out.
    expect(s.weakestCategories).toEqual([
      { name: "Neuroscience", accuracy: 40 },
      { name: "Uncategorized", accuracy: 60 },
      { name: "Sleep-Wake Disorders", accuracy: 80 },
    ]);
    expect(s.strongestCategories).toEqual([
      { name: "Psychopharmacology", accuracy: 83 },
      { name: "Sleep-Wake Disorders", accuracy: 80 },
      { name: "Uncategorized", accuracy: 60 },
    ]);
  });

  it("keeps the 10 latest answers, newest first", () => {
    const s = computeStudyStats(reviews, { timeZone: NY, now });
    expect(s.recentPerformance.map((r) => r.questionId)).toEqual([
      "Sleep-Wake Disorders-4",
      "Sleep-Wake Disorders-3",
      "Sleep-Wake Disorders-2",
      "Sleep-Wake Disorders-1",
      "Sleep-Wake Disorders-0",
      "Ethics-3",
      "Ethics-2",
      "Ethics-1",
      "Ethics-0",
      "none-4",
    ]);
    expect(s.recentPerformance[0]).toEqual({
      questionId: "Sleep-Wake Disorders-4",
      category: "Sleep-Wake Disorders",
      isCorrect: false,
      date: "2025-06-15T14:04:00.000Z",
      timeSpent: 5000,
    });
    expect(s.recentPerformance[9]?.category).toBe("Uncategorized");
  });

  it("orders by time, not by input order; equal times put the later-logged first", () => {
    const base = { category: "X", isCorrect: true, timeSpentMs: 0 };
    const t = utc("2025-01-01T00:00:00Z");
    const s = computeStudyStats(
      [
        { ...base, questionId: "late", reviewedAt: utc("2025-01-02T00:00:00Z") },
        { ...base, questionId: "tie-1", reviewedAt: t },
        { ...base, questionId: "tie-2", reviewedAt: t },
      ],
      { timeZone: "UTC", now: utc("2025-01-02T12:00:00Z") },
    );
    expect(s.recentPerformance.map((r) => r.questionId)).toEqual(["late", "tie-2", "tie-1"]);
  });

  it("keeps a streak alive from yesterday and ends it after a missed day", () => {
    expect(
      computeStudyStats(reviews, { timeZone: NY, now: utc("2025-06-16T20:00:00Z") }).streakDays,
    ).toBe(3);
    const later = computeStudyStats(reviews, { timeZone: NY, now: utc("2025-06-17T20:00:00Z") });
    expect(later.streakDays).toBe(0);
    expect(later.answeredToday).toBe(0);
    expect(later.lastStudyDate).toBe("2025-06-15");
  });

  it("counts a started session without answers as a study day", () => {
    const s = computeStudyStats([], {
      timeZone: "UTC",
      now: utc("2025-02-02T10:00:00Z"),
      sessions: [
        { startedAt: utc("2025-02-01T09:00:00Z") },
        { startedAt: utc("2025-02-02T09:00:00Z") },
      ],
    });
    expect(s.streakDays).toBe(2);
    expect(s.studyHistory).toEqual([
      { date: "2025-02-01", sessionsCount: 1, questionsStudied: 0 },
      { date: "2025-02-02", sessionsCount: 1, questionsStudied: 0 },
    ]);
  });

  it("is all zeros without reviews", () => {
    expect(computeStudyStats([], { timeZone: NY, now })).toEqual({
      totalStudied: 0,
      correctAnswers: 0,
      incorrectAnswers: 0,
      masteryLevel: 0,
      streakDays: 0,
      lastStudyDate: null,
      studyHistory: [],
      categoryPerformance: {},
      recentPerformance: [],
      weakestCategories: [],
      strongestCategories: [],
      answeredToday: 0,
    });
  });

  it("does not let a category named __proto__ touch the prototype", () => {
    const s = computeStudyStats(
      [
        {
          questionId: "q",
          category: "__proto__",
          isCorrect: true,
          reviewedAt: now,
          timeSpentMs: 1,
        },
      ],
      { timeZone: "UTC", now },
    );
    expect(Object.keys(s.categoryPerformance)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(s.categoryPerformance)).toBe(Object.prototype);
  });
});

describe("computeSessionStats", () => {
  it("reports counts, accuracy and rounded average seconds", () => {
    expect(
      computeSessionStats([
        { isCorrect: true, timeSpentMs: 12_000 },
        { isCorrect: false, timeSpentMs: 7_400 },
        { isCorrect: true, timeSpentMs: 5_000 },
      ]),
    ).toEqual({
      questionsAnswered: 3,
      correctAnswers: 2,
      incorrectAnswers: 1,
      accuracy: 67,
      averageTimeSeconds: 8,
    });
  });
  it("is zeros for an empty session", () => {
    expect(computeSessionStats([])).toEqual({
      questionsAnswered: 0,
      correctAnswers: 0,
      incorrectAnswers: 0,
      accuracy: 0,
      averageTimeSeconds: 0,
    });
  });
  it("rounds half a second up", () => {
    expect(computeSessionStats([{ isCorrect: true, timeSpentMs: 2_500 }]).averageTimeSeconds).toBe(
      3,
    );
  });
});

describe("scoreImprovement", () => {
  it("compares the earliest and latest year; N/A unless both ends are non-zero", () => {
    expect(
      scoreImprovement([
        {
          year: "2024",
          overallPercentile: 70,
          psychiatryPercentile: 65,
          neurosciencePercentile: 0,
          somaPercentile: null,
          growthPercentile: 50,
        },
        {
          year: "2022",
          overallPercentile: 55,
          psychiatryPercentile: 60,
          neurosciencePercentile: 40,
          somaPercentile: 30,
          growthPercentile: 50,
        },
        { year: "2023", overallPercentile: 10 },
      ]),
    ).toEqual({
      title: "2-Year Improvement",
      fromYear: 2022,
      toYear: 2024,
      yearSpan: 2,
      changes: { overall: 15, psychiatry: 5, neuroscience: null, soma: null, growth: 0 },
    });
  });

  it("reports declines as negative numbers", () => {
    expect(
      scoreImprovement([
        { year: 2021, overallPercentile: 60 },
        { year: 2022, overallPercentile: 45 },
      ])?.changes.overall,
    ).toBe(-15);
  });

  it("titles a zero-year span 'Progress Since First PRITE'", () => {
    const r = scoreImprovement([
      { year: "2023", overallPercentile: 40 },
      { year: "2023", overallPercentile: 52 },
    ]);
    expect(r?.title).toBe("Progress Since First PRITE");
    expect(r?.changes.overall).toBe(12);
    expect(r?.changes.psychiatry).toBeNull();
  });

  it("needs two records", () => {
    expect(scoreImprovement([])).toBeNull();
    expect(scoreImprovement([{ year: "2023", overallPercentile: 40 }])).toBeNull();
  });
});

describe("percentileBand, percent and percentileRank", () => {
  it.each([
    [99, "success"],
    [80, "success"],
    [79, "primary"],
    [50, "primary"],
    [49, "warning"],
    [30, "warning"],
    [29, "danger"],
    [0, "danger"],
  ])("%i → %s", (p, band) => {
    expect(percentileBand(p)).toBe(band);
  });

  it("percent rounds and is 0 for an empty whole", () => {
    expect(percent(1, 3)).toBe(33);
    expect(percent(2, 3)).toBe(67);
    expect(percent(0, 0)).toBe(0);
  });

  it("ranks by share below plus half the ties", () => {
    expect(percentileRank(70, [50, 60, 70, 80])).toBe(63); // (2 + 0.5) / 4 = 62.5%
    expect(percentileRank(70, [70, 70, 70])).toBe(50);
    expect(percentileRank(90, [10, 20, 30])).toBe(100);
    expect(percentileRank(5, [10, 20, 30])).toBe(0);
    expect(percentileRank(20, [10, 20, 30, Number.NaN])).toBe(50);
    expect(percentileRank(20, [])).toBeNull();
  });
});
