/**
 * Today's new-question limit (issue 34, docs/product/study-plan.md): the one place that decides it,
 * so the exam plan can raise it (its pace) without another reader of users.newPerDay.
 */
import { LRUCache } from "lru-cache";
import { studyDayOf } from "../../../core/srs/daily";
import { localDayKey } from "../../../core/stats/days";
import type { Db } from "../../db/client";
import type { UserRow } from "../../db/schema";
import { planPace } from "./plan.service";

/** The user columns the day's list depends on. */
export type DailyUser = Pick<
  UserRow,
  "id" | "newPerDay" | "catchUpUntil" | "timeZone" | "examDate" | "maxNewPerDay"
>;

/**
 * The exam plan's pace per user and study day (decision 379): it counts the plan's unseen bank, so it
 * is worked out once a day (or when the date or the limits change), never on every due page.
 */
const paceOfTheDay = new LRUCache<string, number>({ max: 20_000 });

/**
 * The new questions a day needs to see the plan's bank a week before the exam (examPace), or null
 * without an exam date: then nothing is read.
 */
export async function examPaceFor(db: Db, user: DailyUser, now: Date): Promise<number | null> {
  if (!user.examDate) return null;
  const key = [
    user.id,
    localDayKey(now, user.timeZone),
    user.examDate,
    user.newPerDay,
    user.maxNewPerDay,
  ].join("\u0000");
  const kept = paceOfTheDay.get(key);
  if (kept !== undefined) return kept;
  const pace = (await planPace(db, user.id, now)).perDay;
  paceOfTheDay.set(key, pace);
  return pace;
}

/** Whether a catch-up is under way at `now` (new questions paused). */
export function inCatchUp(user: Pick<UserRow, "catchUpUntil">, now: Date): boolean {
  return user.catchUpUntil !== null && user.catchUpUntil.getTime() > now.getTime();
}

/**
 * New questions the day may introduce: the user's setting, raised to the exam plan's pace when an exam
 * date is set (examPaceFor), 0 while a catch-up is under way.
 */
export function newPerDayFor(user: DailyUser, now: Date, examPace: number | null = null): number {
  if (inCatchUp(user, now)) return 0;
  return Math.max(0, user.newPerDay, examPace ?? 0);
}

/** What the due page needs from the user at `now`: today's limit and the study day's bounds. */
export function dailyInputs(
  user: DailyUser,
  now: Date,
  examPace: number | null = null,
): { newLimit: number; dayStart: Date; dayEnd: Date } {
  const day = studyDayOf(now, user.timeZone);
  const catchUpEnds = inCatchUp(user, now) ? user.catchUpUntil!.getTime() : Infinity;
  return {
    newLimit: newPerDayFor(user, now, examPace),
    dayStart: day.start,
    // The list changes at the day's end, and when a catch-up ends.
    dayEnd: new Date(Math.min(day.end.getTime(), catchUpEnds)),
  };
}
