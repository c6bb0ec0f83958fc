import { eq, sql } from "drizzle-orm";
import { computeStudyStats, type StudyStats } from "../../../core/stats";
import type { Db } from "../../db/client";
import { studySessions, users } from "../../db/schema";
import { answerCountsByUser, answerLog } from "./answer-log";
import { rankingSince, rankings, type ComparativeData } from "./stats.service";

/*
 * The reference: the dashboard's statistics and the rankings as they were computed before issue 20,
 * from the whole review log on every request. Nothing serves these any more; the tests hold the kept
 * figures (decision 220) to them (stats-rollups.test.ts) and bench/stats-bench.ts measures them as the
 * same-run baseline.
 */

/** computeStudyStats over the user's whole log and sessions. */
export async function studyStatsFromLog(
  db: Db,
  opts: { userId: string; timeZone: string; now: Date },
): Promise<StudyStats> {
  const log = await answerLog(db, opts.userId);
  const sessions = await db
    .select({ startedAt: studySessions.startedAt })
    .from(studySessions)
    .where(eq(studySessions.userId, opts.userId));
  return computeStudyStats(log, { timeZone: opts.timeZone, now: opts.now, sessions });
}

/** The rankings from answerCountsByUser over the cohort, all-time and since a week. */
export async function comparativeFromLog(
  db: Db,
  opts: { userId: string; pgyLevel: string; now: Date },
): Promise<ComparativeData> {
  const since = rankingSince(opts.now);
  const cohort = (from: Date | null) =>
    answerCountsByUser(db, {
      who: sql`(${users.shareUsageData} or ${users.id} = ${opts.userId})`,
      since: from,
    });
  return rankings({ ...opts, since, allTime: await cohort(null), week: await cohort(since) });
}
