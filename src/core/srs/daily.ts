/**
 * The day's study list (issue 34, docs/product/study-plan.md): how many new questions a day brings,
 * how they are interleaved with the reviews, when a question is a leech, and the study day's bounds
 * in the resident's time zone. Pure: the server's due page (SQL) and the offline copy follow these
 * rules, and their tests compare against them.
 */
import { localDayKey, resolveTimeZone, shiftDayKey } from "../stats/days";

export const NEW_PER_DAY = { DEFAULT: 20, MIN: 0, MAX: 500 } as const;
export const LEECH_THRESHOLD = { DEFAULT: 8, MIN: 1, MAX: 99 } as const;

/** New slots left today: the limit less the questions already introduced today (never below 0). */
export function newSlotsToday(limit: number, introducedToday: number): number {
  return Math.max(0, Math.floor(limit) - Math.max(0, introducedToday));
}

export interface NewPoolSizes {
  /** The resident's own never-studied questions written or captured by hand today. */
  handWrittenToday: number;
  /** Their other own never-studied questions. */
  ownOlder: number;
  /** Never-studied public questions of others in the pool (the newest 20 at most). */
  publicNew: number;
}

export interface NewTake {
  handWritten: number;
  own: number;
  public: number;
  total: number;
}

/**
 * Which new questions today's list takes (decision 370): every question written by hand today (they
 * use the day's slots first and go past the limit when there are more of them), then the remaining
 * slots from the resident's own bank oldest first, then from the public pick.
 */
export function takeNew(slots: number, pool: NewPoolSizes): NewTake {
  const handWritten = Math.max(0, pool.handWrittenToday);
  const own = Math.min(Math.max(0, pool.ownOlder), Math.max(0, slots - handWritten));
  const pub = Math.min(Math.max(0, pool.publicNew), Math.max(0, slots - handWritten - own));
  return { handWritten, own, public: pub, total: handWritten + own + pub };
}

/**
 * Reviews and new questions interleaved evenly (decision 370): review i (1-based) of R sits at
 * i/(R+1), new question j of N at j/(N+1), and the list is in that order, a review first on a tie.
 * The due page's SQL orders by the same keys.
 */
export function interleave<T>(reviews: readonly T[], fresh: readonly T[]): T[] {
  const r = reviews.length;
  const n = fresh.length;
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < r || j < n) {
    if (j >= n) out.push(reviews[i++]!);
    else if (i >= r) out.push(fresh[j++]!);
    // (i+1)/(r+1) <= (j+1)/(n+1), in integers.
    else if ((i + 1) * (n + 1) <= (j + 1) * (r + 1)) out.push(reviews[i++]!);
    else out.push(fresh[j++]!);
  }
  return out;
}

/**
 * The leech rule (decision 372): the failure that brings a question's lapses to the threshold marks it;
 * the mark stays (raising the threshold later does not clear it) until the resident resets the question.
 */
export function isLeechAfter(
  before: { lapses: number; leech: boolean },
  lapsesAfter: number,
  threshold: number,
): boolean {
  return before.leech || (lapsesAfter > before.lapses && lapsesAfter >= threshold);
}

const DAY_MS = 86_400_000;

/** Day starts already found, by zone and day: every due page and summary asks for today's twice. */
const dayStarts = new Map<string, number>();
const DAY_STARTS_KEPT = 4096;

/** The instant the local calendar day `dayKey` starts in `timeZone` (first millisecond of it). */
export function dayStartMs(dayKey: string, timeZone: string): number {
  const zone = resolveTimeZone(timeZone);
  const cacheKey = `${zone}\u0000${dayKey}`;
  const known = dayStarts.get(cacheKey);
  if (known !== undefined) return known;
  const utcMidnight = Date.parse(`${dayKey}T00:00:00Z`);
  // Every offset in use lies within ±15 hours: the day starts somewhere in this window.
  let lo = utcMidnight - 15 * 3_600_000;
  let hi = utcMidnight + 15 * 3_600_000;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDayKey(new Date(mid), zone) >= dayKey) hi = mid;
    else lo = mid;
  }
  // A malformed key gives NaN, which is not worth keeping.
  if (Number.isFinite(hi)) {
    if (dayStarts.size >= DAY_STARTS_KEPT) dayStarts.clear();
    dayStarts.set(cacheKey, hi);
  }
  return hi;
}

/** The resident's study day around `now`: its start and the next day's start, in their zone. */
export function studyDayOf(now: Date, timeZone: string): { key: string; start: Date; end: Date } {
  const key = localDayKey(now, timeZone);
  const start = dayStartMs(key, timeZone);
  const end = dayStartMs(shiftDayKey(key, 1), timeZone);
  return { key, start: new Date(start), end: new Date(end > start ? end : start + DAY_MS) };
}
