/**
 * Where a live review lands among the days its interval allows (issue 34: load balancing and easy
 * days, docs/product/exam-plan.md): it reads the user's due loads and writes nothing; the study writer
 * saves the placed state.
 */
import { sql } from "drizzle-orm";
import type { StudyState } from "../../../core/srs";
import type { SchedulerSettings } from "../../../core/srs/fsrs";
import { placeAfterReview, placementWindow } from "../../../core/srs/exam-plan";
import type { Db } from "../../db/client";
import { queryRowsNamed } from "../../db/raw";
/**
 * Reviews due per local day in [from, to) for the user, other than `exceptQuestion`: the loads the
 * load balancer reads. Only states the daily list can show count (not leeches, not questions the
 * user can no longer see), so the count is one range of the due-order index (decision 431).
 */
export async function dueLoads(
  tx: Db,
  userId: string,
  window: { from: Date; to: Date },
  timeZone: string,
  exceptQuestion: string | null,
): Promise<Map<string, number>> {
  const list = await queryRowsNamed<{ day: string; n: number }>(
    tx,
    sql`
    SELECT to_char(due_at AT TIME ZONE ${timeZone}::text, 'YYYY-MM-DD') AS day, count(*)::int AS n
    FROM study_states
    WHERE user_id = ${userId}::uuid AND available AND NOT leech
      AND due_at >= ${window.from.toISOString()}::timestamptz
      AND due_at < ${window.to.toISOString()}::timestamptz
      AND question_id IS DISTINCT FROM ${exceptQuestion}::uuid
    GROUP BY 1`,
  );
  return new Map(list.map((r) => [r.day, Number(r.n)]));
}

/**
 * A live review's state placed among its allowed days by the user's current loads (load balancing
 * and easy days, exam-plan.ts `placeAfterReview`); unchanged when neither is on.
 */
export async function placeLive(
  tx: Db,
  userId: string,
  questionId: string,
  before: StudyState,
  after: StudyState,
  now: Date,
  settings: SchedulerSettings,
): Promise<StudyState> {
  const window = placementWindow(before, after, now, settings);
  if (!window) return after;
  const loads = await dueLoads(tx, userId, window, settings.placement!.timeZone, questionId);
  return placeAfterReview(before, after, now, settings, (day) => loads.get(day) ?? 0);
}
