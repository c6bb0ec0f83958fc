/**
 * Settings > Study (issue 19): the user's scheduler, switching without losing history, and fitting
 * FSRS parameters to their own review log.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Difficulty } from "../../../core/constants";
import type { TSchedulerInput } from "../../../core/schemas/study";
import {
  parameterProblem,
  type SchedulerName,
  type SchedulerSettings,
} from "../../../core/srs/fsrs";
import { replayReviews, type ReplayReview } from "../../../core/srs/replay";
import type { Db } from "../../db/client";
import { reviews, users } from "../../db/schema";
import { badRequest } from "../../errors";
import {
  MIN_REVIEWS_TO_OPTIMIZE,
  NOT_ENOUGH_REVIEWS,
  optimizeParameters,
  type LogReview,
  type Metrics,
} from "./fsrs-optimizer";
import { afterReset, saveReplayedStates, schedulerSettings } from "./study-writer.service";

export interface SchedulerJson {
  scheduler: SchedulerName;
  desiredRetention: number;
  maximumInterval: number;
  /** Whether FSRS uses parameters fitted to this user's reviews (else the defaults). */
  customParameters: boolean;
  parameters: number[] | null;
  reviewCount: number;
  canOptimize: boolean;
  minReviewsToOptimize: number;
}

async function reviewCount(tx: Db, userId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(reviews)
    .where(eq(reviews.userId, userId));
  return row?.n ?? 0;
}

export async function getScheduler(db: Db, userId: string): Promise<SchedulerJson> {
  const settings = await schedulerSettings(db, userId);
  const n = await reviewCount(db, userId);
  return {
    scheduler: settings.scheduler,
    desiredRetention: settings.desiredRetention,
    maximumInterval: settings.maximumInterval,
    customParameters: settings.parameters !== null,
    parameters: settings.parameters ? [...settings.parameters] : null,
    reviewCount: n,
    canOptimize: n >= MIN_REVIEWS_TO_OPTIMIZE,
    minReviewsToOptimize: MIN_REVIEWS_TO_OPTIMIZE,
  };
}

/** The user's review log, oldest first (ties by id, the order they were written). */
export async function reviewLog(tx: Db, userId: string): Promise<LogReview[]> {
  const rows = await tx
    .select({
      questionId: reviews.questionId,
      isCorrect: reviews.isCorrect,
      difficulty: reviews.difficulty,
      reviewedAt: reviews.reviewedAt,
    })
    .from(reviews)
    .where(and(eq(reviews.userId, userId), afterReset(userId)))
    .orderBy(asc(reviews.reviewedAt), asc(reviews.id));
  return rows.map((r) => ({ ...r, difficulty: r.difficulty as Difficulty | null }));
}

/**
 * Every studied card's state rebuilt from the review log with `settings` (decision 132): no card goes
 * back to new, the pending answer (if any) stays pending. Call inside the transaction that changed
 * the settings. Returns how many cards were rescheduled.
 */
export async function rescheduleFromLog(
  tx: Db,
  userId: string,
  settings: SchedulerSettings,
): Promise<number> {
  const byCard = new Map<string, ReplayReview[]>();
  for (const r of await reviewLog(tx, userId)) {
    const list = byCard.get(r.questionId) ?? [];
    list.push(r);
    byCard.set(r.questionId, list);
  }
  const states = new Map([...byCard].map(([q, log]) => [q, replayReviews(log, settings)]));
  await saveReplayedStates(tx, userId, states);
  return states.size;
}

/**
 * Changes the scheduler or its settings in one transaction; any change reschedules every studied card
 * from the review log, so the stored states are always what the log gives under the current settings.
 */
export async function updateScheduler(
  db: Db,
  userId: string,
  input: TSchedulerInput,
): Promise<SchedulerJson & { rescheduled: number }> {
  const rescheduled = await db.transaction(async (tx) => {
    // Row lock: two switches at once would otherwise interleave their rewrites.
    await tx.execute(sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
    const before = await schedulerSettings(tx, userId);
    const after: SchedulerSettings = {
      ...before,
      ...(input.scheduler !== undefined && { scheduler: input.scheduler }),
      ...(input.desiredRetention !== undefined && { desiredRetention: input.desiredRetention }),
      ...(input.maximumInterval !== undefined && { maximumInterval: input.maximumInterval }),
    };
    const changed =
      after.scheduler !== before.scheduler ||
      after.maximumInterval !== before.maximumInterval ||
      (after.scheduler === "fsrs" && after.desiredRetention !== before.desiredRetention);
    await tx
      .update(users)
      .set({
        scheduler: after.scheduler,
        desiredRetention: after.desiredRetention,
        maximumInterval: after.maximumInterval,
      })
      .where(eq(users.id, userId));
    return changed ? rescheduleFromLog(tx, userId, after) : 0;
  });
  return { ...(await getScheduler(db, userId)), rescheduled };
}

export interface OptimizeJson {
  reviewCount: number;
  before: Metrics;
  defaults: Metrics;
  after: Metrics;
  parameters: number[];
  rescheduled: number;
  /** Why nothing was stored: the optimizer kept FSRS's defaults (issue 31); null after a fit. */
  keptDefaults: string | null;
}

/**
 * "Optimize": fits FSRS parameters to the user's whole review log (off the request thread), stores
 * them once validated, and reschedules under FSRS. Refused under 400 reviews. When the optimizer keeps
 * FSRS's defaults nothing is stored or rescheduled, and the answer says why (decision 281).
 */
export async function optimizeForUser(db: Db, userId: string): Promise<OptimizeJson> {
  const log = await reviewLog(db, userId);
  if (log.length < MIN_REVIEWS_TO_OPTIMIZE) throw badRequest(NOT_ENOUGH_REVIEWS);
  const current = (await schedulerSettings(db, userId)).parameters;
  let result;
  try {
    result = await optimizeParameters(log, current);
  } catch (error) {
    throw badRequest((error as Error).message);
  }
  if (result.keptDefaults) return { ...result, rescheduled: 0 };
  return saveParameters(db, userId, result.parameters, result);
}

/** Stores a validated parameter set and reschedules under it when FSRS is in use. */
export async function saveParameters(
  db: Db,
  userId: string,
  parameters: readonly number[],
  metrics: { reviewCount: number; before: Metrics; defaults: Metrics; after: Metrics },
): Promise<OptimizeJson> {
  const problem = parameterProblem(parameters);
  if (problem) throw badRequest(problem);
  const rescheduled = await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ fsrsParameters: [...parameters] })
      .where(eq(users.id, userId));
    const settings = await schedulerSettings(tx, userId);
    return settings.scheduler === "fsrs" ? rescheduleFromLog(tx, userId, settings) : 0;
  });
  return { ...metrics, parameters: [...parameters], rescheduled, keptDefaults: null };
}
