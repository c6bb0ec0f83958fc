/**
 * The exam plan (issue 34, docs/product/exam-plan.md): scheduling toward the resident's PRITE date,
 * the new-question pace that covers the chosen bank a week before it, and where a review lands among
 * the days its interval allows (load balancing, easy days). Pure and isomorphic: the server, the
 * offline copy and the CLI use the same rules. The caller passes the clock and the day loads.
 *
 * Recall on a day is FSRS's retrievability, computed by ts-fsrs's own forgetting curve
 * (`forgetting_curve`), never a hand-written copy of it (decision 376).
 */
import { forgetting_curve, get_fuzz_range } from "ts-fsrs";
import { localDayKey, resolveTimeZone } from "../stats/days";
import { DEFAULT_FSRS_PARAMETERS, type ExamTarget, type SchedulerSettings } from "./fsrs";
import type { StudyState } from "./index";

export const DAY_MS = 86_400_000;
/** New questions should all have been seen this many days before the exam. */
export const EXAM_LEAD_DAYS = 7;
/** An easy day takes this share of a normal day's reviews (Anki's "reduced" easy day is 50 %). */
export const EASY_DAY_CAPACITY = 0.5;
/** Intervals shorter than this are never moved (Anki's balancer leaves them alone too). */
export const MIN_BALANCED_INTERVAL = 3;
export const DEFAULT_EXAM_TARGET = 0.9;
export const MIN_EXAM_TARGET = 0.7;
export const MAX_EXAM_TARGET = 0.99;

export type { ExamTarget };

/** FSRS's predicted recall `elapsedDays` after the last review of a card of `stability` (ts-fsrs). */
export function recallAfter(
  stability: number,
  elapsedDays: number,
  parameters: readonly number[] | null = null,
): number {
  return forgetting_curve(
    parameters ?? DEFAULT_FSRS_PARAMETERS,
    Math.max(0, elapsedDays),
    Math.max(0.01, stability),
  );
}

/** Whole days d ≥ 1 with `now + d days` still before the exam; 0 when none is. */
export function lastDayBeforeExam(now: number, examAt: number): number {
  const days = (examAt - now) / DAY_MS;
  return Math.max(0, Math.ceil(days) - 1);
}

/**
 * Whether a card left alone from `now` with `stability` would be below the target on the exam day,
 * i.e. it needs a review before the exam.
 */
export function needsReviewBeforeExam(
  stability: number,
  now: number,
  exam: ExamTarget,
  parameters: readonly number[] | null,
): boolean {
  if (exam.at <= now) return false;
  return recallAfter(stability, (exam.at - now) / DAY_MS, parameters) < exam.targetRetention;
}

/**
 * The exam rule for an FSRS state just scheduled at `now`: an interval that would jump past the exam
 * while the predicted recall on the exam day is under the target is cut, so the next review lands on
 * the last day before the exam. Never lengthens an interval; SM-2 states and states with no stability
 * pass through (the exam plan needs FSRS's memory model).
 */
export function cutForExam(state: StudyState, now: Date, settings: SchedulerSettings): StudyState {
  const exam = settings.exam;
  if (!exam || settings.scheduler !== "fsrs" || state.stability == null) return state;
  const t = now.getTime();
  const last = lastDayBeforeExam(t, exam.at);
  if (last < 1 || state.intervalDays <= last) return state;
  if (!needsReviewBeforeExam(state.stability, t, exam, settings.parameters)) return state;
  return { ...state, intervalDays: last, dueAt: new Date(t + last * DAY_MS) };
}

/**
 * The same rule on day indices (the forecast's projection): a review at day `lastT` with stability
 * `s` whose interval `ivl` would pass the exam (day `examIndex`) while recall then is under `target`
 * comes back on the last whole day before the exam instead.
 */
export function cutForExamDays(
  ivl: number,
  s: number,
  lastT: number,
  examIndex: number,
  target: number,
  parameters: readonly number[] | null,
): number {
  if (lastT + ivl < examIndex) return ivl;
  const last = Math.ceil(examIndex - lastT) - 1;
  if (last < 1 || ivl <= last) return ivl;
  if (recallAfter(s, examIndex - lastT, parameters) >= target) return ivl;
  return last;
}

export type PlacementPlan = NonNullable<SchedulerSettings["placement"]>;

/**
 * The days (from `now`) a review scheduled `intervalDays` out may land on: FSRS's fuzz range
 * (ts-fsrs `get_fuzz_range`, the same as Anki's), never past the exam when the exam needs a review
 * before it, never past the maximum interval. Short intervals stay exact.
 */
export function allowedDays(
  state: StudyState,
  now: Date,
  elapsedDays: number,
  settings: SchedulerSettings,
): { min: number; max: number } {
  const interval = state.intervalDays;
  if (interval < MIN_BALANCED_INTERVAL) return { min: interval, max: interval };
  const range = get_fuzz_range(interval, Math.max(0, elapsedDays), settings.maximumInterval);
  let min = Math.max(1, Math.min(range.min_ivl, interval));
  let max = Math.min(settings.maximumInterval, Math.max(range.max_ivl, interval));
  const exam = settings.exam;
  if (exam && settings.scheduler === "fsrs" && state.stability != null) {
    const t = now.getTime();
    const last = lastDayBeforeExam(t, exam.at);
    if (last >= 1 && needsReviewBeforeExam(state.stability, t, exam, settings.parameters)) {
      max = Math.min(max, last);
      min = Math.min(min, max);
    }
  }
  return { min, max };
}

/** Weekday (0 = Sunday) of a 'YYYY-MM-DD' key. */
export function weekdayOf(dayKey: string): number {
  return new Date(`${dayKey}T12:00:00Z`).getUTCDay();
}

/**
 * Where a just-scheduled review lands (issue 34 item 4): among the allowed days, the one with the
 * fewest reviews already due, an easy day counting as fuller (its load divided by
 * EASY_DAY_CAPACITY, plus one empty slot, so an empty easy day is still heavier than an empty normal
 * day). Ties go to the day closest to the scheduler's own interval, then the earlier one.
 * Deterministic: the same loads give the same day on the server and in the offline copy.
 * With load balancing and easy days both off the state is returned unchanged.
 */
export function placeReview(
  state: StudyState,
  now: Date,
  elapsedDays: number,
  settings: SchedulerSettings,
  plan: PlacementPlan,
  loadOf: (dayKey: string) => number,
): StudyState {
  if (!plan.loadBalance && plan.easyDays.length === 0) return state;
  const { min, max } = allowedDays(state, now, elapsedDays, settings);
  if (min === max && min === state.intervalDays) return state;
  const zone = resolveTimeZone(plan.timeZone);
  const easy = new Set(plan.easyDays);
  let best = state.intervalDays;
  let bestCost = Infinity;
  for (let d = min; d <= max; d++) {
    const key = localDayKey(new Date(now.getTime() + d * DAY_MS), zone);
    const load = plan.loadBalance ? loadOf(key) : 0;
    const cost = easy.has(weekdayOf(key)) ? (load + 1) / EASY_DAY_CAPACITY : load + 1;
    const better =
      cost < bestCost ||
      (cost === bestCost &&
        (Math.abs(d - state.intervalDays) < Math.abs(best - state.intervalDays) ||
          (Math.abs(d - state.intervalDays) === Math.abs(best - state.intervalDays) && d < best)));
    if (better) {
      best = d;
      bestCost = cost;
    }
  }
  if (best === state.intervalDays) return state;
  return { ...state, intervalDays: best, dueAt: new Date(now.getTime() + best * DAY_MS) };
}

/** Whole calendar days from `from` to `to` ('YYYY-MM-DD' keys). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

export function addDaysToKey(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The first instant of calendar day `dayKey` in `timeZone` (epoch ms). */
export function startOfLocalDay(dayKey: string, timeZone: string): number {
  const zone = resolveTimeZone(timeZone);
  // Local midnight lies within 14 hours either side of UTC midnight; offsets change on quarter hours.
  const utcMidnight = Date.parse(`${dayKey}T00:00:00Z`);
  let lo = utcMidnight - 15 * 3_600_000;
  let hi = utcMidnight + 15 * 3_600_000;
  // The day's key is monotonic in time: binary search for the first quarter hour inside `dayKey`.
  const q = 15 * 60_000;
  while (hi - lo > q) {
    const mid = lo + Math.floor((hi - lo) / 2 / q) * q;
    if (localDayKey(new Date(mid), zone) < dayKey) lo = mid;
    else hi = mid;
  }
  return hi;
}

export interface PaceInput {
  /** Questions of the chosen bank never studied yet. */
  unseen: number;
  /** Today, in the resident's time zone ('YYYY-MM-DD'). */
  today: string;
  examDate: string | null;
  /** The resident's own new-per-day limit: the pace never goes under it. */
  newPerDay: number;
  maxNewPerDay: number;
}

export interface Pace {
  /** New questions a day to introduce from today. */
  perDay: number;
  /** Days left to introduce them (today up to a week before the exam); null without a date. */
  daysLeft: number | null;
  /** New questions a day needed to see the whole bank a week before the exam (null without a date). */
  needed: number | null;
  /** Whether the bank is covered in time at `perDay`. */
  covered: boolean;
  /** When not covered: the earliest exam date the maximum would cover. */
  coveringExamDate: string | null;
  /** Plain words for the plan. */
  message: string;
}

/**
 * The new-question pace (issue 34 item 2): the resident's own limit, raised to what sees the whole
 * chosen bank by a week before the exam, but never above the daily maximum. Says plainly when the
 * bank cannot be covered at that maximum and what would cover it.
 */
export function examPace(input: PaceInput): Pace {
  const { unseen, today, examDate, newPerDay } = input;
  const max = Math.max(newPerDay, input.maxNewPerDay);
  if (!examDate) {
    return {
      perDay: newPerDay,
      daysLeft: null,
      needed: null,
      covered: true,
      coveringExamDate: null,
      message: `${newPerDay} new questions a day (no exam date set).`,
    };
  }
  const daysLeft = Math.max(0, daysBetween(today, examDate) - EXAM_LEAD_DAYS);
  if (unseen === 0) {
    return {
      perDay: newPerDay,
      daysLeft,
      needed: 0,
      covered: true,
      coveringExamDate: null,
      message: "Every question of the plan's bank has been seen.",
    };
  }
  const needed = daysLeft > 0 ? Math.ceil(unseen / daysLeft) : unseen;
  const perDay = Math.min(max, Math.max(newPerDay, needed));
  const covered = daysLeft > 0 && needed <= max;
  if (covered) {
    return {
      perDay,
      daysLeft,
      needed,
      covered,
      coveringExamDate: null,
      message: `${perDay} new questions a day see all ${unseen} unseen questions by ${addDaysToKey(examDate, -EXAM_LEAD_DAYS)}, a week before the exam.`,
    };
  }
  const daysAtMax = Math.ceil(unseen / Math.max(1, max));
  const coveringExamDate = addDaysToKey(today, daysAtMax + EXAM_LEAD_DAYS);
  const message =
    daysLeft > 0
      ? `The bank cannot be covered in time: ${unseen} unseen questions in ${daysLeft} days need ${needed} a day, over your maximum of ${max}. Raise the maximum to ${needed}, narrow the plan's categories, or an exam on ${coveringExamDate} would be covered at ${max} a day.`
      : `The bank cannot be covered in time: fewer than ${EXAM_LEAD_DAYS} days are left before the exam. At ${max} a day, the ${unseen} unseen questions would take ${daysAtMax} days.`;
  return { perDay, daysLeft, needed, covered, coveringExamDate, message };
}

/** Whether placing reviews can move anything under these settings. */
export function placesReviews(settings: SchedulerSettings): boolean {
  const p = settings.placement;
  return !!p && (p.loadBalance || p.easyDays.length > 0);
}

/**
 * A live review's landing day (a rating, a flashcard's rating, an answer synced from offline): the
 * state the scheduler gave (`after`, from `before` at `now`) placed among its allowed days by the
 * loads the caller knows (the server's due counts, or the offline copy's). Only the interval of the
 * review just given moves: nothing already scheduled is touched (switching either setting reschedules
 * nothing retroactively).
 */
export function placeAfterReview(
  before: StudyState,
  after: StudyState,
  now: Date,
  settings: SchedulerSettings,
  loadOf: (dayKey: string) => number,
): StudyState {
  if (!placesReviews(settings) || after.lastReviewedAt?.getTime() !== now.getTime()) return after;
  if (
    after.dueAt === null ||
    after.dueAt.getTime() !== now.getTime() + after.intervalDays * DAY_MS
  ) {
    return after;
  }
  const elapsed = before.lastReviewedAt
    ? Math.max(0, Math.floor((now.getTime() - before.lastReviewedAt.getTime()) / DAY_MS))
    : 0;
  return placeReview(after, now, elapsed, settings, settings.placement!, loadOf);
}

/** The window of days (from `now`) whose loads `placeAfterReview` may read for a state. */
export function placementWindow(
  before: StudyState,
  after: StudyState,
  now: Date,
  settings: SchedulerSettings,
): { from: Date; to: Date } | null {
  if (!placesReviews(settings) || after.intervalDays < MIN_BALANCED_INTERVAL) return null;
  const elapsed = before.lastReviewedAt
    ? Math.max(0, Math.floor((now.getTime() - before.lastReviewedAt.getTime()) / DAY_MS))
    : 0;
  const { min, max } = allowedDays(after, now, elapsed, settings);
  // A day either side: local days do not start at the review's clock time.
  return {
    from: new Date(now.getTime() + (min - 1) * DAY_MS),
    to: new Date(now.getTime() + (max + 1) * DAY_MS),
  };
}
