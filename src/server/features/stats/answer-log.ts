import { and, eq, gte, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { examAnswers, exams, reviews, users } from "../../db/schema";

/**
 * Which answers count in the statistics (docs/decisions/170-exams-count-once-in-statistics.md): the
 * study review log, plus the answers given in submitted or expired exams. The lapse "Study these
 * incorrect" writes for a missed exam question (reviews.exam_id set) is left out: its exam answer
 * already counts. Both halves share these conditions, so the dashboard and the rankings agree.
 */
export const studyReviewCounts = isNull(reviews.examId);

export const examAnswerCounts = and(
  ne(exams.status, "in_progress"),
  sql`cardinality(${examAnswers.selected}) > 0`,
  sql`${examAnswers.answeredAt} is not null`,
);

export interface LoggedAnswer {
  questionId: string;
  category: string;
  isCorrect: boolean;
  reviewedAt: Date;
  timeSpentMs: number;
}

/** One user's counted answers, oldest first. */
export async function answerLog(db: Db, userId: string): Promise<LoggedAnswer[]> {
  const studied = await db
    .select({
      questionId: reviews.questionId,
      category: reviews.category,
      isCorrect: reviews.isCorrect,
      reviewedAt: reviews.reviewedAt,
      timeSpentMs: reviews.timeSpentMs,
    })
    .from(reviews)
    .where(and(eq(reviews.userId, userId), studyReviewCounts))
    .orderBy(reviews.reviewedAt, reviews.id);
  const examined = await db
    .select({
      questionId: examAnswers.questionId,
      category: examAnswers.category,
      isCorrect: examAnswers.isCorrect,
      reviewedAt: examAnswers.answeredAt,
      timeSpentMs: examAnswers.timeSpentMs,
    })
    .from(examAnswers)
    .innerJoin(exams, eq(exams.id, examAnswers.examId))
    .where(and(eq(examAnswers.userId, userId), examAnswerCounts))
    .orderBy(examAnswers.answeredAt);
  if (examined.length === 0) return studied;
  const log = [...studied, ...examined.map((a) => ({ ...a, reviewedAt: a.reviewedAt! }))];
  // A stable sort keeps the review log's own order within an instant.
  return log.sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
}

export interface UserAnswerCounts {
  userId: string;
  pgyLevel: string;
  /** Stored category; '' when grouping is not by category. */
  category: string;
  answered: number;
  correct: number;
}

/**
 * Counted answers per user (and per stored category when asked) of the users `who` admits, since a
 * time when given: the two halves counted apart and added here.
 */
export async function answerCountsByUser(
  db: Db,
  opts: {
    who: SQL;
    since?: Date | null;
    byCategory?: boolean;
    categories?: readonly string[];
  },
): Promise<UserAnswerCounts[]> {
  const byCategory = opts.byCategory ?? false;
  const studied = await db
    .select({
      userId: reviews.userId,
      pgyLevel: users.pgyLevel,
      category: byCategory ? reviews.category : sql<string>`''`,
      answered: sql<number>`count(*)::int`,
      correct: sql<number>`count(*) filter (where ${reviews.isCorrect})::int`,
    })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.userId))
    .where(
      and(
        opts.who,
        studyReviewCounts,
        opts.since ? gte(reviews.reviewedAt, opts.since) : undefined,
        opts.categories ? inArray(reviews.category, [...opts.categories]) : undefined,
      ),
    )
    .groupBy(reviews.userId, users.pgyLevel, ...(byCategory ? [reviews.category] : []));
  const examined = await db
    .select({
      userId: examAnswers.userId,
      pgyLevel: users.pgyLevel,
      category: byCategory ? examAnswers.category : sql<string>`''`,
      answered: sql<number>`count(*)::int`,
      correct: sql<number>`count(*) filter (where ${examAnswers.isCorrect})::int`,
    })
    .from(examAnswers)
    .innerJoin(exams, eq(exams.id, examAnswers.examId))
    .innerJoin(users, eq(users.id, examAnswers.userId))
    .where(
      and(
        opts.who,
        examAnswerCounts,
        opts.since ? gte(examAnswers.answeredAt, opts.since) : undefined,
        opts.categories ? inArray(examAnswers.category, [...opts.categories]) : undefined,
      ),
    )
    .groupBy(examAnswers.userId, users.pgyLevel, ...(byCategory ? [examAnswers.category] : []));
  const merged = new Map<string, UserAnswerCounts>();
  for (const row of [...studied, ...examined]) {
    const key = `${row.userId}\u0000${row.category}`;
    const entry = merged.get(key);
    if (entry) {
      entry.answered += Number(row.answered);
      entry.correct += Number(row.correct);
    } else {
      merged.set(key, { ...row, answered: Number(row.answered), correct: Number(row.correct) });
    }
  }
  return [...merged.values()];
}
