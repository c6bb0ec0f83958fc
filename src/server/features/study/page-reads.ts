/**
 * What the due page read of its questions, kept for the answer that normally follows it (issue 35
 * item 1, docs/decisions/430-answer-from-the-due-page.md): per question the stored row, the user's
 * state of it and both row versions (`xmin`), and the user's scheduler settings with their row's
 * version, as the page's own statement found them. The live answer starts from them instead of its
 * read and checks them in its write (study-writer-live.ts); an entry forgotten or out of date only
 * sends the answer to its read.
 */
import { getTableColumns, sql, type Column, type Placeholder, type SQL } from "drizzle-orm";
import { CasingCache } from "drizzle-orm/casing";
import { LRUCache } from "lru-cache";
import type { Db } from "../../db/client";
import { questions, studyStates, users, type StudyStateRow } from "../../db/schema";
import { questionColumns, type StoredQuestion } from "../questions/question-json";
import { writerUserFields, type writerContextOf } from "./study-writer-context";

/** One question's rows as a statement read them: the due page's, or the live path's own read. */
export interface PageRead {
  question: StoredQuestion;
  state: StudyStateRow | null;
  /** Row versions (`xmin`) of the state (null: none yet), the question and the user's row. */
  stateVersion: string | null;
  questionVersion: string;
  userVersion: string;
  /** The user's columns of writerUserFields, as read. */
  user: Parameters<typeof writerContextOf>[0];
}

const stateColumns = getTableColumns(studyStates);
const userColumns = writerUserFields(users);

/** Column names as stored: the schema's keys in snake case, as the database handles name them. */
const casing = new CasingCache("snake_case");
const storedName = (column: Column) => casing.getColumnCasing(column);

/** Each column's key, stored name and mapping, worked out once per table. */
const fieldsOf = (columns: Record<string, Column>) =>
  Object.entries(columns).map(([key, column]) => ({ key, name: storedName(column), column }));
const questionFields = fieldsOf(questionColumns);
const stateFields = fieldsOf(stateColumns);
const userFields = fieldsOf(userColumns);

/** A row from its JSON (column names as stored), each value as drizzle maps it from the driver. */
function rowOf<T>(fields: ReturnType<typeof fieldsOf>, json: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const { key, name, column } of fields) {
    const value = json[name];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T;
}

/**
 * The page's reads as one JSON text, an aggregate for the page's statement: `[[user's row version,
 * user's columns], [[question id, question version, state version, question row, state row], …]]` in
 * page order. It aggregates the rows of the statement's join of `picked` (the page's ids and order)
 * to `questions` and, left, the viewer's `study_states`, the same rows the client's JSON is built
 * from (due-page.service.ts), and reads the viewer `userId`'s own row.
 */
export function pageReadsSql(userId: SQL | Placeholder, order: SQL): SQL<string> {
  const userJson = sql.join(
    userFields.map(({ name, column }) => sql`${sql.raw(`'${name}'`)}, ${column}`),
    sql`, `,
  );
  // The subquery's own `users` is the viewer's row, whatever else the statement joins as users.
  return sql<string>`json_build_array(
      (select json_build_array(${users}.xmin::text, json_build_object(${userJson}))
         from ${users} where ${users.id} = ${userId}),
      coalesce(json_agg(json_build_array(${questions.id}, ${questions}.xmin::text, ${studyStates}.xmin::text,
        to_jsonb(${questions}) - 'search_text', to_json(${studyStates})) order by ${order}), '[]'))::text`;
}

type PageReadsJson = [
  [string, Record<string, unknown>] | null,
  [string, string, string | null, Record<string, unknown>, Record<string, unknown> | null][],
];

/** A page's reads: the JSON text, parsed when an answer asks for one of its questions. */
interface KeptPage {
  text: string;
  parsed?: Map<string, PageRead>;
}

/** At most this much read text is kept per process (UTF-16 code units × 2), oldest first out. */
const PAGE_READS_BYTES = 8 * 1024 * 1024;

/**
 * Per database handle, each user's latest page. A few thousand users studying at once fit (a page of
 * one question is about 2 KB); an hour-old page is not worth its memory.
 */
const pages = new WeakMap<Db, LRUCache<string, KeptPage>>();

function pagesOf(db: Db): LRUCache<string, KeptPage> {
  let kept = pages.get(db);
  if (!kept) {
    kept = new LRUCache<string, KeptPage>({
      max: 4096,
      ttl: 60 * 60 * 1000,
      maxSize: PAGE_READS_BYTES,
      // A page larger than the whole budget is not kept at all.
      sizeCalculation: (page) => Math.max(1, page.text.length * 2),
    });
    pages.set(db, kept);
  }
  return kept;
}

/** Keeps the user's page's reads (the text of pageReadsSql). */
export function keepPageReads(db: Db, userId: string, text: string): void {
  pagesOf(db).set(userId, { text });
}

function parse(text: string): Map<string, PageRead> {
  const [userRow, rows] = JSON.parse(text) as PageReadsJson;
  const out = new Map<string, PageRead>();
  if (userRow === null) return out;
  const [userVersion, userJson] = userRow;
  const user = rowOf<PageRead["user"]>(userFields, userJson);
  for (const [id, questionVersion, stateVersion, question, state] of rows) {
    out.set(id, {
      question: rowOf<StoredQuestion>(questionFields, question),
      state: state ? rowOf<StudyStateRow>(stateFields, state) : null,
      stateVersion,
      questionVersion,
      userVersion,
      user,
    });
  }
  return out;
}

/** The user's page's read of this question, taken out (an answer uses it once). */
export function takePageRead(db: Db, userId: string, questionId: string): PageRead | undefined {
  const kept = pages.get(db)?.get(userId);
  if (!kept) return undefined;
  kept.parsed ??= parse(kept.text);
  const read = kept.parsed.get(questionId);
  if (read) kept.parsed.delete(questionId);
  return read;
}
