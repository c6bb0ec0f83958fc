/**
 * The day's plan around the due list (issue 34, docs/product/study-plan.md): New and Review counts,
 * the daily limits, the catch-up after time away (decision 371) and leeches (decision 372). The list
 * itself is due-page.service.ts; every state change goes through study-writer.service.ts.
 */
import { fileLeechReport } from "../reports/reports.service";
import { and, desc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import {
  CATCH_UP_DAYS,
  catchUpDueDates,
  catchUpEnd,
  catchUpOffered,
  dayOfReviews,
  planCatchUp,
  recallNow,
} from "../../../core/srs/catch-up";
import { localDayKey, resolveTimeZone } from "../../../core/stats/days";
import type { Db } from "../../db/client";
import { leechMarks, questions, reviews, studyStates, users } from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import type { QuestionJson } from "../questions/question-json";
import { loadQuestionsJson } from "../questions/question-access";
import { countDue } from "./due-page.service";
import { inCatchUp, type DailyUser } from "./new-limit";
import { moveDueDates, resetToNew, schedulerSettings } from "./study-writer.service";

export const NOTHING_OVERDUE = "Nothing is overdue: there is no backlog to catch up on.";
export const NOT_A_LEECH = "This question is not one of your leeches.";

const DAY_MS = 86_400_000;

/**
 * The user's settings that shape today's list changed: their version moves (drizzle/0024), so the kept
 * due pages and summaries (decisions 260, 270) are read again.
 */
async function bumpVersion(tx: Db, userId: string): Promise<void> {
  await tx.execute(sql`select summary_version_bump(array[${userId}]::uuid[])`);
}

type PlanUser = DailyUser & { leechThreshold: number };

async function planUser(db: Db, userId: string): Promise<PlanUser> {
  const [row] = await db
    .select({
      id: users.id,
      newPerDay: users.newPerDay,
      leechThreshold: users.leechThreshold,
      catchUpUntil: users.catchUpUntil,
      timeZone: users.timeZone,
      examDate: users.examDate,
      maxNewPerDay: users.maxNewPerDay,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw notFound("User not found");
  return row;
}

/**
 * Reviews overdue now (available, not leeches: the backlog a catch-up spreads) and the leeches, in one
 * pass over the user's states (issue 35 item 4: one statement less on the Study page's way).
 */
async function backlogAndLeeches(
  db: Db,
  userId: string,
  now: Date,
): Promise<{ backlog: number; leeches: number }> {
  const [row] = await db
    .select({
      backlog: sql<number>`(count(*) filter (where not ${studyStates.leech} and ${lte(studyStates.dueAt, now)}))::int`,
      leeches: sql<number>`(count(*) filter (where ${studyStates.leech}))::int`,
    })
    .from(studyStates)
    .where(and(eq(studyStates.userId, userId), sql`${studyStates.available}`));
  return { backlog: Number(row?.backlog ?? 0), leeches: Number(row?.leeches ?? 0) };
}

/** A day of reviews for this user (decision 371): answers per study day over the last 30 days. */
async function reviewsPerDay(db: Db, userId: string, now: Date, timeZone: string): Promise<number> {
  const since = new Date(now.getTime() - 30 * DAY_MS);
  const zone = resolveTimeZone(timeZone);
  const rows = await db
    .select({ at: reviews.reviewedAt })
    .from(reviews)
    .where(and(eq(reviews.userId, userId), gte(reviews.reviewedAt, since)));
  const days = new Set(rows.map((r) => localDayKey(r.at, zone)));
  return dayOfReviews(rows.length, days.size);
}

export interface DayPlanJson {
  reviewCount: number;
  newCount: number;
  newPerDay: number;
  leechThreshold: number;
  leechCount: number;
  catchUp: {
    /** Reviews overdue now, and what a day of reviews is for this user. */
    backlog: number;
    reviewsPerDay: number;
    offered: boolean;
    /** While a catch-up is under way: when it ends (new questions come back); else null. */
    until: string | null;
    minDays: number;
    maxDays: number;
    defaultDays: number;
  };
}

/** Study's and the Dashboard's counts, the limits, and whether a catch-up is offered. */
export async function dayPlan(db: Db, userId: string, now: Date): Promise<DayPlanJson> {
  const user = await planUser(db, userId);
  const counts = await countDue(db, { userId, now, user });
  const { backlog, leeches } = await backlogAndLeeches(db, userId, now);
  // The review history is read only when the backlog could be over three days of the floor.
  const perDay = backlog > 3 * 20 ? await reviewsPerDay(db, userId, now, user.timeZone) : 20;
  const active = inCatchUp(user, now);
  return {
    reviewCount: counts.reviewed,
    newCount: counts.fresh,
    newPerDay: user.newPerDay,
    leechThreshold: user.leechThreshold,
    leechCount: leeches,
    catchUp: {
      backlog,
      reviewsPerDay: perDay,
      offered: !active && catchUpOffered(backlog, perDay),
      until: active ? user.catchUpUntil!.toISOString() : null,
      minDays: CATCH_UP_DAYS.MIN,
      maxDays: CATCH_UP_DAYS.MAX,
      defaultDays: CATCH_UP_DAYS.DEFAULT,
    },
  };
}

/** Settings > Study: new questions per day (0-500) and the leech threshold. */
export async function setDailyLimits(
  db: Db,
  userId: string,
  input: { newPerDay?: number; leechThreshold?: number },
): Promise<{ newPerDay: number; leechThreshold: number }> {
  const set = {
    ...(input.newPerDay !== undefined && { newPerDay: input.newPerDay }),
    ...(input.leechThreshold !== undefined && { leechThreshold: input.leechThreshold }),
  };
  if (Object.keys(set).length > 0) {
    await db.transaction(async (tx) => {
      await tx.update(users).set(set).where(eq(users.id, userId));
      await bumpVersion(tx, userId);
    });
  }
  const user = await planUser(db, userId);
  return { newPerDay: user.newPerDay, leechThreshold: user.leechThreshold };
}

/**
 * Starts a catch-up (decision 371): every overdue review gets a day among the next `days`, lowest
 * predicted recall first, and new questions pause until the last day is over. Only due dates move.
 */
export async function startCatchUp(
  db: Db,
  userId: string,
  days: number,
  now: Date,
): Promise<{ moved: number; until: string; perDay: number[] }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
    const user = await planUser(tx, userId);
    const settings = await schedulerSettings(tx, userId);
    const overdue = await tx
      .select({
        id: studyStates.questionId,
        stability: studyStates.stability,
        intervalDays: studyStates.intervalDays,
        lastReviewedAt: studyStates.lastReviewedAt,
        dueAt: studyStates.dueAt,
      })
      .from(studyStates)
      .where(
        and(
          eq(studyStates.userId, userId),
          sql`${studyStates.available} and not ${studyStates.leech}`,
          lte(studyStates.dueAt, now),
        ),
      )
      .for("update");
    if (overdue.length === 0) throw badRequest(NOTHING_OVERDUE);
    const plan = planCatchUp(
      overdue.map((s) => ({ id: s.id, recall: recallNow(s, now, settings.parameters) })),
      days,
    );
    const moved = await moveDueDates(tx, userId, catchUpDueDates(plan, now, user.timeZone));
    const until = catchUpEnd(now, days, user.timeZone);
    await tx.update(users).set({ catchUpUntil: until }).where(eq(users.id, userId));
    await bumpVersion(tx, userId);
    const perDay = new Array<number>(days).fill(0);
    for (const p of plan) perDay[p.day]!++;
    return { moved, until: until.toISOString(), perDay };
  });
}

/** Ends a catch-up early: new questions come back today; the spread due dates stay. */
export async function endCatchUp(db: Db, userId: string): Promise<{ success: true }> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ catchUpUntil: null }).where(eq(users.id, userId));
    await bumpVersion(tx, userId);
  });
  return { success: true };
}

export interface LeechJson {
  question: QuestionJson;
  lapses: number;
  markedAt: string | null;
  reported: boolean;
  /** Every answer to it, oldest first. */
  history: { reviewedAt: string; isCorrect: boolean }[];
}

/** The user's leeches (Browse › Leeches) with their answer history, most lapses first. */
export async function listLeeches(db: Db, userId: string): Promise<LeechJson[]> {
  const rows = await db
    .select({
      questionId: studyStates.questionId,
      lapses: studyStates.lapses,
      markedAt: leechMarks.markedAt,
      reportedAt: leechMarks.reportedAt,
    })
    .from(studyStates)
    .leftJoin(
      leechMarks,
      and(
        eq(leechMarks.userId, studyStates.userId),
        eq(leechMarks.questionId, studyStates.questionId),
      ),
    )
    .where(
      and(eq(studyStates.userId, userId), sql`${studyStates.leech} and ${studyStates.available}`),
    )
    .orderBy(desc(studyStates.lapses), studyStates.questionId)
    .limit(500);
  const ids = rows.map((r) => r.questionId);
  if (ids.length === 0) return [];
  const [json, log] = await Promise.all([
    loadQuestionsJson(db, userId, ids),
    db
      .select({
        questionId: reviews.questionId,
        reviewedAt: reviews.reviewedAt,
        isCorrect: reviews.isCorrect,
      })
      .from(reviews)
      .where(and(eq(reviews.userId, userId), inArray(reviews.questionId, ids)))
      .orderBy(reviews.reviewedAt, reviews.id),
  ]);
  const byId = new Map(json.map((q) => [q._id, q]));
  const history = new Map<string, LeechJson["history"]>();
  for (const r of log) {
    const list = history.get(r.questionId) ?? [];
    list.push({ reviewedAt: r.reviewedAt.toISOString(), isCorrect: r.isCorrect });
    history.set(r.questionId, list);
  }
  return rows.flatMap((r) => {
    const question = byId.get(r.questionId);
    if (!question) return [];
    return [
      {
        question,
        lapses: r.lapses,
        markedAt: r.markedAt?.toISOString() ?? null,
        reported: r.reportedAt !== null,
        history: history.get(r.questionId) ?? [],
      },
    ];
  });
}

async function requireLeech(tx: Db, userId: string, questionId: string): Promise<void> {
  const [row] = await tx
    .select({ leech: studyStates.leech })
    .from(studyStates)
    .where(and(eq(studyStates.userId, userId), eq(studyStates.questionId, questionId)));
  if (!row?.leech) throw notFound(NOT_A_LEECH);
}

/** A leech's Reset (confirmed in the interface): back to new, the history kept (decision 372). */
export async function resetLeech(
  db: Db,
  userId: string,
  questionId: string,
  now: Date,
): Promise<{ success: true }> {
  await db.transaction(async (tx) => {
    await requireLeech(tx, userId, questionId);
    await resetToNew(tx, userId, questionId, now);
  });
  return { success: true };
}

/**
 * "Report as a bad question" from the Leeches list: recorded on the resident's leech mark (the list's
 * "reported" and the owner's counts) and filed as a real report on the question, of kind other with the
 * note, in its owner's review queue (issue 36, decision 383).
 */
export async function reportLeech(
  db: Db,
  userId: string,
  input: { questionId: string; note: string },
  now: Date,
): Promise<{ success: true }> {
  await db.transaction(async (tx) => {
    await requireLeech(tx, userId, input.questionId);
    await tx
      .insert(leechMarks)
      .values({ userId, questionId: input.questionId, reportedAt: now, reportNote: input.note })
      .onConflictDoUpdate({
        target: [leechMarks.userId, leechMarks.questionId],
        set: { reportedAt: now, reportNote: input.note },
      });
    await fileLeechReport(tx, userId, input.questionId, input.note, now);
  });
  return { success: true };
}

/** For the owner: how many residents found each of their questions a leech, and how many reported it. */
export async function ownerLeechCounts(
  db: Db,
  userId: string,
): Promise<{ questionId: string; residents: number; reports: number }[]> {
  const rows = await db
    .select({
      questionId: leechMarks.questionId,
      residents: sql<number>`count(*)::int`,
      reports: sql<number>`(count(*) filter (where ${leechMarks.reportedAt} is not null))::int`,
    })
    .from(leechMarks)
    .innerJoin(questions, eq(questions.id, leechMarks.questionId))
    .where(eq(questions.creatorId, userId))
    .groupBy(leechMarks.questionId)
    .orderBy(desc(sql`count(*)`), leechMarks.questionId)
    .limit(1000);
  return rows.map((r) => ({ ...r, residents: Number(r.residents), reports: Number(r.reports) }));
}
