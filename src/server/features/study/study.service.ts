import { and, eq, isNull, lte, ne, notExists, or, sql } from "drizzle-orm";
import {
  DUE_PAGE,
  FLASHCARD,
  PUBLIC_NEW_IN_DUE_LIMIT,
  UNCATEGORIZED,
} from "../../../core/constants";
import type { TAnswerInput, TDifficulty } from "../../../core/schemas/study";
import { answerKeyOf, isCorrectSelection } from "../../../core/correctness";
import { initialStudyState, type StudyState } from "../../../core/srs";
import type { SchedulerName, SchedulerSettings } from "../../../core/srs/fsrs";
import {
  answerState,
  nextIntervals,
  rateState,
  type NextIntervals,
} from "../../../core/srs/schedule";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import { userVersion, userVersionSql } from "../../db/user-versions";
import {
  hasAnswerKey,
  questions,
  reviews,
  studySessions,
  studyStates,
  users,
  type QuestionRow,
  type StudySessionRow,
  type StudyStateRow,
} from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import { validTimeZone } from "../auth/auth.service";
import { questionJsonSql, type QuestionJson } from "../questions/question-json";
import { questionJsonFor, requireVisibleQuestion } from "./question-access";
import { duePageCacheOf, type DuePageCache } from "./due-page-cache";

export const STUDY_SESSION_NOT_FOUND = "Study session not found";
export const NOT_AN_OPTION = "Please select one of the question's options";
export const NO_ANSWER_KEY = "This question has no correct answer yet. Add one in Browse first.";
/** A flashcard has no options to answer: its review is the resident's rating (issue 17). */
export const FLASHCARD_IS_RATED =
  "This is a flashcard: show its back, then rate it Again, Hard, Good or Easy.";

// The correctness rule lives in src/core so exams score by it too; re-exported for existing callers.
export { answerKeyOf, isCorrectSelection };

/**
 * The due list's queries take their values as placeholders and are prepared once per database handle
 * (src/server/db/prepared.ts): it is the hottest read of the app (issue 8).
 */
const ph = {
  userId: sql.placeholder("userId"),
  now: sql.placeholder("now"),
  category: sql.placeholder("category"),
  categoryAlt: sql.placeholder("categoryAlt"),
  limit: sql.placeholder("limit"),
  offset: sql.placeholder("offset"),
};

type DueParams = {
  userId: string;
  /** ISO time: the review dates that have passed. */
  now: string;
  /** The category asked for and the other stored name it stands for ('Uncategorized' is ''). */
  category: string;
  categoryAlt: string;
  limit: number;
  offset: number;
};

function dueParams(opts: {
  userId: string;
  now: Date;
  category?: string;
  limit?: number;
  offset?: number;
}): DueParams {
  const category = opts.category ?? "";
  return {
    userId: opts.userId,
    now: opts.now.toISOString(),
    category,
    categoryAlt: category === UNCATEGORIZED ? "" : category,
    limit: opts.limit ?? DUE_PAGE.DEFAULT,
    offset: opts.offset ?? 0,
  };
}

/** Whether a category narrows the list ('' and absent do not). */
const narrows = (category: string | undefined) => category !== undefined && category !== "";

// 'Uncategorized' is how the interface names the empty category: it matches both stored names.
const categoryCondition = or(
  eq(questions.category, ph.category),
  eq(questions.category, ph.categoryAlt),
);

const noStateFor = (db: Db) =>
  notExists(
    db
      .select({ one: sql`1` })
      .from(studyStates)
      .where(and(eq(studyStates.questionId, questions.id), eq(studyStates.userId, ph.userId))),
  );

/** The conditions of the three segments of the study pool (DESIGN §7), each with the answer-key rule. */
function poolSegments(db: Db, withCategory: boolean) {
  const category = withCategory ? categoryCondition : undefined;
  return {
    /**
     * Studied, still available (visible with an answer: study_states.available, kept by triggers),
     * review date passed. Rows of study_states; joined to questions only for a category.
     */
    reviewed: and(
      eq(studyStates.userId, ph.userId),
      sql`${studyStates.available}`,
      or(isNull(studyStates.dueAt), lte(studyStates.dueAt, ph.now)),
      category,
    ),
    /** Own questions never studied. */
    ownNew: and(
      eq(questions.creatorId, ph.userId),
      hasAnswerKey(questions),
      category,
      noStateFor(db),
    ),
    /** Other users' public questions never studied (the list takes the newest 20). */
    publicNew: and(
      // Written out, not `= $n`: a prepared statement's generic plan can then use the partial
      // indexes on public questions (questions_public_newest_idx).
      sql`${questions.isPublic}`,
      ne(questions.creatorId, ph.userId),
      hasAnswerKey(questions),
      category,
      noStateFor(db),
    ),
  };
}

// NULLS LAST matches questions_public_newest_idx, so the newest public questions come off the index.
const newestFirst = [
  sql`${questions.createdAt} desc nulls last`,
  sql`${questions.id} desc nulls last`,
] as const;

export interface DuePage {
  questions: QuestionJson[];
  /** Every due question, not just this page. */
  total: number;
  limit: number;
  offset: number;
}

/** The three segment sizes as subqueries, for countDue and the due page's single query. */
function dueCountSql(db: Db, withCategory: boolean) {
  const where = poolSegments(db, withCategory);
  // An index-only count of study_states, unless a category needs the question.
  const reviewed = withCategory
    ? db
        .select({ n: sql<number>`count(*)::int` })
        .from(studyStates)
        .innerJoin(questions, eq(questions.id, studyStates.questionId))
        .where(where.reviewed)
    : db
        .select({ n: sql<number>`count(*)::int` })
        .from(studyStates)
        .where(where.reviewed);
  const ownNew = db
    .select({ n: sql<number>`count(*)::int` })
    .from(questions)
    .where(where.ownNew);
  // Counting stops at the cap: the newest 20 are all that can ever be in the list.
  const publicNew = db
    .select({ n: sql<number>`count(*)::int` })
    .from(
      db
        .select({ id: questions.id })
        .from(questions)
        .where(where.publicNew)
        .limit(PUBLIC_NEW_IN_DUE_LIMIT)
        .as("public_new"),
    );
  return { reviewed, ownNew, publicNew };
}

/**
 * The whole due page in one statement (issue 20): the three segment sizes, which part of each segment
 * the page covers (worked out in SQL from those sizes), the covered rows of each segment as question
 * JSON built by PostgreSQL, aggregated into one JSON text in list order, and the moment the next
 * studied question falls due. One round trip whatever the page reaches, and the text goes out as the
 * REST answer without being parsed or written again in Node.
 */
function duePageQuery(db: Db, withCategory: boolean) {
  return prepared(db, withCategory ? "due_page_category" : "due_page", (d, name) => {
    const where = poolSegments(d, withCategory);
    const counts = dueCountSql(d, withCategory);
    const limit = sql`${ph.limit}::int`;
    const offset = sql`${ph.offset}::int`;
    // The order of study_states_due_order_idx: the page comes off the index.
    const dueOrder = sql`${studyStates.dueAt} asc nulls first, ${studyStates.questionId}`;
    const newOrder = sql.join([...newestFirst], sql`, `);
    // Each segment picks its covered ids in its own order; the question JSON is built once, below.
    const reviewedRows = d
      .select({
        segment: sql`1`.as("segment"),
        position: sql`row_number() over (order by ${dueOrder})`.as("position"),
        id: sql`${studyStates.questionId}`.as("id"),
      })
      .from(studyStates);
    // A category needs the question; otherwise the page comes off study_states alone.
    const reviewed = (
      withCategory
        ? reviewedRows.innerJoin(questions, eq(questions.id, studyStates.questionId))
        : reviewedRows
    )
      .where(where.reviewed)
      .orderBy(dueOrder);
    const fresh = (segment: "ownNew" | "publicNew", n: number) =>
      d
        .select({
          segment: sql`${sql.raw(String(n))}`.as("segment"),
          position: sql`row_number() over (order by ${newOrder})`.as("position"),
          id: sql`${questions.id}`.as("id"),
        })
        .from(questions)
        .where(where[segment])
        .orderBy(...newestFirst);
    // The public segment is the 20 newest at most, written as a constant (not a parameter): with the page's slice limits
    // unknown to a generic plan, the planner otherwise counted a tenth of the public bank for it and,
    // at 500,000 questions, hashed every user and compiled the statement with JIT on every call
    // (330 ms; issue 20 item 6, bench/RESULTS.md).
    const page = sql`with sizes as materialized (
        select (${counts.reviewed}) as reviewed, (${counts.ownNew}) as own_new,
               (${counts.publicNew}) as public_new
      ), covered as materialized (
        select sizes.*, greatest(0, least(reviewed - ${offset}, ${limit})) as take_reviewed,
               greatest(0, ${offset} - reviewed) as skip_own
          from sizes
      ), covered_own as materialized (
        select covered.*, greatest(0, least(own_new - skip_own, ${limit} - take_reviewed)) as take_own,
               greatest(0, ${offset} - reviewed - own_new) as skip_public
          from covered
      ), slices as materialized (
        select covered_own.*,
               greatest(0, least(public_new - skip_public, ${limit} - take_reviewed - take_own)) as take_public
          from covered_own
      )
      select (select reviewed + own_new + public_new from slices) as total,
             (select coalesce(json_agg(${questionJsonSql(ph.userId)} order by picked.segment, picked.position), '[]')::text
                from (
                  (${reviewed} limit (select take_reviewed from slices) offset ${offset})
                  union all
                  (${fresh("ownNew", 2)} limit (select take_own from slices) offset (select skip_own from slices))
                  union all
                  (select * from (${fresh("publicNew", 3)} limit ${sql.raw(String(PUBLIC_NEW_IN_DUE_LIMIT))}) as newest
                    order by newest.position
                    limit (select take_public from slices) offset (select skip_public from slices))
                ) as picked
                join ${questions} on ${questions.id} = picked.id
                join ${users} on ${users.id} = ${questions.creatorId}
                left join ${studyStates} on ${studyStates.userId} = ${ph.userId}
                  and ${studyStates.questionId} = picked.id) as json,
             (select extract(epoch from min(${studyStates.dueAt}))::float8 * 1000 from ${studyStates}
               where ${studyStates.userId} = ${ph.userId} and ${studyStates.available}
                 and ${studyStates.dueAt} > ${ph.now}) as next_due,
             ${userVersionSql(ph.userId)} as version`;
    return d
      .select({
        total: sql<number>`page.total`,
        json: sql<string>`page.json`,
        nextDue: sql<number | null>`page.next_due`,
        version: sql<string>`page.version`,
      })
      .from(sql`(${page}) as page`)
      .prepare(name);
  });
}

function countDueQuery(db: Db, withCategory: boolean) {
  return prepared(db, withCategory ? "due_counts_category" : "due_counts", (d, name) => {
    const { reviewed, ownNew, publicNew } = dueCountSql(d, withCategory);
    return d
      .select({
        reviewed: sql<number>`(${reviewed})`,
        ownNew: sql<number>`(${ownNew})`,
        publicNew: sql<number>`(${publicNew})`,
      })
      .from(sql`(select 1) as one`)
      .prepare(name);
  });
}

/**
 * The study pool of DESIGN §7, in three segments paged as one list:
 *   1. studied questions the user may still see whose review date has passed (most overdue first);
 *   2. the user's own questions never studied (newest first);
 *   3. at most 20 never-studied public questions of other users (newest first).
 */
export async function listDueQuestions(db: Db, opts: DueOptions): Promise<DuePage> {
  return duePageOf(db, opts, duePageCacheOf(db));
}

/** The due page read from the database, never from the cache (the cache's tests compare the two). */
export async function computeDuePage(db: Db, opts: DueOptions): Promise<DuePage> {
  return duePageOf(db, opts, undefined);
}

type DueOptions = { userId: string; now: Date; category?: string; limit?: number; offset?: number };

async function duePageOf(
  db: Db,
  opts: DueOptions,
  cache: DuePageCache | undefined,
): Promise<DuePage> {
  const limit = Math.min(Math.max(1, opts.limit ?? DUE_PAGE.DEFAULT), DUE_PAGE.MAX);
  const offset = Math.max(0, opts.offset ?? 0);
  const category = narrows(opts.category) ? opts.category! : "";
  const key = `${opts.userId}\u0000${category}\u0000${limit}\u0000${offset}`;
  const now = opts.now.getTime();
  // Only a page kept under this key is worth the version's round trip.
  if (cache?.has(key)) {
    // Kept while the user's version is the one read with the page (decision 270).
    const found = cache.get(key, await userVersion(db, opts.userId), now);
    if (found) return duePage(found.json, found.total, limit, offset);
  }
  const [row] = await duePageQuery(db, category !== "").execute(
    dueParams({ ...opts, category, limit, offset }),
  );
  const found = { json: row!.json, total: Number(row!.total) };
  // The version comes from the page's own statement, so it is of the page's snapshot: a write that
  // commits after it moves the version, and the entry is refused.
  cache?.set(key, {
    value: found,
    version: row!.version,
    dayKey: "",
    readAt: now,
    validUntil: row!.nextDue ?? Infinity,
  });
  return duePage(found.json, found.total, limit, offset);
}

const PAGE_JSON = Symbol("due page JSON text");

/**
 * A due page whose questions are parsed from PostgreSQL's JSON text only when something reads them:
 * the REST answer sends the text as it came (`duePageJson`), tRPC's serializer reads `questions`.
 */
function duePage(json: string, total: number, limit: number, offset: number): DuePage {
  let parsed: QuestionJson[] | undefined;
  const page = {
    get questions(): QuestionJson[] {
      return (parsed ??= JSON.parse(json) as QuestionJson[]);
    },
    total,
    limit,
    offset,
  };
  Object.defineProperty(page, PAGE_JSON, { value: json, enumerable: false });
  return page;
}

/** The questions of a page from `listDueQuestions` as JSON text, ready to send. */
export function duePageJson(page: DuePage): string | undefined {
  return (page as { [PAGE_JSON]?: string })[PAGE_JSON];
}

/** Sizes of the three segments of the due list. */
export async function countDue(
  db: Db,
  opts: { userId: string; now: Date; category?: string },
): Promise<{ reviewed: number; ownNew: number; publicNew: number }> {
  const [row] = await countDueQuery(db, narrows(opts.category)).execute(dueParams(opts));
  return {
    reviewed: Number(row?.reviewed ?? 0),
    ownNew: Number(row?.ownNew ?? 0),
    publicNew: Number(row?.publicNew ?? 0),
  };
}

/** Due questions per stored category (DESIGN §7 pool), for the dashboard's Category Progress. */
export async function dueByCategory(
  db: Db,
  opts: { userId: string; now: Date },
): Promise<Map<string, number>> {
  const params = dueParams(opts);
  const queries = prepared(db, "due_by_category", (d, name) => {
    const where = poolSegments(d, false);
    return {
      reviewed: d
        .select({ category: questions.category, n: sql<number>`count(*)::int` })
        .from(studyStates)
        .innerJoin(questions, eq(questions.id, studyStates.questionId))
        .where(where.reviewed)
        .groupBy(questions.category)
        .prepare(`${name}_reviewed`),
      ownNew: d
        .select({ category: questions.category, n: sql<number>`count(*)::int` })
        .from(questions)
        .where(where.ownNew)
        .groupBy(questions.category)
        .prepare(`${name}_own_new`),
      publicNew: d
        .select({ category: questions.category })
        .from(questions)
        .where(where.publicNew)
        .orderBy(...newestFirst)
        .limit(PUBLIC_NEW_IN_DUE_LIMIT)
        .prepare(`${name}_public_new`),
    };
  });
  const out = new Map<string, number>();
  const add = (category: string, n: number) => out.set(category, (out.get(category) ?? 0) + n);
  for (const r of await queries.reviewed.execute(params)) add(r.category, r.n);
  for (const r of await queries.ownNew.execute(params)) add(r.category, r.n);
  for (const r of await queries.publicNew.execute(params)) add(r.category, 1);
  return out;
}

export async function dueCount(db: Db, opts: { userId: string; now: Date }): Promise<number> {
  const c = await countDue(db, opts);
  return c.reviewed + c.ownNew + c.publicNew;
}

export interface StartedSession {
  /** Null when nothing is due: an empty start is not a study day (it would extend the streak). */
  session: { id: string; category: string | null; startedAt: string; questionCount: number } | null;
  questions: QuestionJson[];
  total: number;
}

/**
 * Starts a study session: records it (the streak and study history count session days) and hands back
 * the first page of due questions for the client to shuffle (SPEC §4).
 */
export async function startSession(
  db: Db,
  opts: { userId: string; now: Date; category?: string; limit?: number },
): Promise<StartedSession> {
  const due = await listDueQuestions(db, {
    userId: opts.userId,
    now: opts.now,
    category: opts.category,
    limit: opts.limit ?? DUE_PAGE.DEFAULT,
  });
  if (due.questions.length === 0) return { session: null, questions: [], total: due.total };
  const [session] = await db
    .insert(studySessions)
    .values({
      userId: opts.userId,
      category: opts.category ? opts.category : null,
      questionCount: due.questions.length,
      startedAt: opts.now,
    })
    .returning();
  return { session: sessionJson(session!), questions: due.questions, total: due.total };
}

function sessionJson(row: StudySessionRow): NonNullable<StartedSession["session"]> {
  return {
    id: row.id,
    category: row.category,
    startedAt: row.startedAt.toISOString(),
    questionCount: row.questionCount,
  };
}

/** Marks a session finished (the Session Complete view); idempotent. */
export async function finishSession(
  db: Db,
  opts: { userId: string; sessionId: string; now: Date },
): Promise<{ success: true }> {
  const [row] = await db
    .update(studySessions)
    .set({ endedAt: opts.now })
    .where(
      and(
        eq(studySessions.id, opts.sessionId),
        eq(studySessions.userId, opts.userId),
        isNull(studySessions.endedAt),
      ),
    )
    .returning({ id: studySessions.id });
  if (!row) {
    const [exists] = await db
      .select({ id: studySessions.id })
      .from(studySessions)
      .where(and(eq(studySessions.id, opts.sessionId), eq(studySessions.userId, opts.userId)));
    if (!exists) throw notFound(STUDY_SESSION_NOT_FOUND);
  }
  return { success: true };
}

export interface AnswerResult {
  isCorrect: boolean;
  selected: string[];
  correctAnswer: string;
  correctAnswers: string[];
  explanation: string;
  generatedExplanation: string;
  category: string;
  reviewId: number;
  /** The question with the caller's study entry after this answer. */
  question: QuestionJson;
  /** The caller's scheduler, and the days until the card comes back for each rating (issue 19). */
  scheduler: SchedulerName;
  nextIntervals: NextIntervals;
}

/**
 * The user's scheduler and its settings: the one read every state change starts from, so SM-2 or
 * FSRS applies to every writer (study, sync, exams, flashcards) that goes through this service.
 */
export async function schedulerSettings(tx: Db, userId: string): Promise<SchedulerSettings> {
  const [row] = await tx
    .select({
      scheduler: users.scheduler,
      desiredRetention: users.desiredRetention,
      maximumInterval: users.maximumInterval,
      parameters: users.fsrsParameters,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw notFound("User not found");
  return {
    scheduler: row.scheduler === "fsrs" ? "fsrs" : "sm2",
    desiredRetention: row.desiredRetention,
    maximumInterval: row.maximumInterval,
    parameters: row.parameters ?? null,
  };
}

export function toState(row: StudyStateRow | undefined): StudyState {
  if (!row) return initialStudyState();
  return {
    easeFactor: row.easeFactor,
    intervalDays: row.intervalDays,
    repetitions: row.repetitions,
    lapses: row.lapses,
    dueAt: row.dueAt,
    lastReviewedAt: row.lastReviewedAt,
    stability: row.stability,
    fsrsDifficulty: row.fsrsDifficulty,
  };
}

/** The user's state of a question, row-locked until the transaction ends (undefined: never studied). */
export async function lockedState(
  tx: Db,
  userId: string,
  questionId: string,
): Promise<StudyStateRow | undefined> {
  const [row] = await tx
    .select()
    .from(studyStates)
    .where(and(eq(studyStates.userId, userId), eq(studyStates.questionId, questionId)))
    .for("update");
  return row;
}

/**
 * Writes one review row and locks the card's state: what every live review (an answer, a flashcard's
 * rating) starts with, before it reschedules the card with the user's scheduler.
 */
export async function logReview(
  tx: Db,
  opts: {
    userId: string;
    question: QuestionRow;
    sessionId?: string;
    review: {
      isCorrect: boolean;
      difficulty: number | null;
      selected: string[];
      timeSpentMs: number;
    };
    now: Date;
  },
): Promise<{ review: { id: number }; before: StudyState; settings: SchedulerSettings }> {
  const { userId, question, now } = opts;
  const [review] = await tx
    .insert(reviews)
    .values({
      userId,
      questionId: question.id,
      sessionId: opts.sessionId ?? null,
      category: question.category,
      ...opts.review,
      reviewedAt: now,
    })
    .returning({ id: reviews.id });
  const current = await lockedState(tx, userId, question.id);
  return {
    review: review!,
    before: toState(current),
    settings: await schedulerSettings(tx, userId),
  };
}

/** Upserts the user's study state (SM-2 or FSRS) for a question. */
export async function saveState(
  tx: Db,
  key: { userId: string; questionId: string },
  state: StudyState,
  pendingReviewId: number | null,
): Promise<StudyStateRow> {
  const values = {
    easeFactor: state.easeFactor,
    intervalDays: state.intervalDays,
    repetitions: state.repetitions,
    lapses: state.lapses,
    dueAt: state.dueAt,
    lastReviewedAt: state.lastReviewedAt,
    stability: state.stability ?? null,
    fsrsDifficulty: state.fsrsDifficulty ?? null,
    pendingReviewId,
  };
  const [row] = await tx
    .insert(studyStates)
    .values({ ...key, ...values })
    .onConflictDoUpdate({ target: [studyStates.userId, studyStates.questionId], set: values })
    .returning();
  return row!;
}

/** A study session of the user's (another user's is indistinguishable from a missing one). */
export async function requireOwnSession(tx: Db, userId: string, sessionId: string): Promise<void> {
  const [session] = await tx
    .select({ id: studySessions.id })
    .from(studySessions)
    .where(and(eq(studySessions.id, sessionId), eq(studySessions.userId, userId)));
  if (!session) throw notFound(STUDY_SESSION_NOT_FOUND);
}

/**
 * Records one answer. Correctness is decided here from the stored answer set, never by the client.
 * The review row and the study state change in one transaction: a wrong answer is a lapse (DESIGN §5);
 * a right one waits for its difficulty rating (`pendingReviewId`), which schedules it.
 */
export async function recordAnswer(
  db: Db,
  opts: { userId: string; now: Date; input: TAnswerInput & { sessionId?: string } },
): Promise<AnswerResult> {
  const { userId, now, input } = opts;
  return db.transaction(async (tx) => {
    const question = await requireVisibleQuestion(tx, userId, input.questionId);
    if (question.questionType === FLASHCARD) throw badRequest(FLASHCARD_IS_RATED);
    const key = answerKeyOf(question);
    if (key.length === 0) throw badRequest(NO_ANSWER_KEY);
    const optionLetters = new Set(Object.keys(question.options));
    const selected = [...new Set(input.selected.map((l) => l.toUpperCase()))].sort();
    if (selected.some((l) => !optionLetters.has(l))) {
      throw badRequest(NOT_AN_OPTION);
    }
    if (input.sessionId) await requireOwnSession(tx, userId, input.sessionId);
    const isCorrect = isCorrectSelection(selected, key);
    const { review, before, settings } = await logReview(tx, {
      userId,
      question,
      sessionId: input.sessionId,
      review: { isCorrect, difficulty: null, selected, timeSpentMs: input.timeSpentMs },
      now,
    });
    // A right answer keeps the schedule until it is rated; a wrong one starts the card over now.
    const after: StudyState = answerState(before, isCorrect, now, settings);
    const state = await saveState(tx, { userId, questionId: question.id }, after, review.id);
    const [json] = await questionJsonFor(tx, userId, [question], new Map([[question.id, state]]));
    return {
      isCorrect,
      selected,
      correctAnswer: question.correctAnswer,
      correctAnswers: key,
      explanation: question.explanation,
      generatedExplanation: question.generatedExplanation,
      category: question.category,
      reviewId: review.id,
      question: json!,
      scheduler: settings.scheduler,
      nextIntervals: nextIntervals(before, now, settings),
    };
  });
}

/**
 * The difficulty rating (SPEC §7 PATCH /questions/{id}/study). After a right answer it schedules with
 * the user's scheduler (SM-2 or FSRS); after a wrong one the lapse already scheduled the card and the rating is only recorded on the
 * review; with no answer waiting (a REST client that only rates) it schedules (decision 020).
 */
export async function rateQuestion(
  db: Db,
  opts: { userId: string; now: Date; questionId: string; difficulty: TDifficulty },
): Promise<QuestionJson> {
  const { userId, now, difficulty } = opts;
  return db.transaction(async (tx) => {
    const question = await requireVisibleQuestion(tx, userId, opts.questionId);
    // A flashcard's rating is its review (rateFlashcard): a bare difficulty would reschedule it
    // with nothing in the log.
    if (question.questionType === FLASHCARD) throw badRequest(FLASHCARD_IS_RATED);
    const current = await lockedState(tx, userId, question.id);
    let pendingCorrect: boolean | null = null;
    if (current?.pendingReviewId != null) {
      const [pending] = await tx
        .update(reviews)
        .set({ difficulty })
        .where(and(eq(reviews.id, current.pendingReviewId), eq(reviews.userId, userId)))
        .returning({ isCorrect: reviews.isCorrect });
      pendingCorrect = pending ? pending.isCorrect : null;
    }
    const settings = await schedulerSettings(tx, userId);
    const next =
      pendingCorrect === false
        ? toState(current)
        : rateState(toState(current), difficulty, now, settings);
    const state = await saveState(tx, { userId, questionId: question.id }, next, null);
    const [json] = await questionJsonFor(tx, userId, [question], new Map([[question.id, state]]));
    return json!;
  });
}

/**
 * The time zone stats are computed in: the browser's (x-time-zone) when valid, else the one stored
 * with the user. A new valid zone is remembered, so the CLI and other devices agree.
 */
export async function studyTimeZone(
  db: Db,
  user: { id: string; timeZone: string },
  header: string | null,
): Promise<string> {
  const fromHeader = validTimeZone(header);
  if (fromHeader && fromHeader !== user.timeZone) {
    // The row only when it holds another zone: a session answered from the cache carries the zone
    // it was read with, and rewriting the same value would still write a row version each time.
    await db
      .update(users)
      .set({ timeZone: fromHeader })
      .where(and(eq(users.id, user.id), ne(users.timeZone, fromHeader)));
    return fromHeader;
  }
  return fromHeader ?? validTimeZone(user.timeZone) ?? "UTC";
}
