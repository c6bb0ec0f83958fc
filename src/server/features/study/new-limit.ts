/**
 * Today's new-question limit (issue 34, docs/product/study-plan.md): the one place that decides it,
 * so the exam plan can raise it (its pace) without another reader of users.newPerDay.
 */
import { studyDayOf } from "../../../core/srs/daily";
import type { UserRow } from "../../db/schema";

/** The user columns the day's list depends on. */
export type DailyUser = Pick<UserRow, "id" | "newPerDay" | "catchUpUntil" | "timeZone">;

/** Whether a catch-up is under way at `now` (new questions paused). */
export function inCatchUp(user: Pick<UserRow, "catchUpUntil">, now: Date): boolean {
  return user.catchUpUntil !== null && user.catchUpUntil.getTime() > now.getTime();
}

/** New questions the day may introduce: the user's setting, 0 while a catch-up is under way. */
export function newPerDayFor(user: DailyUser, now: Date): number {
  if (inCatchUp(user, now)) return 0;
  return Math.max(0, user.newPerDay);
}

/** What the due page needs from the user at `now`: today's limit and the study day's bounds. */
export function dailyInputs(
  user: DailyUser,
  now: Date,
): { newLimit: number; dayStart: Date; dayEnd: Date } {
  const day = studyDayOf(now, user.timeZone);
  const catchUpEnds = inCatchUp(user, now) ? user.catchUpUntil!.getTime() : Infinity;
  return {
    newLimit: newPerDayFor(user, now),
    dayStart: day.start,
    // The list changes at the day's end, and when a catch-up ends.
    dayEnd: new Date(Math.min(day.end.getTime(), catchUpEnds)),
  };
}
