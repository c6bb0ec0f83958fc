/**
 * The questions an importer may see (own and public), indexed for the duplicate check: an exact
 * bigram index over their texts (src/core/similarity/text-index.ts) and a map of part, year and
 * number. Built once per user and kept while the bank is unchanged, so a check sent in batches (the
 * import screen's progress bar, the CLI) pays for the build once (docs/decisions/051-exact-duplicate-index.md).
 */
import { sql } from "drizzle-orm";
import { FLASHCARD } from "../../../core/constants";
import { htmlToText } from "../../../core/import/anki/html";
import { BigramTextIndex, DuplicateScorer } from "../../../core/similarity";
import type { Db } from "../../db/client";
import { queryRows } from "../../db/raw";
import { questions } from "../../db/schema";
import { visibleTo } from "../questions/question-json";
import { TextSearchPool } from "./text-search-pool";

/** What the duplicate check reads of a stored question. */
export interface BankQuestion {
  id: string;
  text: string;
  options: Record<string, string>;
  part: string;
  year: number;
  number: number | null;
  createdAt: Date;
  creatorId: string;
  /** Flashcards are indexed apart, by their front as plain text (decision 240). */
  questionType: string;
}

/**
 * The index group of a question: its part (or '' across parts), flashcards in groups of their own,
 * so a flashcard is only ever compared with flashcards and a multiple-choice question with its kind.
 */
export function textGroup(
  part: string,
  crossPart: boolean,
  questionType: string | null | undefined,
): string {
  const base = crossPart ? "" : part;
  return questionType === FLASHCARD ? `${base}\u0001${FLASHCARD}` : base;
}

export interface VisibleBank {
  /** Index positions refer to this list. */
  questions: BankQuestion[];
  /** Texts grouped by part, or all in one group ('') when parts are compared across. */
  text: BigramTextIndex;
  /** `text`'s searches of many probes, spread over worker threads (decision 422). */
  search: TextSearchPool;
  /** Positions by `numberKey(part, year, number)`. */
  byNumber: Map<string, number[]>;
  /** The core reference over `questions`, each prepared once for the bank's lifetime. */
  scorer: DuplicateScorer<BankQuestion>;
}

export function numberKey(part: string, year: number, number: number): string {
  return `${part}\u0000${year}\u0000${number}`;
}

interface CacheEntry {
  fingerprint: string;
  bank: VisibleBank;
  usedAt: number;
}

/** A couple of importers at once; a bank of 50,000 questions holds about 60 MB. */
const CACHE_ENTRIES = 2;
const CACHE_IDLE_MS = 10 * 60_000;
const cache = new Map<string, CacheEntry>();

/** Drops a cached bank and lets its search workers go (a search still running finishes in-thread). */
function evict(key: string): void {
  cache.get(key)?.bank.search.close();
  cache.delete(key);
}

/**
 * Changes whenever a visible question is added, removed, edited (every UPDATE gives the row a new
 * xmin) or changes visibility; read before the rows, so a change racing the read only causes a rebuild.
 */
async function fingerprintOf(db: Db, userId: string): Promise<string> {
  const [row] = await queryRows<{ n: string | number; x: string | null; p: string | null }>(
    db,
    sql`select count(*)::text as n, sum(xmin::text::bigint)::text as x,
        (select coalesce(program_id::text, '') || ':' || coalesce(program_role, '') from users
          where id = ${userId}) as p
        from questions where ${visibleTo(userId)}`,
  );
  // The membership too: joining or leaving changes the bank even where the counts happen to agree.
  return `${row?.n ?? 0}:${row?.x ?? 0}:${row?.p ?? ""}`;
}

async function buildBank(db: Db, userId: string, crossPart: boolean): Promise<VisibleBank> {
  const rows: BankQuestion[] = await db
    .select({
      id: questions.id,
      text: questions.text,
      options: questions.options,
      part: questions.part,
      year: questions.year,
      number: questions.number,
      createdAt: questions.createdAt,
      creatorId: questions.creatorId,
      questionType: questions.questionType,
    })
    .from(questions)
    .where(visibleTo(userId));
  const texts: string[] = new Array<string>(rows.length);
  const groups: string[] = new Array<string>(rows.length);
  const byNumber = new Map<string, number[]>();
  rows.forEach((row, i) => {
    // A flashcard's front is HTML; it is compared as the text a reader sees.
    if (row.questionType === FLASHCARD) row.text = htmlToText(row.text);
    texts[i] = row.text;
    groups[i] = textGroup(row.part, crossPart, row.questionType);
    if (row.number !== null) {
      const key = numberKey(row.part, row.year, row.number);
      let list = byNumber.get(key);
      if (!list) byNumber.set(key, (list = []));
      list.push(i);
    }
  });
  const text = new BigramTextIndex(texts, groups);
  return {
    questions: rows,
    text,
    search: new TextSearchPool(text, { texts, groups }),
    byNumber,
    scorer: new DuplicateScorer(rows),
  };
}

/** The user's visible bank, from the cache when nothing changed since it was built. */
export async function visibleBank(
  db: Db,
  userId: string,
  crossPart: boolean,
  now = Date.now(),
): Promise<VisibleBank> {
  for (const [key, entry] of cache) {
    if (now - entry.usedAt > CACHE_IDLE_MS) evict(key);
  }
  const key = `${userId}:${crossPart ? "all" : "part"}`;
  const fingerprint = await fingerprintOf(db, userId);
  const cached = cache.get(key);
  if (cached && cached.fingerprint === fingerprint) {
    cached.usedAt = now;
    // Most recently used last, so the first entry is the one to evict.
    cache.delete(key);
    cache.set(key, cached);
    return cached.bank;
  }
  const bank = await buildBank(db, userId, crossPart);
  evict(key);
  cache.set(key, { fingerprint, bank, usedAt: now });
  while (cache.size > CACHE_ENTRIES) evict(cache.keys().next().value!);
  return bank;
}
