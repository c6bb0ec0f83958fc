/**
 * The due page (issue 8, decisions 250 and 270): the study pool's queries, prepared once per database
 * handle, the page in one statement whose JSON text goes out unparsed, and the pages kept per user.
 * It only reads; study states and reviews are written by study-writer.service.ts.
 */
import { and, eq, inArray, isNull, lte, ne, notExists, or, sql, type SQL } from "drizzle-orm";
import { DUE_PAGE, PUBLIC_NEW_IN_DUE_LIMIT, UNCATEGORIZED } from "../../../core/constants";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import { userVersion, userVersionSql } from "../../db/user-versions";
import { hasAnswerKey, questions, studyStates, users } from "../../db/schema";
import { programBankOf, questionJsonSql, type QuestionJson } from "../questions/question-json";
import { duePageCacheOf, type DuePageCache } from "./due-page-cache";

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

/** The conditions of the three segments of the study pool (docs/product/product-decisions.md), each with the answer-key rule. */
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
    /**
     * Never-studied questions of the viewer's program's bank by other members (issue 32): they join
     * the public ones in the third segment (the newest 20 of both). For a user without a program the
     * program is null and this branch reads nothing (questions_program_created_idx, decision 352).
     */
    programNew: and(
      programBankOf(ph.userId),
      ne(questions.creatorId, ph.userId),
      hasAnswerKey(questions),
      category,
      noStateFor(db),
    ),
  };
}

/**
 * The third segment's ids: the newest 20 never-studied public questions and the newest 20 of the
 * program's bank, each off its own index, of which the newest 20 are taken.
 */
function sharedNewIds(where: ReturnType<typeof poolSegments>) {
  const cap = sql.raw(String(PUBLIC_NEW_IN_DUE_LIMIT));
  const branch = (condition: SQL | undefined) =>
    sql`(select ${questions.id} as id, ${questions.createdAt} as created_at from ${questions}
      where ${condition} order by ${sql.join([...newestFirst], sql`, `)} limit ${cap})`;
  return sql`(select shared.id, shared.created_at from (${branch(where.publicNew)} union all ${branch(
    where.programNew,
  )}) as shared order by shared.created_at desc nulls last, shared.id desc nulls last limit ${cap})`;
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
  const publicNew = sql`select count(*)::int from ${sharedNewIds(where)} as public_new`;
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
    const fresh = (segment: "ownNew", n: number) =>
      d
        .select({
          segment: sql`${sql.raw(String(n))}`.as("segment"),
          position: sql`row_number() over (order by ${newOrder})`.as("position"),
          id: sql`${questions.id}`.as("id"),
        })
        .from(questions)
        .where(where[segment])
        .orderBy(...newestFirst);
    const shared = sql`select 3 as segment,
        row_number() over (order by s.created_at desc nulls last, s.id desc nulls last) as position,
        s.id as id
      from ${sharedNewIds(where)} as s`;
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
                  (select * from (${shared}) as newest
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
 * The study pool in docs/product/product-decisions.md, in three segments paged as one list:
 *   1. studied questions the user may still see whose review date has passed (most overdue first);
 *   2. the user's own questions never studied (newest first);
 *   3. at most 20 never-studied public questions of other users and questions of the viewer's
 *      program's bank (newest first).
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

/** Due questions per stored category (docs/product/product-decisions.md pool), for the dashboard's Category Progress. */
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
        .where(inArray(questions.id, sql`(select s.id from ${sharedNewIds(where)} as s)`))
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
