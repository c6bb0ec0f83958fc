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
import { programBankOf, questionJsonSql } from "../questions/question-json";
import {
  duePageCacheOf,
  keepDaySizes,
  keptDaySizesAt,
  keptSizePages,
  studyWritesOf,
  type DuePageCache,
} from "./due-page-cache";
import { newSlotsToday, takeNew } from "../../../core/srs/daily";
import { dailyInputs, examPaceFor, type DailyUser } from "./new-limit";
import { duePage, type DuePage } from "./due-page-json";
import { keepPageReads, pageReadsSql } from "./page-reads";

export { duePageJson, type DuePage } from "./due-page-json";

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
  newLimit: sql.placeholder("newLimit"),
  dayStart: sql.placeholder("dayStart"),
  // Kept day sizes (decision 429).
  keptReviewed: sql.placeholder("keptReviewed"),
  keptHand: sql.placeholder("keptHand"),
  keptOwnOlder: sql.placeholder("keptOwnOlder"),
  keptIntroduced: sql.placeholder("keptIntroduced"),
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
  /** Today's new-question limit (new-limit.ts) and the start of the user's study day (ISO). */
  newLimit: number;
  dayStart: string;
};

function dueParams(opts: {
  userId: string;
  now: Date;
  category?: string;
  limit?: number;
  offset?: number;
  daily?: { newLimit: number; dayStart: Date };
}): DueParams {
  const category = opts.category ?? "";
  return {
    userId: opts.userId,
    now: opts.now.toISOString(),
    category,
    categoryAlt: category === UNCATEGORIZED ? "" : category,
    limit: opts.limit ?? DUE_PAGE.DEFAULT,
    offset: opts.offset ?? 0,
    newLimit: opts.daily?.newLimit ?? 0,
    dayStart: (opts.daily?.dayStart ?? new Date(0)).toISOString(),
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
      // Leeches leave the list (decision 372); written so the partial due-order index applies.
      sql`${studyStates.available} and not ${studyStates.leech}`,
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
     * the public ones in the public pick (the newest 20 of both). For a user without a program the
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
 * The public pick's ids: the newest 20 never-studied public questions and the newest 20 of the
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

/** A question the user wrote or captured by hand today: the day's list takes it whatever the limit. */
const handToday = sql`(${questions.byHand} and ${questions.createdAt} >= ${ph.dayStart}::timestamptz)`;

/**
 * Where the day's sizes come from: counted, or given as parameters (decision 429: the kept counts, the
 * questions the user's own live writes touched since counted from the states those writes left). With
 * kept sizes that leave the day no new question ("reviews", decision 435), the page is of reviews alone.
 */
type SizeSource = "counted" | "kept" | "reviews";

/**
 * The day's list sizes (issue 34, decision 370) as CTEs, and the two pools they count, each read once
 * and kept for the page (decision 428): own_new (the user's own new questions: id, created_at, and
 * whether written by hand today), shared_new (the public pick, at most 20), and sizes: reviews due
 * (reviewed), own new questions written by hand today (hand) and older (own_older), the questions
 * introduced today (introduced), the public pick (public_new), and from them what the day takes of
 * each kind (`takeNew` in src/core/srs/daily.ts): take_own, take_public, and the new total (fresh).
 *
 * `lazyPublic`: the public pick is counted only when the day has slots left for it (a page's total
 * does not depend on it otherwise); a CTE is read only when something reads it, so a user whose new
 * questions for the day are taken reads no public question.
 */
function dayCtesSql(
  db: Db,
  withCategory: boolean,
  opts: { source: SizeSource; lazyPublic: boolean } = { source: "counted", lazyPublic: false },
) {
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
  // A range of the user's rows in study_states_introduced_idx.
  const introducedToday = sql`${studyStates.introducedAt} >= ${ph.dayStart}::timestamptz`;
  const introduced = db
    .select({ n: sql<number>`count(*)::int` })
    .from(studyStates)
    .where(and(eq(studyStates.userId, ph.userId), introducedToday));
  const counted =
    opts.source === "counted"
      ? sql`select (${reviewed}) as reviewed, own.hand, own.older as own_older,
                 (${introduced}) as introduced
            from (select (count(*) filter (where hand))::int as hand,
                         (count(*) filter (where not hand))::int as older from own_new) as own`
      : sql`select ${ph.keptReviewed}::int as reviewed, ${ph.keptHand}::int as hand,
                 ${ph.keptOwnOlder}::int as own_older, ${ph.keptIntroduced}::int as introduced`;
  const publicNew = sql`(select count(*)::int from shared_new)`;
  // Without a category, an index-only scan of questions_creator_keyed_idx (its INCLUDE columns). The
  // public pick is the 20 newest at most, its cap written as a constant (not a parameter): with the
  // page's limits unknown to a generic plan, the planner otherwise counted a tenth of the public bank
  // (issue 20 item 6, bench/RESULTS.md).
  return sql`own_new as materialized (
        select ${questions.id} as id, ${questions.createdAt} as created_at, ${handToday} as hand
          from ${questions} where ${where.ownNew}
      ), shared_new as materialized ${sharedNewIds(where)},
      sizes as materialized (
        with counted as materialized (${counted}),
        taken as materialized (
          select counted.*, slot.slots, least(own_older, greatest(0, slot.slots - hand)) as take_own
            from counted, lateral (select greatest(0, ${ph.newLimit}::int - counted.introduced) as slots) as slot
        ), pooled as materialized (
          select taken.*, ${
            opts.lazyPublic
              ? sql`case when slots - hand - take_own > 0 then ${publicNew} else 0 end`
              : publicNew
          } as public_new from taken
        )
        select pooled.*, least(public_new, greatest(0, slots - hand - take_own)) as take_public,
               hand + take_own + least(public_new, greatest(0, slots - hand - take_own)) as fresh
          from pooled
      )`;
}

/** The page's order: the interleaving keys, a review first on a tie. */
const pageOrder = sql`picked.key, picked.kind`;

/**
 * The page's rows read once (decision 435): the question JSON the client gets and the writer's reads
 * (page-reads.ts) aggregated over the same join of `picked` to its questions, their creators and the
 * viewer's states. An aggregate, so one row even for an empty page.
 */
function pageRowsSql(): SQL {
  return sql`(select coalesce(json_agg(${questionJsonSql(ph.userId)} order by ${pageOrder}), '[]')::text as json,
         ${pageReadsSql(ph.userId, pageOrder)} as reads
    from picked
    join ${questions} on ${questions.id} = picked.id
    join ${users} on ${users.id} = ${questions.creatorId}
    left join ${studyStates} on ${studyStates.userId} = ${ph.userId}
      and ${studyStates.questionId} = picked.id) as page_rows`;
}

/** What every page returns beside its sizes: the moment the next studied question falls due, and the user's version. */
function pageTailSql(): SQL {
  return sql`(select extract(epoch from min(${studyStates.dueAt}))::float8 * 1000 from ${studyStates}
               where ${studyStates.userId} = ${ph.userId} and ${studyStates.available}
                 and not ${studyStates.leech} and ${studyStates.dueAt} > ${ph.now}) as next_due,
             ${userVersionSql(ph.userId)} as version`;
}

/**
 * The whole due page in one statement (issue 20): the day's sizes, the first `offset + limit` ids of
 * each kind in its own order, interleaved by the keys of `interleave` (src/core/srs/daily.ts: review i
 * of R at i/(R+1), new question j of N at j/(N+1), a review first on a tie), the page's rows as
 * question JSON built by PostgreSQL, aggregated into one JSON text in list order, and the moment the
 * next studied question falls due. One round trip, and the text goes out unparsed.
 *
 * "reviews": kept sizes under which the day takes no new question (decision 435). The page is the
 * first reviews due, keyed as the full statement keys them with no new question, and its sizes are
 * the parameters; nothing of the new pools is read.
 */
function duePageQuery(db: Db, withCategory: boolean, source: SizeSource = "counted") {
  const statement =
    source === "reviews"
      ? "due_page_reviews_kept"
      : source === "kept"
        ? "due_page_day_kept"
        : withCategory
          ? "due_page_day_category"
          : "due_page_day";
  return prepared(db, statement, (d, name) => {
    const where = poolSegments(d, withCategory);
    const reach = sql`(${ph.offset}::int + ${ph.limit}::int)`;
    // The order of study_states_due_order_idx: the reviews come off the index.
    const dueOrder = sql`${studyStates.dueAt} asc nulls first, ${studyStates.questionId}`;
    const reviewedRows = d
      .select({
        kind: sql`0`.as("kind"),
        position: sql`row_number() over (order by ${dueOrder})`.as("position"),
        id: sql`${studyStates.questionId}`.as("id"),
      })
      .from(studyStates);
    // A category needs the question; otherwise the reviews come off study_states alone.
    const reviewed = (
      withCategory
        ? reviewedRows.innerJoin(questions, eq(questions.id, studyStates.questionId))
        : reviewedRows
    )
      .where(where.reviewed)
      .orderBy(dueOrder);
    const rows = pageRowsSql();
    let page: SQL;
    if (source === "reviews") {
      const reviews = sql`${ph.keptReviewed}::int`;
      page = sql`with picked as materialized (
        select p.id, p.kind, p.position::float8 / (${reviews} + 1) as key
          from (${reviewed} limit least(${reviews}, ${reach})) as p
         order by key, kind
         limit ${ph.limit}::int offset ${ph.offset}::int
      )
      select ${reviews} as total, ${reviews} as reviews, 0 as fresh, ${ph.keptHand}::int as hand,
             ${ph.keptOwnOlder}::int as own_older, ${ph.keptIntroduced}::int as introduced,
             page_rows.json, ${pageTailSql()}, page_rows.reads
        from ${rows}`;
    } else {
      // The own new questions and the public pick come from the CTEs the sizes counted (decision 428).
      const oldestFirst = sql`o.created_at asc, o.id asc`;
      const own = (today: boolean) => sql`select 1 as kind,
        row_number() over (order by ${oldestFirst}) as position, o.id as id
      from own_new as o where ${today ? sql`o.hand` : sql`not o.hand`} order by ${oldestFirst}`;
      const newestFirstPick = sql`s.created_at desc nulls last, s.id desc nulls last`;
      const size = (column: string) => sql`(select ${sql.raw(column)} from sizes)`;
      page = sql`with ${dayCtesSql(d, withCategory, { source, lazyPublic: true })},
      picked as materialized (
        select p.id, p.kind,
               case when p.kind = 0 then p.position::float8 / (${size("reviewed")} + 1)
                    else p.position::float8 / (${size("fresh")} + 1) end as key
          from (
            (${reviewed} limit least(${size("reviewed")}, ${reach}))
            union all
            (${own(true)} limit least(${size("hand")}, ${reach}))
            union all
            (select o.kind, o.position + ${size("hand")}, o.id from (${own(false)}) as o
              order by o.position limit least(${size("take_own")}, ${reach}))
            union all
            (select 1, row_number() over (order by ${newestFirstPick}) + ${size("hand")} + ${size("take_own")}, s.id
               from shared_new as s
              order by ${newestFirstPick} limit least(${size("take_public")}, ${reach}))
          ) as p
         order by key, kind
         limit ${ph.limit}::int offset ${ph.offset}::int
      )
      select sizes.reviewed + sizes.fresh as total, sizes.reviewed as reviews, sizes.fresh,
             sizes.hand, sizes.own_older, sizes.introduced,
             page_rows.json, ${pageTailSql()}, page_rows.reads
        from sizes cross join ${rows}`;
    }
    return d
      .select({
        total: sql<number>`page.total`,
        reviews: sql<number>`page.reviews`,
        fresh: sql<number>`page.fresh`,
        hand: sql<number>`page.hand`,
        ownOlder: sql<number>`page.own_older`,
        introduced: sql<number>`page.introduced`,
        json: sql<string>`page.json`,
        nextDue: sql<number | null>`page.next_due`,
        version: sql<string>`page.version`,
        reads: sql<string>`page.reads`,
      })
      .from(sql`(${page}) as page`)
      .prepare(name);
  });
}

function countDueQuery(db: Db, withCategory: boolean) {
  return prepared(db, withCategory ? "day_counts_category" : "day_counts", (d, name) =>
    d
      .select({
        reviewed: sql<number>`day.reviewed`,
        hand: sql<number>`day.hand`,
        ownOlder: sql<number>`day.own_older`,
        publicNew: sql<number>`day.public_new`,
        fresh: sql<number>`day.fresh`,
      })
      .from(sql`(with ${dayCtesSql(d, withCategory)} select * from sizes) as day`)
      .prepare(name),
  );
}

/** The user's columns the day's list reads, when the caller has not got them (a CLI, a test). */
async function dailyUserOf(db: Db, userId: string): Promise<DailyUser> {
  const [row] = await db
    .select({
      id: users.id,
      newPerDay: users.newPerDay,
      catchUpUntil: users.catchUpUntil,
      timeZone: users.timeZone,
      examDate: users.examDate,
      maxNewPerDay: users.maxNewPerDay,
    })
    .from(users)
    .where(eq(users.id, userId));
  return (
    row ?? {
      id: userId,
      newPerDay: 0,
      catchUpUntil: null,
      timeZone: "UTC",
      examDate: null,
      maxNewPerDay: 0,
    }
  );
}

/**
 * The day's study list (docs/product/study-plan.md), paged: the studied questions the user may still
 * see whose review date has passed (most overdue first, leeches left out), interleaved with today's
 * new questions (those written by hand today, then the user's own bank oldest first, then the newest
 * public questions of others), at most today's new limit (new-limit.ts) beyond the hand-written ones.
 */
export async function listDueQuestions(db: Db, opts: DueOptions): Promise<DuePage> {
  return duePageOf(db, opts, duePageCacheOf(db));
}

/** The due page read from the database, never from the cache (the cache's tests compare the two). */
export async function computeDuePage(db: Db, opts: DueOptions): Promise<DuePage> {
  return duePageOf(db, opts, undefined);
}

type DueOptions = {
  userId: string;
  now: Date;
  category?: string;
  limit?: number;
  offset?: number;
  /** The signed-in user's row when the caller has it (saves reading it). */
  user?: DailyUser;
};

async function duePageOf(
  db: Db,
  opts: DueOptions,
  cache: DuePageCache | undefined,
): Promise<DuePage> {
  const limit = Math.min(Math.max(1, opts.limit ?? DUE_PAGE.DEFAULT), DUE_PAGE.MAX);
  const offset = Math.max(0, opts.offset ?? 0);
  const category = narrows(opts.category) ? opts.category! : "";
  const user =
    opts.user && opts.user.id === opts.userId ? opts.user : await dailyUserOf(db, opts.userId);
  const daily = dailyInputs(user, opts.now, await examPaceFor(db, user, opts.now));
  const key = `${opts.userId}\u0000${category}\u0000${limit}\u0000${offset}\u0000${daily.newLimit}\u0000${daily.dayStart.getTime()}`;
  const now = opts.now.getTime();
  const written = cache ? studyWritesOf(cache, opts.userId) : 0;
  // Only a page kept under this key is worth the version's round trip, and only if the user has not
  // answered or rated through this process since (the version moved then: decision 406).
  const kept = cache?.peek(key);
  if (kept && (kept.written ?? 0) !== written) cache!.delete(key);
  else if (kept) {
    // Kept while the user's version is the one read with the page (decision 270).
    const found = cache!.get(key, await userVersion(db, opts.userId), now);
    if (found) {
      if (found.reads) keepPageReads(db, opts.userId, found.reads);
      const counts = found.counts ?? { reviews: found.total, fresh: 0 };
      return duePage(found.json, found.total, limit, offset, counts);
    }
  }
  const params = dueParams({ ...opts, category, limit, offset, daily });
  const day = { dayStart: daily.dayStart.getTime(), newLimit: daily.newLimit, now };
  // The day's sizes kept from an earlier page (decision 429): the page without counting them again,
  // if the user's version is still theirs; otherwise the full statement.
  const sizes = cache && category === "" ? keptDaySizesAt(cache, opts.userId, day) : undefined;
  // A live write noted while the page is read moves the entry on: the page is checked against the
  // version its counts were of.
  const expected = sizes?.version;
  // Kept sizes that leave the day no new question whatever the public pick holds: reviews alone.
  const reviewsOnly =
    sizes !== undefined &&
    takeNew(newSlotsToday(daily.newLimit, sizes.introduced), {
      handWrittenToday: sizes.hand,
      ownOlder: sizes.ownOlder,
      publicNew: PUBLIC_NEW_IN_DUE_LIMIT,
    }).total === 0;
  let row = sizes
    ? (
        await duePageQuery(db, false, reviewsOnly ? "reviews" : "kept").execute({
          ...params,
          keptReviewed: sizes.reviewed,
          keptHand: sizes.hand,
          keptOwnOlder: sizes.ownOlder,
          keptIntroduced: sizes.introduced,
        })
      )[0]
    : undefined;
  if (row && row.version === expected) {
    keptSizePages.count += 1;
    if (reviewsOnly) keptSizePages.reviewsOnly += 1;
  } else {
    [row] = await duePageQuery(db, category !== "").execute(params);
    if (cache && category === "") {
      keepDaySizes(cache, opts.userId, {
        version: row!.version,
        countedAt: now,
        validUntil: Math.min(row!.nextDue ?? Infinity, daily.dayEnd.getTime()),
        dayStart: day.dayStart,
        newLimit: day.newLimit,
        reviewed: Number(row!.reviews),
        hand: Number(row!.hand),
        ownOlder: Number(row!.ownOlder),
        introduced: Number(row!.introduced),
        written: new Map(),
      });
    }
  }
  const counts = { reviews: Number(row!.reviews), fresh: Number(row!.fresh) };
  const found = { json: row!.json, total: Number(row!.total), counts, written, reads: row!.reads };
  // What the page read of its questions, for the answer that normally follows (decision 430).
  if (cache) keepPageReads(db, opts.userId, row!.reads);
  // The version comes from the page's own statement, so it is of the page's snapshot: a write that
  // commits after it moves the version, and the entry is refused. The day's end (new questions come
  // in) ends it too.
  cache?.set(key, {
    value: found,
    version: row!.version,
    dayKey: "",
    readAt: now,
    validUntil: Math.min(row!.nextDue ?? Infinity, daily.dayEnd.getTime()),
  });
  return duePage(found.json, found.total, limit, offset, counts);
}

/** Sizes of the day's list: reviews due, the new questions it takes, and the new pool they come from. */
export async function countDue(
  db: Db,
  opts: { userId: string; now: Date; category?: string; user?: DailyUser },
): Promise<{ reviewed: number; fresh: number; ownNew: number; publicNew: number }> {
  const user =
    opts.user && opts.user.id === opts.userId ? opts.user : await dailyUserOf(db, opts.userId);
  const daily = dailyInputs(user, opts.now, await examPaceFor(db, user, opts.now));
  const [row] = await countDueQuery(db, narrows(opts.category)).execute(
    dueParams({ ...opts, daily }),
  );
  return {
    reviewed: Number(row?.reviewed ?? 0),
    fresh: Number(row?.fresh ?? 0),
    ownNew: Number(row?.hand ?? 0) + Number(row?.ownOlder ?? 0),
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

/** The size of the day's list. */
export async function dueCount(db: Db, opts: { userId: string; now: Date }): Promise<number> {
  const c = await countDue(db, opts);
  return c.reviewed + c.fresh;
}
