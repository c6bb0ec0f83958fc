/**
 * Study statistics computed from the review log (docs/product/scheduling.md replaces the spec's browser-kept counters),
 * plus the PRITE score summary and ranking helpers. Pure: the clock and time zone are arguments.
 */
import {
  CATEGORY_EXTREMES_COUNT,
  CATEGORY_EXTREMES_MIN_ANSWERS,
  RECENT_PERFORMANCE_LIMIT,
  UNCATEGORIZED,
} from "../constants";
import {
  computeStreak,
  dayNumberKey,
  localDayKey,
  QUARTER_HOUR_MS,
  quarterDayNumber,
  resolveTimeZone,
} from "./days";

export {
  canonicalTimeZone,
  computeStreak,
  isValidTimeZone,
  localDayKey,
  resolveTimeZone,
  shiftDayKey,
  timeZoneCacheSizes,
} from "./days";
export {
  percentileBand,
  percentileRank,
  SCORE_SUBJECT_LABELS,
  SCORE_SUBJECTS,
  scoreImprovement,
  type PercentileBand,
  type ScoreImprovement,
  type ScoreRecordLike,
  type ScoreSubject,
} from "./scores";

// ---------------------------------------------------------------------------------------------
// Study statistics

export interface Review {
  questionId: string;
  /** Category at answer time; '' when uncategorized. */
  category: string;
  isCorrect: boolean;
  reviewedAt: Date;
  timeSpentMs: number;
}

export interface StudyHistoryEntry {
  date: string;
  sessionsCount: number;
  questionsStudied: number;
}

export interface CategoryPerformance {
  total: number;
  correct: number;
  /** Rounded percent correct. */
  accuracy: number;
}

export interface RecentPerformanceEntry {
  questionId: string;
  category: string;
  isCorrect: boolean;
  /** ISO 8601 instant. */
  date: string;
  /** Milliseconds. */
  timeSpent: number;
}

export interface CategoryAccuracy {
  name: string;
  accuracy: number;
}

/** docs/product/data.md 'Local study stats', computed on the server from the review log. */
export interface StudyStats {
  totalStudied: number;
  correctAnswers: number;
  incorrectAnswers: number;
  masteryLevel: number;
  streakDays: number;
  lastStudyDate: string | null;
  studyHistory: StudyHistoryEntry[];
  categoryPerformance: Record<string, CategoryPerformance>;
  recentPerformance: RecentPerformanceEntry[];
  weakestCategories: CategoryAccuracy[];
  strongestCategories: CategoryAccuracy[];
  answeredToday: number;
}

/** Rounded percentage, 0 when there is nothing to divide. */
export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}

export function categoryLabel(category: string | null | undefined): string {
  const trimmed = (category ?? "").trim();
  return trimmed === "" ? UNCATEGORIZED : trimmed;
}

export interface StudyStatsOptions {
  timeZone: string;
  now: Date;
  /** Session starts: a started session makes its day a study day (docs/product/states.md) and is counted per day. */
  sessions?: readonly { startedAt: Date }[];
}

export function computeStudyStats(
  reviews: readonly Review[],
  { timeZone, now, sessions = [] }: StudyStatsOptions,
): StudyStats {
  const zone = resolveTimeZone(timeZone);
  const tally = new StudyTally();
  for (const review of reviews) {
    tally.addDay(localDayKey(review.reviewedAt, zone), 1, 0);
    tally.addCategory(review.category, 1, review.isCorrect ? 1 : 0);
  }
  for (const session of sessions) tally.addDay(localDayKey(session.startedAt, zone), 0, 1);
  return tally.stats(localDayKey(now, zone), reviews);
}

/**
 * Answers and session starts counted per day and per category: what the whole log and the kept figures
 * both reduce to, and what makes the same StudyStats of either.
 */
class StudyTally {
  private readonly history = new Map<string, StudyHistoryEntry>();
  // A Map, not an object: a category may be called anything, '__proto__' included.
  private readonly categories = new Map<string, { total: number; correct: number }>();
  private totalStudied = 0;
  private correctAnswers = 0;

  addDay(date: string, answered: number, sessions: number): void {
    if (answered === 0 && sessions === 0) return;
    let entry = this.history.get(date);
    if (!entry) {
      entry = { date, sessionsCount: 0, questionsStudied: 0 };
      this.history.set(date, entry);
    }
    entry.questionsStudied += answered;
    entry.sessionsCount += sessions;
  }

  addCategory(category: string | null | undefined, answered: number, correct: number): void {
    if (answered === 0) return;
    this.totalStudied += answered;
    this.correctAnswers += correct;
    const name = categoryLabel(category);
    const cat = this.categories.get(name) ?? { total: 0, correct: 0 };
    cat.total += answered;
    cat.correct += correct;
    this.categories.set(name, cat);
  }

  /** `recent`: enough of the newest answers, in the log's order. */
  stats(todayKey: string, recent: readonly Review[]): StudyStats {
    const { history, categories, totalStudied, correctAnswers } = this;
    const studyHistory = [...history.values()].sort((a, b) =>
      a.date < b.date ? -1 : a.date > b.date ? 1 : 0,
    );
    // A day "after today" only exists through clock skew; it must not become the last study date.
    const pastDays = studyHistory.map((h) => h.date).filter((d) => d <= todayKey);

    const categoryPerformance: Record<string, CategoryPerformance> = {};
    for (const [name, { total, correct }] of categories) {
      Object.defineProperty(categoryPerformance, name, {
        value: { total, correct, accuracy: percent(correct, total) },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }

    const { weakest, strongest } = categoryExtremes(categories);

    return {
      totalStudied,
      correctAnswers,
      incorrectAnswers: totalStudied - correctAnswers,
      masteryLevel: percent(correctAnswers, totalStudied),
      streakDays: computeStreak(pastDays, todayKey),
      lastStudyDate: pastDays.at(-1) ?? null,
      studyHistory,
      categoryPerformance,
      recentPerformance: recentPerformance(recent),
      weakestCategories: weakest,
      strongestCategories: strongest,
      answeredToday: history.get(todayKey)?.questionsStudied ?? 0,
    };
  }
}

// ---------------------------------------------------------------------------------------------
// The same statistics from maintained figures (issue 20, decision 220)

/** Length of the buckets the server keeps answers and session starts in: a UTC quarter hour. */
export const ROLLUP_QUARTER_MS = QUARTER_HOUR_MS;

/**
 * The day (in `timeZone`) every instant of the quarter hour starting at `quarterStartMs` falls on, as
 * `localDayKey` reads each of them; null when they do not all fall on one day (an offset that is not a
 * whole number of quarter hours, or a change of offset inside the quarter): such a quarter's answers
 * are then read one by one.
 */
export function quarterDayKey(quarterStartMs: number, timeZone: string): string | null {
  if (!Number.isFinite(quarterStartMs) || quarterStartMs % QUARTER_HOUR_MS !== 0) return null;
  const dayNumber = quarterDayNumber(resolveTimeZone(timeZone), quarterStartMs);
  return dayNumber === null ? null : dayNumberKey(dayNumber);
}

/** Counted answers and study-session starts of one user, as the server keeps them. */
export interface StudyRollups {
  /** Per stored category (the category at answer time). */
  categories: readonly { category: string; answered: number; correct: number }[];
  /** Per UTC quarter hour, by its start (ms since the epoch). */
  quarters: readonly { quarter: number; answered: number; sessions: number }[];
  /**
   * One entry per answer (answered 1) or session start (sessions 1) in the quarters that
   * `quartersReadOneByOne` named for this time zone; those quarters' sums are then not used.
   */
  oneByOne?: readonly { at: Date; answered: number; sessions: number }[];
  /**
   * Enough of the newest answers for `recentPerformance`, in the log's order (oldest first; among
   * equal times as the log holds them).
   */
  recent: readonly Review[];
}

/** The quarters (by start) whose answers must be read one by one for `timeZone`'s days. */
export function quartersReadOneByOne(
  quarters: readonly { quarter: number }[],
  timeZone: string,
): number[] {
  return quarters.filter((q) => quarterDayKey(q.quarter, timeZone) === null).map((q) => q.quarter);
}

/** `computeStudyStats` of the whole log, from the kept figures alone: the same result. */
export function studyStatsFromRollups(
  rollups: StudyRollups,
  { timeZone, now }: { timeZone: string; now: Date },
): StudyStats {
  const zone = resolveTimeZone(timeZone);
  const tally = new StudyTally();
  // Quarters of the same day add up under one key: the key's text is built once per day.
  const dayKeys = new Map<number, string>();
  for (const q of rollups.quarters) {
    const dayNumber = quarterDayNumber(zone, q.quarter);
    if (dayNumber === null) continue;
    let day = dayKeys.get(dayNumber);
    if (day === undefined) {
      day = dayNumberKey(dayNumber);
      dayKeys.set(dayNumber, day);
    }
    tally.addDay(day, q.answered, q.sessions);
  }
  for (const one of rollups.oneByOne ?? [])
    tally.addDay(localDayKey(one.at, zone), one.answered, one.sessions);
  for (const row of rollups.categories) tally.addCategory(row.category, row.answered, row.correct);
  return tally.stats(localDayKey(now, zone), rollups.recent);
}

/** The latest answers, newest first; among equal times the one logged later counts as newer. */
export function recentPerformance(
  reviews: readonly Review[],
  limit: number = RECENT_PERFORMANCE_LIMIT,
): RecentPerformanceEntry[] {
  return reviews
    .map((review, index) => ({ review, index, time: review.reviewedAt.getTime() }))
    .sort((a, b) => b.time - a.time || b.index - a.index)
    .slice(0, limit)
    .map(({ review }) => ({
      questionId: review.questionId,
      category: categoryLabel(review.category),
      isCorrect: review.isCorrect,
      date: review.reviewedAt.toISOString(),
      timeSpent: review.timeSpentMs,
    }));
}

/**
 * docs/product/states.md: the 3 lowest and 3 highest accuracies among categories with at least 5 answers. Ordered by
 * the exact ratio (rounding would tie 66.4% with 66.2%), then by name so the lists are stable. With
 * fewer than six qualifying categories a category can appear in both lists, as in the spec.
 */
export function categoryExtremes(
  categories: ReadonlyMap<string, { total: number; correct: number }>,
): {
  weakest: CategoryAccuracy[];
  strongest: CategoryAccuracy[];
} {
  const qualifying = [...categories]
    .filter(([, c]) => c.total >= CATEGORY_EXTREMES_MIN_ANSWERS)
    .map(([name, c]) => ({
      name,
      ratio: c.correct / c.total,
      accuracy: percent(c.correct, c.total),
    }));
  const byName = (a: { name: string }, b: { name: string }) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  const pick = (list: typeof qualifying) =>
    list.slice(0, CATEGORY_EXTREMES_COUNT).map(({ name, accuracy }) => ({ name, accuracy }));
  return {
    weakest: pick([...qualifying].sort((a, b) => a.ratio - b.ratio || byName(a, b))),
    strongest: pick([...qualifying].sort((a, b) => b.ratio - a.ratio || byName(a, b))),
  };
}

export interface SessionStats {
  questionsAnswered: number;
  correctAnswers: number;
  incorrectAnswers: number;
  accuracy: number;
  averageTimeSeconds: number;
}

/** The Session Complete card (docs/product/screens.md Study): average time shown in rounded seconds. */
export function computeSessionStats(
  answers: readonly { isCorrect: boolean; timeSpentMs: number }[],
): SessionStats {
  const correct = answers.filter((a) => a.isCorrect).length;
  const totalMs = answers.reduce((sum, a) => sum + a.timeSpentMs, 0);
  return {
    questionsAnswered: answers.length,
    correctAnswers: correct,
    incorrectAnswers: answers.length - correct,
    accuracy: percent(correct, answers.length),
    averageTimeSeconds: answers.length > 0 ? Math.round(totalMs / answers.length / 1000) : 0,
  };
}
