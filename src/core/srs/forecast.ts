/**
 * The workload forecast (issue 34 item 3, docs/product/exam-plan.md): reviews per day from the due
 * dates, the new questions the pace introduces, and the reviews both generate, projected with FSRS as
 * if every review were answered right and rated Good (what is projected is said in the product doc);
 * and FSRS's predicted recall on the exam day per category. Pure: the caller passes the cards.
 *
 * Cost: each projected review is one ts-fsrs `next_state` call, memoised on a coarse grid of memory
 * states, so 10,000 cards over a year cost a few milliseconds.
 */
import { Rating } from "ts-fsrs";
import { localDayKey, resolveTimeZone } from "../stats/days";
import { cutForExamDays, DAY_MS, EXAM_LEAD_DAYS, recallAfter, startOfLocalDay } from "./exam-plan";
import {
  fsrsScheduler,
  intervalForStability,
  DEFAULT_FSRS_PARAMETERS,
  type SchedulerSettings,
} from "./fsrs";

export interface ForecastCard {
  category: string;
  /** Epoch ms; null = never studied. */
  dueAt: number | null;
  lastReviewedAt: number | null;
  /** FSRS memory (SM-2 states are mapped by the caller, `memoryFromSm2`). */
  stability: number | null;
  difficulty: number | null;
}

export interface ForecastInput {
  now: Date;
  timeZone: string;
  /** Cards the resident studies (a state exists). */
  cards: readonly ForecastCard[];
  /** Never-studied questions of the plan's bank, per category, introduced oldest first. */
  unseenByCategory: Readonly<Record<string, number>>;
  /** New questions a day from today. */
  pace: number;
  examDate: string | null;
  /** Predicted recall wanted on the exam day. */
  targetRetention: number;
  settings: SchedulerSettings;
  /** Days shown at least (30); with an exam date, up to the exam if longer (at most 400). */
  minDays?: number;
}

export interface ForecastDay {
  date: string;
  /** Reviews due that day (overdue ones count on the first day). */
  reviews: number;
  /** New questions introduced that day at the pace. */
  new: number;
}

export interface CategoryRecall {
  /** Questions of the category in the plan's bank (studied or not). */
  total: number;
  /** Of them, seen by the exam day (already studied, or introduced at the pace before it). */
  seen: number;
  /** Mean predicted recall on the exam day over the seen ones (0 when none). */
  recall: number;
  /** Seen ones whose predicted recall on the exam day is at least the target. */
  atTarget: number;
}

export interface Forecast {
  days: ForecastDay[];
  recallByCategory: Record<string, CategoryRecall>;
  /** Share of the plan's bank studied at least once today. */
  shareSeen: number;
  /** Share seen by the exam day at the pace (null without a date). */
  shareSeenByExam: number | null;
  /** What the projection assumes, in words. */
  assumptions: string;
}

const MAX_DAYS = 400;

/**
 * FSRS steps for the projection, memoised on a coarse grid of memory states (stability to 2 %,
 * difficulty to 0.25, elapsed time to 5 % of the stability): `onDue` is the interval FSRS gives a
 * memory and the memory after a Good review on that day; `good` the memory after a Good review at
 * any elapsed time.
 */
function projector(settings: SchedulerSettings) {
  const scheduler = fsrsScheduler(settings);
  const w = settings.parameters ?? DEFAULT_FSRS_PARAMETERS;
  const goodCache = new Map<number, { s: number; d: number }>();
  const dueCache = new Map<number, { ivl: number; s: number; d: number }>();
  const memoryKey = (s: number, d: number) =>
    (Math.round(Math.log(Math.max(0.01, s)) * 50) + 1000) * 64 + Math.round(d * 4);
  const good = (s: number, d: number, elapsed: number): { s: number; d: number } => {
    const key = memoryKey(s, d) * 256 + Math.round(Math.min(10, elapsed / Math.max(0.01, s)) * 20);
    let hit = goodCache.get(key);
    if (!hit) {
      const next = scheduler.next_state({ stability: s, difficulty: d }, elapsed, Rating.Good);
      hit = { s: next.stability, d: next.difficulty };
      goodCache.set(key, hit);
    }
    return hit;
  };
  const onDue = (s: number, d: number): { ivl: number; s: number; d: number } => {
    const key = memoryKey(s, d);
    let hit = dueCache.get(key);
    if (!hit) {
      const ivl = Math.min(
        settings.maximumInterval,
        intervalForStability(s, settings.desiredRetention, w),
      );
      const next = scheduler.next_state({ stability: s, difficulty: d }, ivl, Rating.Good);
      hit = { ivl, s: next.stability, d: next.difficulty };
      dueCache.set(key, hit);
    }
    return hit;
  };
  return { good, onDue };
}

export function forecast(input: ForecastInput): Forecast {
  const { settings, now } = input;
  const zone = resolveTimeZone(input.timeZone);
  const today = localDayKey(now, zone);
  const dayStart = startOfLocalDay(today, zone);
  const w = settings.parameters ?? DEFAULT_FSRS_PARAMETERS;
  const examAt = input.examDate ? startOfLocalDay(input.examDate, zone) : null;
  const examIndex = examAt === null ? null : Math.round((examAt - dayStart) / DAY_MS);
  const horizon = Math.min(
    MAX_DAYS,
    Math.max(input.minDays ?? 30, examIndex !== null && examIndex > 0 ? examIndex + 1 : 0),
  );
  const days: ForecastDay[] = Array.from({ length: horizon }, (_, i) => ({
    date: localDayKey(new Date(dayStart + i * DAY_MS + 12 * 3_600_000), zone),
    reviews: 0,
    new: 0,
  }));
  const project = projector(settings);
  const desired = settings.desiredRetention;
  const target = input.targetRetention;
  // The exam rule is FSRS's (SM-2 users see what FSRS would do only through the recall figures).
  const cutsForExam = examIndex !== null && examIndex > 0 && settings.scheduler === "fsrs";
  const recall = new Map<string, CategoryRecall>();
  const cat = (c: string) => {
    let r = recall.get(c);
    if (!r) {
      r = { total: 0, seen: 0, recall: 0, atTarget: 0 };
      recall.set(c, r);
    }
    return r;
  };

  /** A seen question's predicted recall on the exam day, from its last review before it. */
  const recordRecall = (category: string, s: number, lastT: number) => {
    const r = recallAfter(s, examIndex! - lastT, w);
    const entry = cat(category);
    entry.seen += 1;
    entry.recall += r;
    if (r >= target) entry.atTarget += 1;
  };

  /**
   * Follows one card from its last review at day index `lastT` (fractional) with memory (s, d); its
   * next review is at `firstNext` when known (the stored due date), else where FSRS puts it.
   */
  const follow = (
    category: string,
    lastT: number,
    s: number,
    d: number,
    firstNext: number | null,
    seenByExam: boolean,
  ) => {
    let recorded = !(examIndex !== null && seenByExam);
    let next = firstNext;
    for (let guard = 0; guard < 1000; guard++) {
      let after: { s: number; d: number } | null = null;
      if (next === null) {
        const due = project.onDue(s, d);
        let ivl = due.ivl;
        if (cutsForExam) ivl = cutForExamDays(ivl, s, lastT, examIndex!, target, w);
        next = lastT + ivl;
        if (ivl === due.ivl) after = due;
      }
      if (!recorded && next >= examIndex!) {
        recordRecall(category, s, lastT);
        recorded = true;
      }
      if (next >= horizon) break;
      days[Math.max(0, Math.floor(next))]!.reviews += 1;
      const m = after ?? project.good(s, d, Math.max(0, next - lastT));
      s = m.s;
      d = m.d;
      lastT = next;
      next = null;
    }
    if (!recorded) recordRecall(category, s, lastT);
  };

  let studied = 0;
  const nowIndex = (now.getTime() - dayStart) / DAY_MS;
  for (const card of input.cards) {
    cat(card.category).total += 1;
    studied += 1;
    const last = card.lastReviewedAt ?? now.getTime();
    const due = card.dueAt ?? now.getTime();
    follow(
      card.category,
      (last - dayStart) / DAY_MS,
      card.stability ?? 1,
      card.difficulty ?? 5,
      Math.max(nowIndex, (due - dayStart) / DAY_MS),
      true,
    );
  }

  // New questions at the pace, category by category in the order given (oldest first server-side).
  const firstGood = fsrsScheduler(settings).next_state(null, 0, Rating.Good);
  let unseenTotal = 0;
  let day = 0;
  let usedToday = 0;
  for (const [category, n] of Object.entries(input.unseenByCategory)) {
    cat(category).total += n;
    unseenTotal += n;
    for (let i = 0; i < n; i++) {
      if (input.pace <= 0) break;
      if (usedToday >= input.pace) {
        day += 1;
        usedToday = 0;
      }
      if (day >= horizon && (examIndex === null || day >= examIndex)) break;
      usedToday += 1;
      if (day < horizon) days[day]!.new += 1;
      const seenByExam = examIndex !== null && day < examIndex;
      follow(category, day, firstGood.stability, firstGood.difficulty, null, seenByExam);
    }
  }

  const bank = studied + unseenTotal;
  const recallByCategory: Record<string, CategoryRecall> = {};
  let seenByExam = 0;
  for (const [c, r] of [...recall].sort(([a], [b]) => a.localeCompare(b))) {
    seenByExam += r.seen;
    recallByCategory[c] = {
      total: r.total,
      seen: r.seen,
      recall: r.seen > 0 ? Math.round((r.recall / r.seen) * 1000) / 1000 : 0,
      atTarget: r.atTarget,
    };
  }
  return {
    days,
    recallByCategory,
    shareSeen: bank === 0 ? 1 : studied / bank,
    shareSeenByExam: examIndex === null ? null : bank === 0 ? 1 : seenByExam / bank,
    assumptions:
      `Every review is answered right and rated Good on its due day (FSRS, desired retention ${desired}); ` +
      `new questions are introduced at ${input.pace} a day` +
      (examIndex !== null
        ? `, all by ${EXAM_LEAD_DAYS} days before the exam when the pace allows.`
        : "."),
  };
}
