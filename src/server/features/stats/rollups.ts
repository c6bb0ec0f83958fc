import { and, desc, eq, gt, or, sql } from "drizzle-orm";
import { RECENT_PERFORMANCE_LIMIT } from "../../../core/constants";
import {
  quartersReadOneByOne,
  ROLLUP_QUARTER_MS,
  type Review,
  type StudyRollups,
} from "../../../core/stats";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import { queryRows } from "../../db/raw";
import { answerCategoryTotals, answerQuarters, examAnswers, exams, reviews } from "../../db/schema";
import { examAnswerCounts, studyReviewCounts } from "./answer-log";

/*
 * Reads of the figures drizzle/0022's triggers keep as answers arrive (issue 20, decision 220): the
 * dashboard and the rankings read these, never the whole review log.
 */

const userParam = { userId: sql.placeholder("userId") };

/**
 * One user's kept figures, read for `timeZone`: per category, per quarter hour, the newest answers,
 * and, only for a quarter hour whose instants fall on two days in that zone, its answers one by one.
 */
export async function loadStudyRollups(
  db: Db,
  opts: { userId: string; timeZone: string },
): Promise<StudyRollups> {
  const queries = prepared(db, "study_rollups", (d, name) => ({
    categories: d
      .select({
        category: answerCategoryTotals.category,
        answered: answerCategoryTotals.answered,
        correct: answerCategoryTotals.correct,
      })
      .from(answerCategoryTotals)
      .where(
        and(
          eq(answerCategoryTotals.userId, userParam.userId),
          gt(answerCategoryTotals.answered, 0),
        ),
      )
      .prepare(`${name}_categories`),
    quarters: d
      .select({
        quarter: answerQuarters.quarter,
        answered: answerQuarters.answered,
        sessions: answerQuarters.sessions,
      })
      .from(answerQuarters)
      .where(
        and(
          eq(answerQuarters.userId, userParam.userId),
          or(gt(answerQuarters.answered, 0), gt(answerQuarters.sessions, 0)),
        ),
      )
      .prepare(`${name}_quarters`),
    // The newest of each half in the log's order (reviews by time, then id; answerLog's sort puts
    // exam answers after reviews of the same instant).
    recentReviews: d
      .select({
        questionId: reviews.questionId,
        category: reviews.category,
        isCorrect: reviews.isCorrect,
        reviewedAt: reviews.reviewedAt,
        timeSpentMs: reviews.timeSpentMs,
      })
      .from(reviews)
      .where(and(eq(reviews.userId, userParam.userId), studyReviewCounts))
      .orderBy(desc(reviews.reviewedAt), desc(reviews.id))
      .limit(RECENT_PERFORMANCE_LIMIT)
      .prepare(`${name}_recent_reviews`),
    recentExamAnswers: d
      .select({
        questionId: examAnswers.questionId,
        category: examAnswers.category,
        isCorrect: examAnswers.isCorrect,
        reviewedAt: examAnswers.answeredAt,
        timeSpentMs: examAnswers.timeSpentMs,
      })
      .from(examAnswers)
      .innerJoin(exams, eq(exams.id, examAnswers.examId))
      .where(and(eq(examAnswers.userId, userParam.userId), examAnswerCounts))
      .orderBy(desc(examAnswers.answeredAt), desc(examAnswers.examId), desc(examAnswers.questionId))
      .limit(RECENT_PERFORMANCE_LIMIT)
      .prepare(`${name}_recent_exam_answers`),
  }));
  const params = { userId: opts.userId };
  const [categories, quarterRows, recentReviews, recentExamAnswers] = await Promise.all([
    queries.categories.execute(params),
    queries.quarters.execute(params),
    queries.recentReviews.execute(params),
    queries.recentExamAnswers.execute(params),
  ]);

  const quarters = quarterRows.map((q) => ({
    quarter: q.quarter.getTime(),
    answered: q.answered,
    sessions: q.sessions,
  }));
  const split = quartersReadOneByOne(quarters, opts.timeZone);
  const oneByOne = split.length > 0 ? await loadQuarters(db, opts.userId, split) : [];

  // Oldest first; at the same instant the review log's rows before the exam answers.
  const recent: Review[] = [
    ...recentReviews.reverse(),
    ...recentExamAnswers.reverse().map((a) => ({ ...a, reviewedAt: a.reviewedAt! })),
  ];
  recent.sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
  return { categories, quarters, oneByOne, recent };
}

/** Every counted answer and session start of the given quarter hours, one row each. */
async function loadQuarters(db: Db, userId: string, starts: readonly number[]) {
  const ranges = starts.map(
    (s) =>
      sql`(${new Date(s).toISOString()}::timestamptz, ${new Date(s + ROLLUP_QUARTER_MS).toISOString()}::timestamptz)`,
  );
  const inQuarter = (column: unknown) =>
    sql`exists (select 1 from (values ${sql.join(ranges, sql`, `)}) q(s, e) where ${column} >= q.s and ${column} < q.e)`;
  const studied = await db
    .select({ at: reviews.reviewedAt })
    .from(reviews)
    .where(and(eq(reviews.userId, userId), studyReviewCounts, inQuarter(reviews.reviewedAt)));
  const examined = await db
    .select({ at: examAnswers.answeredAt })
    .from(examAnswers)
    .innerJoin(exams, eq(exams.id, examAnswers.examId))
    .where(
      and(eq(examAnswers.userId, userId), examAnswerCounts, inQuarter(examAnswers.answeredAt)),
    );
  const sessions = await queryRows<{ at: string | Date }>(
    db,
    sql`select started_at as at from study_sessions where user_id = ${userId} and ${inQuarter(sql.raw("started_at"))}`,
  );
  return [
    ...studied.map((r) => ({ at: r.at, answered: 1, sessions: 0 })),
    ...examined.map((r) => ({ at: r.at!, answered: 1, sessions: 0 })),
    ...sessions.map((r) => ({ at: new Date(r.at), answered: 0, sessions: 1 })),
  ];
}

// ---------------------------------------------------------------------------------------------------
// Rankings

export interface CohortMember {
  userId: string;
  pgyLevel: string;
  answered: number;
  correct: number;
}

/**
 * Every user the rankings may count (sharing usage data, or the viewer) with answers: all-time from
 * `answer_totals`, and since `since` from `answer_window` corrected by the answers between the
 * window's start and `since` — read in one statement, so both halves see the same moment.
 */
export async function cohortFromRollups(
  db: Db,
  opts: { viewerId: string; since: Date },
): Promise<{ allTime: CohortMember[]; since: CohortMember[]; windowStart: Date }> {
  const rows = await cohortRows(db, opts);
  const allTime: CohortMember[] = [];
  const week: CohortMember[] = [];
  for (const r of rows) {
    allTime.push({
      userId: r.user_id,
      pgyLevel: r.pgy_level,
      answered: Number(r.answered),
      correct: Number(r.correct),
    });
    if (Number(r.week_answered) > 0) {
      week.push({
        userId: r.user_id,
        pgyLevel: r.pgy_level,
        answered: Number(r.week_answered),
        correct: Number(r.week_correct),
      });
    }
  }
  const start = rows[0]?.window_start ?? (await windowStart(db));
  return { allTime, since: week, windowStart: new Date(start) };
}

/**
 * The cohort's rows read in one statement (so both halves see the same moment); with `onlyViewer`,
 * the viewer's row alone (the log between the window's start and `since` is then read for them only).
 */
function cohortRows(db: Db, opts: { viewerId: string; since: Date; onlyViewer?: boolean }) {
  const since = opts.since.toISOString();
  const only = (alias: string) =>
    opts.onlyViewer ? sql`and ${sql.raw(alias)}.user_id = ${opts.viewerId}` : sql``;
  return queryRows<{
    user_id: string;
    pgy_level: string;
    answered: number;
    correct: number;
    week_answered: number;
    week_correct: number;
    window_start: string | Date;
  }>(
    db,
    sql`
    with s as (select start_at from answer_window_start where id = 1),
    b as (select least(${since}::timestamptz, s.start_at) lo, greatest(${since}::timestamptz, s.start_at) hi from s),
    edge as (
      select x.user_id, sum(x.sign)::int a, sum(x.sign * x.c)::int c
      from (
        select r.user_id, r.is_correct::int c,
               case when r.reviewed_at >= ${since}::timestamptz then 1 else -1 end sign
        from reviews r, b
        where r.exam_id is null ${only("r")} and r.reviewed_at >= b.lo and r.reviewed_at < b.hi
        union all
        select a.user_id, a.is_correct::int,
               case when a.answered_at >= ${since}::timestamptz then 1 else -1 end
        from exam_answers a join exams e on e.id = a.exam_id, b
        where e.status <> 'in_progress' ${only("a")} and cardinality(a.selected) > 0
          and a.answered_at >= b.lo and a.answered_at < b.hi
      ) x
      group by x.user_id
    )
    select t.user_id, u.pgy_level, t.answered, t.correct,
           (coalesce(w.answered, 0) + coalesce(edge.a, 0))::int as week_answered,
           (coalesce(w.correct, 0) + coalesce(edge.c, 0))::int as week_correct,
           (select start_at from s) as window_start
    from answer_totals t
    join users u on u.id = t.user_id
    left join answer_window w on w.user_id = t.user_id
    left join edge on edge.user_id = t.user_id
    where t.answered > 0 and (u.share_usage_data or u.id = ${opts.viewerId}) ${only("t")}`,
  );
}

async function windowStart(db: Db): Promise<Date> {
  const [row] = await queryRows<{ start_at: string | Date }>(
    db,
    sql`select start_at from answer_window_start where id = 1`,
  );
  return new Date(row?.start_at ?? 0);
}

/**
 * Moves the window's start up to the first quarter hour at or after `since` once it lags by a
 * quarter: a read stays exact whatever the start (the answers between are read), this only keeps
 * that stretch short.
 */
export async function advanceAnswerWindow(
  db: Db,
  opts: { since: Date; windowStart: Date },
): Promise<void> {
  const target = Math.ceil(opts.since.getTime() / ROLLUP_QUARTER_MS) * ROLLUP_QUARTER_MS;
  if (opts.windowStart.getTime() >= target) return;
  await db.execute(
    sql`select answer_window_advance(${new Date(target).toISOString()}::timestamptz)`,
  );
}

/**
 * The viewer's own row of the cohort (cohortFromRollups' figures for one user, with or without
 * sharing): all-time, and since `since`; null where they have no answers in that span.
 */
export async function viewerFromRollups(
  db: Db,
  opts: { viewerId: string; since: Date },
): Promise<{
  allTime: CohortMember | null;
  since: CohortMember | null;
  /** Their oldest counted answer at or after `since` (ms), or null. */
  oldestInWeek: number | null;
}> {
  const [[r], [oldest]] = await Promise.all([
    cohortRows(db, { ...opts, onlyViewer: true }),
    queryRows<{ at: string | Date | null }>(
      db,
      sql`select least(
        (select min(reviewed_at) from reviews
         where user_id = ${opts.viewerId} and exam_id is null and reviewed_at >= ${opts.since.toISOString()}::timestamptz),
        (select min(a.answered_at) from exam_answers a join exams e on e.id = a.exam_id
         where a.user_id = ${opts.viewerId} and e.status <> 'in_progress' and cardinality(a.selected) > 0
           and a.answered_at >= ${opts.since.toISOString()}::timestamptz)) as at`,
    ),
  ]);
  const oldestInWeek = oldest?.at ? new Date(oldest.at).getTime() : null;
  if (!r) return { allTime: null, since: null, oldestInWeek };
  const member = (answered: number, correct: number) => ({
    userId: opts.viewerId,
    pgyLevel: r.pgy_level,
    answered: Number(answered),
    correct: Number(correct),
  });
  return {
    allTime: member(r.answered, r.correct),
    since: Number(r.week_answered) > 0 ? member(r.week_answered, r.week_correct) : null,
    oldestInWeek,
  };
}

/**
 * When the user's next studied question falls due after `now` (ms), or null: the due counts of
 * `stats.summary` (due_at at or before now, or none) stay the same until then.
 */
export async function nextDueAfter(
  db: Db,
  opts: { userId: string; now: Date },
): Promise<number | null> {
  const [row] = await queryRows<{ next: string | Date | null }>(
    db,
    sql`select min(due_at) as next from study_states
        where user_id = ${opts.userId} and available and due_at > ${opts.now.toISOString()}::timestamptz`,
  );
  return row?.next ? new Date(row.next).getTime() : null;
}
