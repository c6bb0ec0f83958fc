/**
 * Catch-up after time away (issue 34, decision 371): when the overdue reviews are more than three days
 * of reviews, they are spread over the days the resident picks, most at risk of being forgotten first.
 * Only due dates move: the memory state (stability, ease, interval, lapses) stays as it is. Pure.
 */
import type { StudyState } from "./index";
import { DEFAULT_FSRS_PARAMETERS, retrievability } from "./fsrs";
import { dayStartMs } from "./daily";
import { localDayKey, shiftDayKey } from "../stats/days";

/** A day of reviews is never taken as fewer than this many (a new resident has no history). */
export const DAY_OF_REVIEWS_FLOOR = 20;
/** A backlog larger than this many days of reviews is offered a catch-up. */
export const CATCH_UP_OVER_DAYS = 3;
export const CATCH_UP_DAYS = { MIN: 2, MAX: 30, DEFAULT: 7 } as const;

const DAY_MS = 86_400_000;

/**
 * "A day of reviews" (decision 371): the answers the resident gave per day they studied over the last
 * 30 days, at least DAY_OF_REVIEWS_FLOOR.
 */
export function dayOfReviews(answersLast30Days: number, studyDaysLast30Days: number): number {
  const mean = studyDaysLast30Days > 0 ? answersLast30Days / studyDaysLast30Days : 0;
  return Math.max(DAY_OF_REVIEWS_FLOOR, Math.round(mean));
}

export function catchUpOffered(backlog: number, perDay: number): boolean {
  return backlog > CATCH_UP_OVER_DAYS * perDay;
}

/**
 * The predicted recall of a studied question now. FSRS: its retrievability from the stability and
 * the days since the last review. SM-2 (no stability): the same forgetting curve with the interval as
 * the stability, since both name the time at which recall has fallen to 90% (decision 371). A state
 * with nothing to go on is taken as forgotten (0).
 */
export function recallNow(
  state: Pick<StudyState, "stability" | "intervalDays" | "lastReviewedAt" | "dueAt">,
  now: Date,
  parameters: readonly number[] | null = null,
): number {
  const last =
    state.lastReviewedAt?.getTime() ??
    (state.dueAt ? state.dueAt.getTime() - state.intervalDays * DAY_MS : null);
  if (last === null) return 0;
  const elapsed = Math.max(0, (now.getTime() - last) / DAY_MS);
  const fsrs = state.stability != null && state.stability > 0;
  const stability = fsrs ? state.stability! : Math.max(1, state.intervalDays);
  return retrievability(
    stability,
    elapsed,
    fsrs ? (parameters ?? DEFAULT_FSRS_PARAMETERS) : DEFAULT_FSRS_PARAMETERS,
  );
}

export interface CatchUpCard {
  id: string;
  recall: number;
}

/**
 * The day (0 = today … days-1) of each overdue question: lowest recall first, the backlog cut into
 * `days` shares that differ by at most one question, earlier days first.
 */
export function planCatchUp(
  cards: readonly CatchUpCard[],
  days: number,
): { id: string; day: number; rank: number }[] {
  const n = cards.length;
  const d = Math.max(1, Math.floor(days));
  const sorted = [...cards].sort(
    (a, b) => a.recall - b.recall || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const out: { id: string; day: number; rank: number }[] = [];
  let day = -1;
  let rank = 0;
  sorted.forEach((card, k) => {
    const dk = Math.floor((k * d) / Math.max(1, n));
    if (dk !== day) {
      day = dk;
      rank = 0;
    }
    out.push({ id: card.id, day: dk, rank: rank++ });
  });
  return out;
}

/**
 * The new due date of each planned question: today's share stays due now (in risk order, a
 * millisecond apart), day k's share falls due at the start of that local day (in risk order).
 */
export function catchUpDueDates(
  plan: readonly { id: string; day: number; rank: number }[],
  now: Date,
  timeZone: string,
): Map<string, Date> {
  const today = localDayKey(now, timeZone);
  const todayCount = plan.filter((p) => p.day === 0).length;
  const starts = new Map<number, number>();
  const out = new Map<string, Date>();
  for (const p of plan) {
    if (p.day === 0) {
      out.set(p.id, new Date(now.getTime() - (todayCount - p.rank)));
      continue;
    }
    let start = starts.get(p.day);
    if (start === undefined) {
      start = dayStartMs(shiftDayKey(today, p.day), timeZone);
      starts.set(p.day, start);
    }
    out.set(p.id, new Date(start + p.rank));
  }
  return out;
}

/** When the catch-up ends (new questions come back): the start of the local day after its last day. */
export function catchUpEnd(now: Date, days: number, timeZone: string): Date {
  return new Date(dayStartMs(shiftDayKey(localDayKey(now, timeZone), Math.max(1, days)), timeZone));
}
