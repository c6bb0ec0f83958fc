/**
 * Study statistics computed from the review log (DESIGN §5 replaces the spec's browser-kept counters),
 * plus the PRITE score summary and ranking helpers. Pure: the clock and time zone are arguments.
 */
import { LRUCache } from "lru-cache";
import {
  CATEGORY_EXTREMES_COUNT,
  CATEGORY_EXTREMES_MIN_ANSWERS,
  PERCENTILE_BANDS,
  RECENT_PERFORMANCE_LIMIT,
  UNCATEGORIZED,
} from "../constants";

// ---------------------------------------------------------------------------------------------
// Days in the user's time zone

/**
 * Caches keyed by what a client sends must not grow with it (issue 24): a zone's spellings (any letter
 * case of a name, from the x-time-zone header) map to the runtime's canonical name in a bounded cache,
 * and the formatters and offsets are kept per canonical zone, also bounded. docs/decisions/161 lists
 * every module-level cache and who controls its keys.
 */
const canonicalBySpelling = new LRUCache<string, string>({ max: 1_000 });
const INVALID_ZONE = "";

interface ZoneCache {
  day: Intl.DateTimeFormat;
  offset: Intl.DateTimeFormat;
  /** The offset (ms) of each quarter hour seen, or null when it holds a transition. */
  quarters: Map<number, number | null>;
}
/** Per canonical zone; a server sees few zones, and a zone's quarter-hour table is capped below. */
const zones = new LRUCache<string, ZoneCache>({ max: 32 });

/**
 * The runtime's own name for a time zone (`america/new_york` → `America/New_York`), or null when the
 * runtime does not know it.
 */
export function canonicalTimeZone(timeZone: string | null | undefined): string | null {
  if (typeof timeZone !== "string" || timeZone === "" || timeZone.length > 64) return null;
  let canonical = canonicalBySpelling.get(timeZone);
  if (canonical === undefined) {
    try {
      canonical = new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
    } catch {
      canonical = INVALID_ZONE;
    }
    canonicalBySpelling.set(timeZone, canonical);
  }
  return canonical === INVALID_ZONE ? null : canonical;
}

function zoneCache(zone: string): ZoneCache | null {
  const cached = zones.get(zone);
  if (cached) return cached;
  try {
    const entry: ZoneCache = {
      day: new Intl.DateTimeFormat("en-CA", {
        timeZone: zone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
      }),
      offset: new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      }),
      quarters: new Map(),
    };
    zones.set(zone, entry);
    return entry;
  } catch {
    return null;
  }
}

/** How many entries the time-zone caches hold now (tests and the memory bench watch the bounds). */
export function timeZoneCacheSizes(): { spellings: number; zones: number } {
  return { spellings: canonicalBySpelling.size, zones: zones.size };
}

export function isValidTimeZone(timeZone: string | null | undefined): boolean {
  return canonicalTimeZone(timeZone) !== null;
}

/** The canonical IANA zone, or 'UTC' when it is missing or unknown to this runtime. */
export function resolveTimeZone(timeZone: string | null | undefined): string {
  return canonicalTimeZone(timeZone) ?? "UTC";
}

/** 'YYYY-MM-DD' of the calendar day `date` falls on in `timeZone` (an invalid zone reads as UTC). */
export function localDayKey(date: Date, timeZone: string): string {
  const zone = resolveTimeZone(timeZone);
  const ms = date.getTime();
  if (!Number.isFinite(ms)) return exactDayKey(date, zone);
  // A zone's offset changes only at transitions, all on quarter hours: the offset found at both ends
  // of this quarter hour holds for all of it, and the day is then plain arithmetic. Intl, which costs
  // microseconds a call, runs twice per quarter hour instead of once per answer (the dashboard reads
  // thousands).
  const quarter = Math.floor(ms / QUARTER_HOUR_MS);
  const offset = quarterOffset(zone, quarter);
  if (offset === null) return exactDayKey(date, zone);
  return new Date(ms + offset).toISOString().slice(0, 10);
}

function exactDayKey(date: Date, zone: string): string {
  const formatter = (zoneCache(zone) ?? zoneCache("UTC"))!.day;
  const parts = formatter.formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

const QUARTER_HOUR_MS = 15 * 60_000;
const DAY_MS = 86_400_000;
const QUARTERS_KEPT = 20_000;

function quarterOffset(zone: string, quarter: number): number | null {
  const entry = zoneCache(zone);
  if (!entry) return null;
  const offsets = entry.quarters;
  const cached = offsets.get(quarter);
  if (cached !== undefined) return cached;
  const start = quarter * QUARTER_HOUR_MS;
  const a = offsetAt(entry.offset, start);
  const b = offsetAt(entry.offset, start + QUARTER_HOUR_MS - 1000);
  const offset = a !== null && a === b ? a : null;
  if (offsets.size >= QUARTERS_KEPT) offsets.clear();
  offsets.set(quarter, offset);
  return offset;
}

/** Local wall time minus UTC at `ms` (whole seconds), or null if the zone cannot be read. */
function offsetAt(formatter: Intl.DateTimeFormat, ms: number): number | null {
  const fields: Record<string, number> = {};
  for (const part of formatter.formatToParts(ms)) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  const { year, month, day, hour, minute, second } = fields;
  if (
    [year, month, day, hour, minute, second].some((v) => v === undefined || !Number.isFinite(v))
  ) {
    return null;
  }
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * Calendar arithmetic on day keys. Done in UTC on purpose: a day key is already local, and UTC has no
 * daylight-saving jumps, so 23- and 25-hour days cannot skip or repeat a date.
 */
export function shiftDayKey(dayKey: string, days: number): string {
  const [y, m, d] = dayKey.split("-").map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10);
}

/**
 * Consecutive study days ending today, or ending yesterday when nothing has been studied yet today:
 * the streak is still alive until the day is over (SPEC §4 Streak).
 */
export function computeStreak(dayKeys: Iterable<string>, todayKey: string): number {
  const days = dayKeys instanceof Set ? (dayKeys as Set<string>) : new Set(dayKeys);
  let day = days.has(todayKey) ? todayKey : shiftDayKey(todayKey, -1);
  let streak = 0;
  while (days.has(day)) {
    streak++;
    day = shiftDayKey(day, -1);
  }
  return streak;
}

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

/** SPEC §3 'Local study stats', computed on the server from the review log. */
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
  /** Session starts: a started session makes its day a study day (SPEC §4) and is counted per day. */
  sessions?: readonly { startedAt: Date }[];
}

export function computeStudyStats(
  reviews: readonly Review[],
  { timeZone, now, sessions = [] }: StudyStatsOptions,
): StudyStats {
  const zone = resolveTimeZone(timeZone);
  const todayKey = localDayKey(now, zone);
  const history = new Map<string, StudyHistoryEntry>();
  const historyEntry = (date: string) => {
    let entry = history.get(date);
    if (!entry) {
      entry = { date, sessionsCount: 0, questionsStudied: 0 };
      history.set(date, entry);
    }
    return entry;
  };

  let correctAnswers = 0;
  let answeredToday = 0;
  // A Map, not an object: a category may be called anything, '__proto__' included.
  const categories = new Map<string, { total: number; correct: number }>();
  for (const review of reviews) {
    if (review.isCorrect) correctAnswers++;
    const day = localDayKey(review.reviewedAt, zone);
    historyEntry(day).questionsStudied++;
    if (day === todayKey) answeredToday++;
    const name = categoryLabel(review.category);
    const cat = categories.get(name) ?? { total: 0, correct: 0 };
    cat.total++;
    if (review.isCorrect) cat.correct++;
    categories.set(name, cat);
  }
  for (const session of sessions)
    historyEntry(localDayKey(session.startedAt, zone)).sessionsCount++;

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
    totalStudied: reviews.length,
    correctAnswers,
    incorrectAnswers: reviews.length - correctAnswers,
    masteryLevel: percent(correctAnswers, reviews.length),
    streakDays: computeStreak(pastDays, todayKey),
    lastStudyDate: pastDays.at(-1) ?? null,
    studyHistory,
    categoryPerformance,
    recentPerformance: recentPerformance(reviews),
    weakestCategories: weakest,
    strongestCategories: strongest,
    answeredToday,
  };
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
  const zone = resolveTimeZone(timeZone);
  if (!Number.isFinite(quarterStartMs) || quarterStartMs % QUARTER_HOUR_MS !== 0) return null;
  const offset = quarterOffset(zone, quarterStartMs / QUARTER_HOUR_MS);
  if (offset === null) return null;
  const dayNumber = Math.floor((quarterStartMs + offset) / DAY_MS);
  if (Math.floor((quarterStartMs + QUARTER_HOUR_MS - 1 + offset) / DAY_MS) !== dayNumber)
    return null;
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
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
  const todayKey = localDayKey(now, zone);
  const history = new Map<string, StudyHistoryEntry>();
  const add = (date: string, answered: number, sessions: number) => {
    if (answered === 0 && sessions === 0) return;
    let entry = history.get(date);
    if (!entry) {
      entry = { date, sessionsCount: 0, questionsStudied: 0 };
      history.set(date, entry);
    }
    entry.questionsStudied += answered;
    entry.sessionsCount += sessions;
  };
  // Quarters of the same day add up under one key: the key's text is built once per day.
  const dayKeys = new Map<number, string>();
  for (const q of rollups.quarters) {
    const offset = quarterOffset(zone, q.quarter / QUARTER_HOUR_MS);
    if (offset === null) continue;
    const dayNumber = Math.floor((q.quarter + offset) / DAY_MS);
    if (Math.floor((q.quarter + QUARTER_HOUR_MS - 1 + offset) / DAY_MS) !== dayNumber) continue;
    let day = dayKeys.get(dayNumber);
    if (day === undefined) {
      day = new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
      dayKeys.set(dayNumber, day);
    }
    add(day, q.answered, q.sessions);
  }
  for (const one of rollups.oneByOne ?? [])
    add(localDayKey(one.at, zone), one.answered, one.sessions);

  let totalStudied = 0;
  let correctAnswers = 0;
  const categories = new Map<string, { total: number; correct: number }>();
  for (const row of rollups.categories) {
    if (row.answered === 0) continue;
    totalStudied += row.answered;
    correctAnswers += row.correct;
    const name = categoryLabel(row.category);
    const cat = categories.get(name) ?? { total: 0, correct: 0 };
    cat.total += row.answered;
    cat.correct += row.correct;
    categories.set(name, cat);
  }
  const categoryPerformance: Record<string, CategoryPerformance> = {};
  for (const [name, { total, correct }] of categories) {
    Object.defineProperty(categoryPerformance, name, {
      value: { total, correct, accuracy: percent(correct, total) },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const studyHistory = [...history.values()].sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : 0,
  );
  const pastDays = studyHistory.map((h) => h.date).filter((d) => d <= todayKey);
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
    recentPerformance: recentPerformance(rollups.recent),
    weakestCategories: weakest,
    strongestCategories: strongest,
    answeredToday: history.get(todayKey)?.questionsStudied ?? 0,
  };
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
 * SPEC §4: the 3 lowest and 3 highest accuracies among categories with at least 5 answers. Ordered by
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

/** The Session Complete card (SPEC §2 Study): average time shown in rounded seconds. */
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

// ---------------------------------------------------------------------------------------------
// PRITE scores

export interface ScoreRecordLike {
  year: string | number;
  overallPercentile: number | null | undefined;
  psychiatryPercentile?: number | null;
  neurosciencePercentile?: number | null;
  somaPercentile?: number | null;
  growthPercentile?: number | null;
}

export const SCORE_SUBJECTS = ["overall", "psychiatry", "neuroscience", "soma", "growth"] as const;
export type ScoreSubject = (typeof SCORE_SUBJECTS)[number];

/** Labels of the summary cells and table columns (SPEC §2 Score history). */
export const SCORE_SUBJECT_LABELS: Readonly<Record<ScoreSubject, string>> = {
  overall: "Overall",
  psychiatry: "Psychiatry",
  neuroscience: "Neuroscience",
  soma: "Somatic",
  growth: "Growth",
};

export interface ScoreImprovement {
  title: string;
  fromYear: number;
  toYear: number;
  yearSpan: number;
  /** last − first per subject; null (shown as N/A) unless both endpoints are non-zero numbers. */
  changes: Record<ScoreSubject, number | null>;
}

function subjectValue(record: ScoreRecordLike, subject: ScoreSubject): number | null | undefined {
  return record[`${subject}Percentile`];
}

/**
 * The summary card of the score history: earliest year against latest (SPEC §2, §4). Null with fewer
 * than 2 records with a readable year. Records of the same year keep their given order.
 */
export function scoreImprovement(records: readonly ScoreRecordLike[]): ScoreImprovement | null {
  const dated = records
    .map((record) => ({ record, year: Number.parseInt(String(record.year), 10) }))
    .filter((r) => Number.isFinite(r.year))
    .sort((a, b) => a.year - b.year);
  const first = dated[0];
  const last = dated.at(-1);
  if (dated.length < 2 || !first || !last) return null;
  const yearSpan = last.year - first.year;
  const changes = {} as Record<ScoreSubject, number | null>;
  for (const subject of SCORE_SUBJECTS) {
    const from = subjectValue(first.record, subject);
    const to = subjectValue(last.record, subject);
    const usable = (v: number | null | undefined): v is number =>
      typeof v === "number" && Number.isFinite(v) && v !== 0;
    changes[subject] = usable(from) && usable(to) ? to - from : null;
  }
  return {
    title: yearSpan === 0 ? "Progress Since First PRITE" : `${yearSpan}-Year Improvement`,
    fromYear: first.year,
    toYear: last.year,
    yearSpan,
    changes,
  };
}

export type PercentileBand = "success" | "primary" | "warning" | "danger";

/** Colour band of a percentile (SPEC §9). */
export function percentileBand(percentile: number): PercentileBand {
  if (percentile >= PERCENTILE_BANDS.SUCCESS) return "success";
  if (percentile >= PERCENTILE_BANDS.PRIMARY) return "primary";
  if (percentile >= PERCENTILE_BANDS.WARNING) return "warning";
  return "danger";
}

/**
 * Where `value` stands in a cohort, as a rounded percent: the share of the cohort strictly below it
 * plus half the share equal to it (the usual "mid-rank" percentile, so a cohort of equals puts
 * everyone at 50 rather than at 0 or 100). The caller decides whether the user is in the cohort.
 * Null for an empty cohort; non-finite cohort values are ignored.
 */
export function percentileRank(value: number, cohortValues: readonly number[]): number | null {
  let below = 0;
  let equal = 0;
  let size = 0;
  for (const v of cohortValues) {
    if (!Number.isFinite(v)) continue;
    size++;
    if (v < value) below++;
    else if (v === value) equal++;
  }
  if (size === 0) return null;
  return Math.round(((below + equal / 2) / size) * 100);
}
