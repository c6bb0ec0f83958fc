import { and, count, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { FLASHCARD, MASTERED_EASE, UNCATEGORIZED, yearRangeError } from "../../../core/constants";
import { imageHashes } from "../../../core/media";
import { categoryLabel, percent } from "../../../core/stats";
import {
  firstIssueMessage,
  ZBulkQuestionItem,
  ZQuestionInput,
  type TBulkQuestionItem,
  type TQuestionInput,
  type TQuestionInputPayload,
} from "../../../core/schemas";
import {
  ZFlashcardInput,
  type TFlashcardInput,
  type TFlashcardInputPayload,
} from "../../../core/schemas/flashcard";
import type { Db } from "../../db/client";
import { queryRows } from "../../db/raw";
import {
  publicCategoryCounts,
  questions,
  reviews,
  studyStates,
  users,
  type NewQuestionRow,
} from "../../db/schema";
import { badRequest, forbidden, notFound } from "../../errors";
import { setQuestionMedia } from "../media/media.service";
import { dueByCategory } from "../study/study.service";
import {
  imagesByQuestion,
  questionColumns,
  toQuestionJson,
  visibleTo,
  type CreatorInfo,
  type QuestionJson,
  type StoredQuestion,
} from "./question-json";
import {
  QUESTION_MESSAGES_SERVER as MSG,
  QUESTION_PAGE,
  SEARCH_COUNT_CAP,
  SEARCH_MESSAGES,
  SEARCH_TERMS_MAX,
  searchTerms,
  type CategoryStat,
  type QuestionPage,
  type TBulkCreateRequest,
  type TSearchQuestions,
  type TVisibility,
} from "./questions.types";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Rows per INSERT: 14 columns × 500 stays far below PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 500;

// The generated search column is never sent back: it repeats the text, options and explanation.

/** Question rows with what their JSON needs: the creator's name and profile flag, the viewer's state. */
function selectQuestionJson(db: Db, viewerId: string) {
  return db
    .select({
      q: questionColumns,
      creator: { username: users.username, publicProfile: users.publicProfile },
      state: studyStates,
    })
    .from(questions)
    .innerJoin(users, eq(users.id, questions.creatorId))
    .leftJoin(
      studyStates,
      and(eq(studyStates.questionId, questions.id), eq(studyStates.userId, viewerId)),
    );
}

type JoinedRow = Awaited<ReturnType<ReturnType<typeof selectQuestionJson>["execute"]>>[number];

function toJson(viewerId: string, row: JoinedRow, images?: string[]): QuestionJson {
  return toQuestionJson(row.q, { viewerId, creator: row.creator, studyState: row.state, images });
}

/** Question JSON for the given ids in the given order (ids the viewer may not see are left out). */
async function loadQuestionsJson(db: Db, viewerId: string, ids: string[]): Promise<QuestionJson[]> {
  if (ids.length === 0) return [];
  const rows = await selectQuestionJson(db, viewerId).where(
    and(inArray(questions.id, ids), visibleTo(viewerId)),
  );
  const images = await imagesByQuestion(
    db,
    rows.map((r) => r.q.id),
  );
  const byId = new Map(rows.map((r) => [r.q.id, toJson(viewerId, r, images.get(r.q.id))]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

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
  const where = and(
    eq(questions.creatorId, viewerId),
    categoryFilter(input, ofQuestions),
    ...otherFilters(input, ofQuestions),
    ...textFilters(input, ofQuestions, false),
  );
  return sql`select id, created_at, 0 as branch from questions where ${where}
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
 * Search over the questions the viewer may see (SPEC §5 'Search and browse'). The visibility rule is
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
    visibility === "mine"
      ? undefined
      : publicBranch(viewerId, input, visibility === "all", limit, walk);
  const matches = [own, pub?.rows].filter((b): b is SQL => b !== undefined);
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

/** The viewer's own questions and every public one, newest first (GET /questions). */
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
 * (public_category_counts) plus the viewer's own private questions — never a scan of the public bank.
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
  const out = new Map<string, number>();
  for (const row of publicRows) out.set(row.category, row.questions);
  for (const row of ownPrivate) out.set(row.category, (out.get(row.category) ?? 0) + row.n);
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

// ---------------------------------------------------------------------------------------------------
// One question

async function findVisible(db: Db, viewerId: string, id: string): Promise<StoredQuestion | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db
    .select(questionColumns)
    .from(questions)
    .where(and(eq(questions.id, id), visibleTo(viewerId)));
  return row ?? null;
}

/**
 * The question if the caller created it. Another user's private question is indistinguishable from a
 * missing one (404); another user's public question is visible but not theirs to change (403).
 */
async function requireOwn(
  db: Db,
  userId: string,
  id: string,
  forbiddenMessage: string,
): Promise<StoredQuestion> {
  const row = await findVisible(db, userId, id);
  if (!row) throw notFound(MSG.NOT_FOUND);
  if (row.creatorId !== userId) throw forbidden(forbiddenMessage);
  return row;
}

export async function getQuestion(db: Db, viewerId: string, id: string): Promise<QuestionJson> {
  if (!UUID.test(id)) throw notFound(MSG.NOT_FOUND);
  const [json] = await loadQuestionsJson(db, viewerId, [id]);
  if (!json) throw notFound(MSG.NOT_FOUND);
  return json;
}

function checkYear(year: number, now: Date, prefix = ""): void {
  const error = yearRangeError(year, now);
  if (error) throw badRequest(prefix + error);
}

/** The creator as question JSON names them; 'Public Profile' also decides a new question's default. */
async function creatorInfo(db: Db, userId: string): Promise<CreatorInfo | null> {
  const [row] = await db
    .select({ username: users.username, publicProfile: users.publicProfile })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/** 'Public Profile' decides whether a new question is public when the client does not say. */
async function defaultIsPublic(db: Db, userId: string): Promise<boolean> {
  return (await creatorInfo(db, userId))?.publicProfile ?? false;
}

function storedFields(input: TQuestionInput) {
  return {
    text: input.text,
    options: input.options,
    correctAnswer: input.correctAnswer,
    correctAnswers: input.correctAnswers,
    numCorrectAnswers: input.numCorrectAnswers,
    questionType: input.questionType,
    instructions: input.instructions,
    explanation: input.explanation,
    category: input.category,
    part: input.part,
    year: input.year,
    number: input.number,
  };
}

export async function createQuestion(
  db: Db,
  userId: string,
  input: TQuestionInput,
  now: Date,
): Promise<QuestionJson> {
  checkYear(input.year, now);
  const creator = await creatorInfo(db, userId);
  const isPublic = input.isPublic ?? creator?.publicProfile ?? false;
  // The answer is built from the inserted row: no statement follows the insert, so a failure after it
  // (PostgreSQL going away) cannot report a saved question as not saved (bench/pg-outage.ts).
  const [row] = await db
    .insert(questions)
    .values({ ...storedFields(input), creatorId: userId, isPublic, createdAt: now, updatedAt: now })
    .returning(questionColumns);
  return toQuestionJson(row!, { viewerId: userId, creator, studyState: null });
}

/** What a flashcard sets on its row: front in `text`, no options and no answer key (issue 17). */
function flashcardFields(input: TFlashcardInput) {
  return {
    text: input.front,
    back: input.back,
    options: {},
    correctAnswer: "",
    correctAnswers: [],
    numCorrectAnswers: 1,
    questionType: FLASHCARD,
    instructions: "",
    category: input.category,
    part: input.part,
    year: input.year,
    source: input.source,
  };
}

/** The images a flashcard shows: those of its front, then those of its back. */
const flashcardImages = (input: TFlashcardInput) => [
  ...imageHashes(input.front),
  ...imageHashes(input.back),
];

/**
 * questions.createFlashcard (POST /questions with questionType 'flashcard'): front and back arrive
 * sanitized by ZFlashcardInput; the row and the images it shows are written in one transaction, and an
 * image that was never uploaded is refused (decision 230).
 */
export async function createFlashcard(
  db: Db,
  userId: string,
  input: TFlashcardInput,
  now: Date,
): Promise<QuestionJson> {
  checkYear(input.year, now);
  const id = await db.transaction(async (tx) => {
    const isPublic = input.isPublic ?? (await defaultIsPublic(tx, userId));
    const [row] = await tx
      .insert(questions)
      .values({
        ...flashcardFields(input),
        creatorId: userId,
        isPublic,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: questions.id });
    await setQuestionMedia(tx, row!.id, flashcardImages(input));
    return row!.id;
  });
  return getQuestion(db, userId, id);
}

function toFlashcardPayload(row: StoredQuestion): TFlashcardInputPayload {
  return {
    front: row.text,
    back: row.back,
    category: row.category,
    part: row.part,
    year: row.year,
    source: row.source,
    isPublic: row.isPublic,
  };
}

/**
 * A flashcard's edit: the given fields (`front`, or `text` as the question JSON names it, `back`,
 * category, part, year, source, isPublic) over the stored card, validated as a whole.
 */
async function updateFlashcard(
  db: Db,
  userId: string,
  row: StoredQuestion,
  data: Record<string, unknown>,
  now: Date,
): Promise<QuestionJson> {
  const given = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
  if (given.front === undefined && given.text !== undefined) given.front = given.text;
  const allowed = ["front", "back", "category", "part", "year", "source", "isPublic"] as const;
  const changes = Object.fromEntries(allowed.flatMap((k) => (k in given ? [[k, given[k]]] : [])));
  const parsed = ZFlashcardInput.safeParse({ ...toFlashcardPayload(row), ...changes });
  if (!parsed.success) throw badRequest(firstIssueMessage(parsed.error));
  checkYear(parsed.data.year, now);
  await db.transaction(async (tx) => {
    await tx
      .update(questions)
      .set({
        ...flashcardFields(parsed.data),
        isPublic: parsed.data.isPublic ?? row.isPublic,
        updatedAt: now,
      })
      .where(and(eq(questions.id, row.id), eq(questions.creatorId, userId)));
    await setQuestionMedia(tx, row.id, flashcardImages(parsed.data));
  });
  return getQuestion(db, userId, row.id);
}

function toPayload(row: StoredQuestion): TQuestionInputPayload {
  return {
    text: row.text,
    options: row.options,
    correctAnswer: row.correctAnswer,
    correctAnswers: row.correctAnswers,
    numCorrectAnswers: row.numCorrectAnswers,
    questionType: row.questionType as TQuestionInputPayload["questionType"],
    instructions: row.instructions,
    explanation: row.explanation,
    category: row.category,
    part: row.part,
    year: row.year,
    number: row.number,
    isPublic: row.isPublic,
  };
}

/**
 * PUT /questions/{id}: the given fields over the stored question, validated as a whole with the rules
 * of SPEC §5 'Edit question'. Only the creator may change a question.
 */
export async function updateQuestion(
  db: Db,
  userId: string,
  id: string,
  data: Partial<TQuestionInputPayload>,
  now: Date,
): Promise<QuestionJson> {
  const row = await requireOwn(db, userId, id, MSG.EDIT_OTHERS);
  // A flashcard stays a flashcard: its own fields and rules (issue 17).
  if (row.questionType === FLASHCARD) return updateFlashcard(db, userId, row, data, now);
  const given: Partial<TQuestionInputPayload> = Object.fromEntries(
    Object.entries(data).filter(([, v]) => v !== undefined),
  );
  // The answer fields travel together: a new single answer replaces the stored list and vice versa.
  if (given.correctAnswer !== undefined && given.correctAnswers === undefined) {
    given.correctAnswers = [];
  } else if (given.correctAnswers !== undefined && given.correctAnswer === undefined) {
    given.correctAnswer = "";
  }
  const parsed = ZQuestionInput.safeParse({ ...toPayload(row), ...given });
  if (!parsed.success) throw badRequest(firstIssueMessage(parsed.error));
  checkYear(parsed.data.year, now);
  await db
    .update(questions)
    .set({
      ...storedFields(parsed.data),
      isPublic: parsed.data.isPublic ?? row.isPublic,
      updatedAt: now,
    })
    .where(and(eq(questions.id, row.id), eq(questions.creatorId, userId)));
  return getQuestion(db, userId, row.id);
}

export async function deleteQuestion(
  db: Db,
  userId: string,
  id: string,
): Promise<{ message: string }> {
  const row = await requireOwn(db, userId, id, MSG.DELETE_OTHERS);
  await db.delete(questions).where(and(eq(questions.id, row.id), eq(questions.creatorId, userId)));
  return { message: MSG.DELETED };
}

// ---------------------------------------------------------------------------------------------------
// Bulk

/** 'Item 3 (question 12): …' — which item of the request a message is about. */
export function itemPrefix(index: number, raw: unknown): string {
  const n = (raw as { number?: unknown } | null)?.number;
  const number = typeof n === "number" || (typeof n === "string" && n.trim() !== "") ? n : null;
  return number === null ? `Item ${index + 1}: ` : `Item ${index + 1} (question ${number}): `;
}

const blank = (v: unknown) => v === undefined || v === null || v === "";

/**
 * Validates every item (with the request's part and year as defaults, and the current year when neither
 * says, as the import screens default it: SPEC §9) before anything is written; the first bad item fails
 * the whole request with a message naming it.
 */
export function validateBulkItems(req: TBulkCreateRequest, now: Date): TBulkQuestionItem[] {
  const defaultYear = blank(req.year) ? now.getFullYear() : req.year;
  return req.questions.map((raw, index) => {
    const withDefaults = {
      ...raw,
      part: blank(raw.part) ? (req.part ?? undefined) : raw.part,
      year: blank(raw.year) ? defaultYear : raw.year,
      isPublic: raw.isPublic ?? req.isPublic,
    };
    const parsed = ZBulkQuestionItem.safeParse(withDefaults);
    const prefix = itemPrefix(index, raw);
    if (!parsed.success) throw badRequest(prefix + firstIssueMessage(parsed.error));
    checkYear(parsed.data.year, now, prefix);
    return parsed.data;
  });
}

/**
 * What a bulk item sets on a question: A-E options with at most one answer. A merge that changes the
 * question's type (a multipleCorrect question becomes standard) clears the old type's instructions.
 */
function bulkFields(item: TBulkQuestionItem, previousType?: string) {
  const questionType =
    previousType === "fourOptions" && item.options.E === undefined ? "fourOptions" : "standard";
  return {
    ...(previousType !== undefined && previousType !== questionType ? { instructions: "" } : {}),
    text: item.text,
    options: item.options,
    correctAnswer: item.correctAnswer,
    correctAnswers: item.correctAnswer === "" ? [] : [item.correctAnswer],
    numCorrectAnswers: 1,
    questionType,
    category: item.category,
    part: item.part,
    year: item.year,
    number: item.number,
    explanation: item.explanation,
  };
}

/**
 * POST /questions/bulk: saves every item in one transaction and returns the saved questions in request
 * order. Items with an `_id` are merged into that question, which must be the caller's own (DESIGN §7).
 */
export async function bulkCreateQuestions(
  db: Db,
  userId: string,
  req: TBulkCreateRequest,
  now: Date,
): Promise<QuestionJson[]> {
  const items = validateBulkItems(req, now);
  const ids = await db.transaction(async (tx) => {
    const fallbackPublic = await defaultIsPublic(tx, userId);
    const savedIds: string[] = new Array<string>(items.length);

    const mergeIndexes = items.flatMap((item, i) => (item._id ? [i] : []));
    if (mergeIndexes.length > 0) {
      const targetIds = [...new Set(mergeIndexes.map((i) => items[i]!._id!))];
      const targets = await tx
        .select({ id: questions.id, creatorId: questions.creatorId, type: questions.questionType })
        .from(questions)
        .where(and(inArray(questions.id, targetIds), visibleTo(userId)));
      const byId = new Map(targets.map((t) => [t.id, t]));
      for (const i of mergeIndexes) {
        const item = items[i]!;
        const target = byId.get(item._id!);
        const prefix = itemPrefix(i, req.questions[i]);
        if (!target) throw notFound(prefix + MSG.NOT_FOUND);
        if (target.creatorId !== userId) throw forbidden(prefix + MSG.EDIT_OTHERS);
        if (target.type === FLASHCARD) throw badRequest(prefix + MSG.MERGE_FLASHCARD);
        await tx
          .update(questions)
          .set({
            ...bulkFields(item, target.type),
            ...(item.isPublic !== undefined ? { isPublic: item.isPublic } : {}),
            updatedAt: now,
          })
          .where(eq(questions.id, target.id));
        savedIds[i] = target.id;
      }
    }

    const newIndexes = items.flatMap((item, i) => (item._id ? [] : [i]));
    for (let start = 0; start < newIndexes.length; start += INSERT_CHUNK) {
      const chunk = newIndexes.slice(start, start + INSERT_CHUNK);
      const values: NewQuestionRow[] = chunk.map((i, k) => {
        const item = items[i]!;
        return {
          ...bulkFields(item),
          creatorId: userId,
          isPublic: item.isPublic ?? fallbackPublic,
          // Distinct, increasing times keep the request's order in the newest-first list.
          createdAt: new Date(now.getTime() + start + k),
          updatedAt: now,
        };
      });
      const inserted = await tx.insert(questions).values(values).returning({ id: questions.id });
      chunk.forEach((i, k) => {
        savedIds[i] = inserted[k]!.id;
      });
    }
    return savedIds;
  });
  return loadQuestionsJson(db, userId, ids);
}

// ---------------------------------------------------------------------------------------------------
// Category statistics

/**
 * Per category, for the caller (SPEC §3): questions they may see, mastered (their ease above 2.5), due
 * (exactly the study pool's rule, DESIGN §7 and decision 021, shared with the Study screen) and their
 * accuracy from the review log (null before any answer). Empty categories read 'Uncategorized'.
 * Sorted by total, then name.
 */
export async function categoryStats(db: Db, userId: string, now: Date): Promise<CategoryStat[]> {
  const [totals, mastered, answers, due] = await Promise.all([
    visibleCategoryCounts(db, userId),
    masteredCategoryCounts(db, userId),
    db
      .select({
        category: reviews.category,
        answered: count(),
        correct: sql<number>`count(*) filter (where ${reviews.isCorrect})::int`,
      })
      .from(reviews)
      .where(eq(reviews.userId, userId))
      .groupBy(reviews.category),
    dueByCategory(db, { userId, now }),
  ]);

  const stats = new Map<string, CategoryStat & { correct: number }>();
  const entry = (raw: string) => {
    const category = categoryLabel(raw);
    let s = stats.get(category);
    if (!s) {
      s = { category, total: 0, mastered: 0, due: 0, accuracy: null, answered: 0, correct: 0 };
      stats.set(category, s);
    }
    return s;
  };
  for (const [category, n] of totals) entry(category).total += n;
  for (const [category, n] of mastered) entry(category).mastered += n;
  for (const [category, n] of due) entry(category).due += n;
  for (const a of answers) {
    const s = entry(a.category);
    s.answered += a.answered;
    s.correct += a.correct;
  }
  return [...stats.values()]
    .map(({ correct, ...s }) => ({
      ...s,
      accuracy: s.answered === 0 ? null : percent(correct, s.answered),
    }))
    .sort((a, b) => b.total - a.total || a.category.localeCompare(b.category));
}
