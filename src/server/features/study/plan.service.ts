/**
 * The exam plan (issue 34, docs/product/exam-plan.md): Settings > Study's exam date, target, daily
 * maximum, plan categories, load balancing and easy days (`setPlan`), and the plan itself: the
 * new-question pace (`examPace`) and the forecast (`forecast`), both pure in src/core.
 *
 * Cost (decisions 377, 395): two queries, one over the user's study states joined to their questions
 * (aggregated into one row, plan-cards.ts) and one counting the plan's unseen questions per category;
 * the projection runs in memory.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { MAX_EXAM_DAYS, PLAN_MESSAGES, type TPlanInput } from "../../../core/schemas/plan";
import { examPace, type Pace } from "../../../core/srs/exam-plan";
import { forecast, type Forecast } from "../../../core/srs/forecast";
import type { SchedulerName } from "../../../core/srs/fsrs";
import { localDayKey, resolveTimeZone } from "../../../core/stats/days";
import type { Db } from "../../db/client";
import { questions, studyStates, users } from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import { visibleTo } from "../questions/question-json";
import { userVersion } from "../../db/user-versions";
import { studiedCards } from "./plan-cards";
import { planReadCacheOf, planReadKey, type PlanRead, type PlanReadCache } from "./plan-read-cache";
import { schedulerSettings } from "./study-writer.service";

export interface PlanSettingsJson {
  examDate: string | null;
  examTargetRetention: number;
  newPerDay: number;
  maxNewPerDay: number;
  planCategories: string[];
  loadBalance: boolean;
  easyDays: number[];
  scheduler: SchedulerName;
  timeZone: string;
}

export interface PlanJson extends Forecast {
  settings: PlanSettingsJson;
  pace: Pace;
  /** Questions in the plan's bank, and of them never studied. */
  bank: { total: number; unseen: number };
  /** Shown to SM-2 users with an exam date: the exam rule needs FSRS. */
  switchToFsrs: string | null;
}

export const SWITCH_TO_FSRS =
  "The exam date schedules with FSRS: it predicts each question's recall on the exam day and brings a review forward when that recall would be under your target. SM-2 has no model of recall, so with SM-2 the date only sets the new-question pace. Switch to FSRS under Scheduler to use it; your review history is kept and replayed.";

async function planSettings(db: Db, userId: string): Promise<PlanSettingsJson> {
  const [row] = await db
    .select({
      examDate: users.examDate,
      examTargetRetention: users.examTargetRetention,
      newPerDay: users.newPerDay,
      maxNewPerDay: users.maxNewPerDay,
      planCategories: users.planCategories,
      loadBalance: users.loadBalance,
      easyDays: users.easyDays,
      scheduler: users.scheduler,
      timeZone: users.timeZone,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw notFound("User not found");
  return {
    ...row,
    planCategories: [...row.planCategories],
    easyDays: [...row.easyDays],
    scheduler: row.scheduler === "fsrs" ? "fsrs" : "sm2",
    timeZone: resolveTimeZone(row.timeZone),
  };
}

/** Never-studied questions of the plan's bank visible to the user, per category. */
export async function unseenByCategory(
  db: Db,
  userId: string,
  categories: readonly string[],
): Promise<Record<string, number>> {
  const rows = await db
    .select({ category: questions.category, n: sql<number>`count(*)::int` })
    .from(questions)
    .leftJoin(
      studyStates,
      and(eq(studyStates.questionId, questions.id), eq(studyStates.userId, userId)),
    )
    .where(
      and(
        visibleTo(userId),
        isNull(studyStates.questionId),
        categories.length > 0 ? inArray(questions.category, [...categories]) : undefined,
      ),
    )
    .groupBy(questions.category)
    .orderBy(questions.category);
  return Object.fromEntries(rows.map((r) => [r.category, Number(r.n)]));
}

/** The pace alone (for the daily list's new-question limit; see the wiring note in the product doc). */
export async function planPace(db: Db, userId: string, now: Date): Promise<Pace> {
  const s = await planSettings(db, userId);
  const unseen = Object.values(await unseenByCategory(db, userId, s.planCategories)).reduce(
    (a, b) => a + b,
    0,
  );
  return examPace({
    unseen,
    today: localDayKey(now, s.timeZone),
    examDate: s.examDate,
    newPerDay: s.newPerDay,
    maxNewPerDay: s.maxNewPerDay,
  });
}

/**
 * The plan's two reads (studied cards, unseen per category), kept between requests while the user's
 * version is unchanged when the handle has the cache (decision 396). `version` was read before, in a
 * statement of its own, so a write committed during the reads moves it past the one kept.
 */
async function planRead(
  db: Db,
  userId: string,
  cats: readonly string[],
  now: Date,
  kept: { cache: PlanReadCache; version: string } | null,
): Promise<PlanRead> {
  const key = planReadKey(userId, cats);
  const hit = kept?.cache.get(key, kept.version, now.getTime());
  if (hit) return hit;
  const [cards, unseen] = await Promise.all([
    studiedCards(db, userId, cats),
    unseenByCategory(db, userId, cats),
  ]);
  const value = { cards, unseen };
  kept?.cache.set(key, {
    value,
    version: kept.version,
    dayKey: "",
    readAt: now.getTime(),
    validUntil: Number.POSITIVE_INFINITY,
  });
  return value;
}

export async function getPlan(db: Db, userId: string, now: Date): Promise<PlanJson> {
  const cache = planReadCacheOf(db);
  // Three small independent reads at once (one round trip's wait on PostgreSQL).
  const [s, settings, version] = await Promise.all([
    planSettings(db, userId),
    schedulerSettings(db, userId),
    cache ? userVersion(db, userId) : null,
  ]);
  const cats = s.planCategories;
  const { cards, unseen } = await planRead(
    db,
    userId,
    cats,
    now,
    cache && version !== null ? { cache, version } : null,
  );
  const unseenTotal = Object.values(unseen).reduce((a, b) => a + b, 0);
  const pace = examPace({
    unseen: unseenTotal,
    today: localDayKey(now, s.timeZone),
    examDate: s.examDate,
    newPerDay: s.newPerDay,
    maxNewPerDay: s.maxNewPerDay,
  });
  const f = forecast({
    now,
    timeZone: s.timeZone,
    cards,
    unseenByCategory: unseen,
    pace: pace.perDay,
    examDate: s.examDate,
    targetRetention: s.examTargetRetention,
    settings,
  });
  return {
    ...f,
    settings: s,
    pace,
    bank: { total: cards.length + unseenTotal, unseen: unseenTotal },
    switchToFsrs: s.examDate && s.scheduler !== "fsrs" ? SWITCH_TO_FSRS : null,
  };
}

/**
 * Saves what is given. Nothing already scheduled moves (decision 378): the exam rule, load balancing
 * and easy days apply from the next review of each question.
 */
export async function setPlan(
  db: Db,
  userId: string,
  input: TPlanInput,
  now: Date,
): Promise<PlanJson> {
  const { timeZone } = await planSettings(db, userId);
  if (input.examDate) {
    const today = localDayKey(now, timeZone);
    if (input.examDate <= today) throw badRequest(PLAN_MESSAGES.EXAM_DATE_PAST);
    const far = new Date(Date.parse(`${today}T00:00:00Z`) + MAX_EXAM_DAYS * 86_400_000);
    if (input.examDate > far.toISOString().slice(0, 10))
      throw badRequest(PLAN_MESSAGES.EXAM_DATE_FAR);
  }
  const values = Object.fromEntries(
    Object.entries({
      examDate: input.examDate,
      examTargetRetention: input.examTargetRetention ?? undefined,
      newPerDay: input.newPerDay,
      maxNewPerDay: input.maxNewPerDay,
      planCategories: input.planCategories,
      loadBalance: input.loadBalance,
      easyDays: input.easyDays,
    }).filter(([, v]) => v !== undefined),
  );
  if (Object.keys(values).length > 0) {
    await db.update(users).set(values).where(eq(users.id, userId));
  }
  return getPlan(db, userId, now);
}
