/**
 * Searching and listing the question bank, and what the Browse filters and the dashboard count of it.
 * One question and bulk saves are question-edits.service.ts.
 */
import { and, count, eq, ne, sql, type SQL } from "drizzle-orm";
import { FLASHCARD, MASTERED_EASE, UNCATEGORIZED } from "../../../core/constants";
import { categoryLabel } from "../../../core/stats";
import type { Db } from "../../db/client";
import { queryRows } from "../../db/raw";
import { publicCategoryCounts, questions, studyStates } from "../../db/schema";
import { badRequest } from "../../errors";
import { searchByItemStats } from "./item-stats.service";
import { loadQuestionsJson } from "./question-access";
import { programBankOf, visibleTo } from "./question-json";
import {
  QUESTION_PAGE,
  SEARCH_COUNT_CAP,
  SEARCH_MESSAGES,
  SEARCH_TERMS_MAX,
  searchTerms,
  type QuestionPage,
  type TSearchQuestions,
  type TVisibility,
} from "./questions.types";

// ---------------------------------------------------------------------------------------------------
// Search and list

/**
 * A LIKE pattern that matches `term` literally anywhere: the user's %, _ and \ are escaped, so free text
 * is always text, never a pattern (and never a regular expression).
 */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The newest public questions read first, in the order the search shows them, to tell how common the
 * words (and filters) are (decision 265).
 */
export const SEARCH_PROBE_ROWS = 500;
/**
 * The most public questions the search reads newest first, row by row, before it turns to the trigram
 * index (decision 265). It walks only when the probe says half of these rows should fill the branch: a
 * word in one question of 40 or more, whatever the bank's size. Rarer ones are found through the index,
 * which then has few matches to read.
 */
export const SEARCH_WALK_ROWS = 40_000;

/** Newest first, matching the indexes (created_at DESC NULLS LAST, id DESC NULLS LAST). */
const NEWEST_FIRST = sql.raw("created_at desc nulls last, id desc nulls last");

/** A whole number written into the statement: a generic plan then knows the limit (decision 265). */
function constant(n: number): SQL {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`);
  return sql.raw(String(n));
}

/** A column of questions, or of the subquery `w` that reads its rows. */
type Column = (name: "category" | "part" | "question_type" | "source" | "search_text") => SQL;
const ofQuestions: Column = (name) => sql`${questions}.${sql.identifier(name)}`;
const ofWalk: Column = (name) => sql`w.${sql.identifier(name)}`;

/** The category filter: 'Uncategorized' is how empty categories are shown; filtering by it finds them. */
function categoryFilter(input: SearchInput, col: Column): SQL | undefined {
  if (input.category === undefined) return undefined;
  return input.category === UNCATEGORIZED
    ? sql`(${col("category")} = '' or ${col("category")} = ${UNCATEGORIZED})`
    : sql`${col("category")} = ${input.category}`;
}

/** The filters other than free text and category: part, and (issue 17) kind and source. */
function otherFilters(input: SearchInput, col: Column): SQL[] {
  const conditions: SQL[] = [];
  if (input.part) conditions.push(sql`${col("part")} = ${input.part}`);
  if (input.type === "flashcard") conditions.push(sql`${col("question_type")} = ${FLASHCARD}`);
  else if (input.type === "multipleChoice") {
    conditions.push(sql`${col("question_type")} <> ${FLASHCARD}`);
  }
  if (input.source !== undefined) conditions.push(sql`${col("source")} = ${input.source}`);
  return conditions;
}

/**
 * Every word of the free text, each on its own, against search_text, which is lower-cased by the same
 * lower() the term goes through. LIKE (escaped) can use the trigram index for terms of 3+ characters;
 * strpos is a plain substring test, checked on rows already read.
 */
function textFilters(input: SearchInput, col: Column, useTrigramIndex: boolean): SQL[] {
  const terms = searchTerms(input.text ?? "");
  // The request schema refuses this first; words are never dropped silently.
  if (terms.length > SEARCH_TERMS_MAX) throw badRequest(SEARCH_MESSAGES.TOO_MANY_WORDS);
  return terms.map((term) =>
    useTrigramIndex && term.length >= 3
      ? sql`${col("search_text")} like lower(${containsPattern(term)})`
      : sql`strpos(${col("search_text")}, lower(${term})) > 0`,
  );
}

type SearchInput = Omit<TSearchQuestions, "visibility"> & { visibility?: TVisibility };

/**
 * The matches of one user's own questions, newest first: the creator index holds them in that order,
 * and one user's questions — a few hundred, rarely thousands — are cheaper to check row by row than
 * through the trigram index.
 */
function ownBranch(viewerId: string, input: SearchInput, limit: SQL): SQL {
  const level =
    input.visibility === "private"
      ? sql`not ${questions.isPublic} and ${questions.programId} is null`
      : input.visibility === "program"
        ? sql`not ${questions.isPublic} and ${questions.programId} is not null`
        : undefined;
  const where = and(
    eq(questions.creatorId, viewerId),
    level,
    categoryFilter(input, ofQuestions),
    ...otherFilters(input, ofQuestions),
    ...textFilters(input, ofQuestions, false),
  );
  return sql`select id, created_at, 0 as branch from questions where ${where}
    order by ${NEWEST_FIRST} limit ${limit}`;
}

/**
 * The matches among other members' questions of the viewer's program's bank, newest first: read off
 * questions_program_created_idx and checked row by row like the own branch (a program's bank holds
 * thousands at most). For a user without a program it reads nothing (decision 352).
 */
function programBranch(viewerId: string, input: SearchInput, limit: SQL): SQL {
  const where = and(
    programBankOf(viewerId),
    ne(questions.creatorId, viewerId),
    categoryFilter(input, ofQuestions),
    ...otherFilters(input, ofQuestions),
    ...textFilters(input, ofQuestions, false),
  );
  return sql`select id, created_at, 2 as branch from questions where ${where}
    order by ${NEWEST_FIRST} limit ${limit}`;
}

/**
 * The first `limit` matches among public questions (other users' ones, or every one for
 * visibility=public), newest first. Three parts of one statement, each run only when the one before
 * leaves the answer open: `probe` counts the matches among the newest {@link SEARCH_PROBE_ROWS} rows;
 * when these say half of {@link SEARCH_WALK_ROWS} rows should hold `limit` matches, `hits` reads up to
 * that many rows in order (the partial index on public questions, or the one per category) and stops
 * at `limit` matches; when the probe says otherwise or the walk found fewer, the
 * indexes (trigram, category, source) find every match and they are sorted. Each part finds the same
 * rows in the same order; only its cost differs. `is_public` is written as it stands in the partial
 * indexes' predicate: a parameter in its place keeps a generic plan off them.
 */
function publicBranch(
  viewerId: string,
  input: SearchInput,
  exceptOwn: boolean,
  limit: SQL,
  walk: { rows: SQL; probe: SQL; minHits: SQL },
): { ctes: SQL; rows: SQL } {
  // What the walk's index holds in order: public questions, of one category when one is asked.
  const scope = and(
    sql`${questions.isPublic}`,
    exceptOwn ? ne(questions.creatorId, viewerId) : undefined,
    categoryFilter(input, ofQuestions),
  );
  // Checked on the rows read, so that a rare filter cannot make the walk read more than its rows.
  const walkFilter = and(...otherFilters(input, ofWalk), ...textFilters(input, ofWalk, false));
  const newest = (rows: SQL) =>
    sql`(select id, created_at, part, question_type, source, search_text from questions
      where ${scope} order by ${NEWEST_FIRST} limit ${rows}) w`;
  const probe = walkFilter
    ? sql`probe as (select count(*) as n from ${newest(walk.probe)} where ${walkFilter}),`
    : sql``;
  // The walk's length as a subquery, not a constant: a plan then assumes a tenth of the rows and walks
  // the index, where a constant near the bank's public share made sorting the whole table look cheaper
  // (measured: 33 ms on 50,000 questions instead of 3 ms).
  const hits = sql`hits as (select id, created_at from ${newest(sql`(select ${walk.rows})`)}
    ${walkFilter ? sql`where ${walkFilter} and (select n from probe) >= ${walk.minHits}` : sql``}
    order by ${NEWEST_FIRST} limit ${limit}),`;
  const fallback = sql`select id, created_at, 1 as branch from questions
    where ${and(scope, ...otherFilters(input, ofQuestions), ...textFilters(input, ofQuestions, true))}
      and (select count(*) from hits) < ${limit}
    order by ${NEWEST_FIRST} limit ${limit}`;
  return {
    ctes: sql`${probe} ${hits}`,
    rows: sql`select id, created_at, 1 as branch from hits where (select count(*) from hits) >= ${limit}
      union all (${fallback})`,
  };
}

/**
 * Search over the questions the viewer may see (docs/product/validation.md 'Search and browse'). The visibility rule is
 * part of every branch of the query, whatever else is asked: another user's private question never
 * matches, and is never counted. Free text is matched case-insensitively in the text, option values
 * and explanation (one column, trigram-indexed for public questions), every word on its own; results
 * are newest first and paged.
 * The total is exact up to {@link SEARCH_COUNT_CAP} matches per branch; beyond that `totalCapped` says
 * the total is a lower bound (docs/decisions/010-question-search-and-pagination.md). One statement
 * answers the page and the counts, empty pages included (decision 265).
 */
export async function searchQuestions(
  db: Db,
  viewerId: string,
  input: SearchInput,
  /**
   * Tests only: other row counts for the walk and the probe (every choice gives the same page), and
   * a smaller count cap, so that a small bank can fill a branch.
   */
  tuning: { walkRows?: number; probeRows?: number; countCap?: number } = {},
): Promise<QuestionPage> {
  if (input.stats) return searchByItemStats(db, viewerId, { ...input, stats: input.stats });
  const page = input.cursor ?? 1;
  const pageSize = input.pageSize ?? QUESTION_PAGE.DEFAULT;
  const offset = (page - 1) * pageSize;
  // Each branch reads at most this many matches: enough for the page asked and for the count.
  const branchLimit = Math.max(tuning.countCap ?? SEARCH_COUNT_CAP, offset + pageSize) + 1;
  const limit = constant(branchLimit);
  const walkRows = tuning.walkRows ?? SEARCH_WALK_ROWS;
  const probeRows = tuning.probeRows ?? SEARCH_PROBE_ROWS;
  const walk = {
    rows: constant(walkRows),
    probe: constant(probeRows),
    // The walk runs when the probe's share of matches should fill the branch in half its rows.
    minHits: constant(Math.max(1, Math.ceil((2 * branchLimit * probeRows) / walkRows))),
  };
  const visibility = input.visibility ?? "all";
  const own = visibility === "public" ? undefined : ownBranch(viewerId, input, limit);
  const pub =
    visibility === "all" || visibility === "public"
      ? publicBranch(viewerId, input, visibility === "all", limit, walk)
      : undefined;
  const program =
    visibility === "all" || visibility === "program"
      ? programBranch(viewerId, input, limit)
      : undefined;
  const matches = [own, pub?.rows, program].filter((b): b is SQL => b !== undefined);
  const rows = await queryRows<{ id: string | null; total: number; widest: number }>(
    db,
    sql`with ${pub?.ctes ?? sql``}
      m as (${sql.join(
        matches.map((b) => sql`(${b})`),
        sql` union all `,
      )}),
      counts as (select (select count(*) from m)::int as total,
        (select coalesce(max(c), 0) from (select count(*) as c from m group by branch) b)::int as widest)
      select p.id, counts.total, counts.widest from counts
      left join lateral (select id from m order by ${NEWEST_FIRST}
        limit ${pageSize} offset ${offset}) p on true`,
  );
  // Past the last page the one row has no id, and the counts still answer.
  const total = rows[0]?.total ?? 0;
  const totalCapped = (rows[0]?.widest ?? 0) >= branchLimit;
  const ids = rows.flatMap((r) => (r.id ? [r.id] : []));
  return {
    items: await loadQuestionsJson(db, viewerId, ids),
    total,
    totalCapped,
    page,
    pageSize,
    nextCursor: offset + pageSize < total || totalCapped ? page + 1 : null,
  };
}

/** The questions the viewer may see (own, their program's bank, public), newest first (GET /questions). */
export function listQuestions(
  db: Db,
  viewerId: string,
  paging: { cursor?: number; pageSize?: number } = {},
): Promise<QuestionPage> {
  return searchQuestions(db, viewerId, { text: "", visibility: "all", ...paging });
}

/**
 * Categories present among the questions the viewer may see, for the Browse filter. Questions without
 * a category are offered as 'Uncategorized' (last), which the search's category filter understands.
 */
export async function presentCategories(db: Db, viewerId: string): Promise<string[]> {
  const counts = await visibleCategoryCounts(db, viewerId);
  const labels = new Set([...counts.keys()].sort().map((category) => categoryLabel(category)));
  const named = [...labels].filter((c) => c !== UNCATEGORIZED);
  return labels.has(UNCATEGORIZED) ? [...named, UNCATEGORIZED] : named;
}

/**
 * Sources (e.g. Anki deck names) present among the questions the viewer may see, sorted, for the Browse
 * filter. Questions without a source are not offered (the filter's "All sources" finds them).
 */
export async function presentSources(db: Db, viewerId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ source: questions.source })
    .from(questions)
    .where(and(ne(questions.source, ""), visibleTo(viewerId)));
  return rows.map((r) => r.source).sort((a, b) => a.localeCompare(b));
}

/**
 * Questions the viewer may see per stored category: the public counts kept by triggers
 * (public_category_counts, public questions only) plus the viewer's own questions that are not public
 * and the other members' questions of their program's bank — never a scan of the public bank.
 * Categories with no question are absent.
 */
export async function visibleCategoryCounts(
  db: Db,
  viewerId: string,
): Promise<Map<string, number>> {
  const publicRows = await db.select().from(publicCategoryCounts);
  const ownPrivate = await db
    .select({ category: questions.category, n: count() })
    .from(questions)
    .where(and(eq(questions.creatorId, viewerId), eq(questions.isPublic, false)))
    .groupBy(questions.category);
  const programBank = await db
    .select({ category: questions.category, n: count() })
    .from(questions)
    .where(and(programBankOf(viewerId), ne(questions.creatorId, viewerId)))
    .groupBy(questions.category);
  const out = new Map<string, number>();
  for (const row of publicRows) out.set(row.category, row.questions);
  for (const row of [...ownPrivate, ...programBank]) {
    out.set(row.category, (out.get(row.category) ?? 0) + row.n);
  }
  return out;
}

/**
 * Mastered questions per stored category for the viewer (ease above MASTERED_EASE), from their own study
 * states, never the whole visible bank; questions they can no longer see are left out.
 */
export async function masteredCategoryCounts(
  db: Db,
  viewerId: string,
): Promise<Map<string, number>> {
  const rows = await db
    .select({ category: questions.category, n: count() })
    .from(studyStates)
    .innerJoin(questions, eq(questions.id, studyStates.questionId))
    .where(
      and(
        eq(studyStates.userId, viewerId),
        sql`${studyStates.easeFactor} > ${MASTERED_EASE}`,
        visibleTo(viewerId),
      ),
    )
    .groupBy(questions.category);
  return new Map(rows.map((r) => [r.category, r.n]));
}
