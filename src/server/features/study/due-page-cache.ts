import { LRUCache } from "lru-cache";
import type { Db } from "../../db/client";
import { VersionedCache } from "../../db/user-versions";

/** A due page as `listDueQuestions` keeps it: the JSON text of its questions and the list's size. */
export interface CachedDuePage {
  json: string;
  total: number;
  /** Of the total: reviews due and today's new questions. */
  counts?: { reviews: number; fresh: number };
  /** The user's study writes through this process when it was read (studyWritesOf). */
  written?: number;
}

/** At most this much page text is kept per process (UTF-16 code units × 2), oldest first out. */
const DUE_PAGE_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * Due pages already read, on both databases (issue 20 item 1; docs/decisions/270-due-page-kept-by-version.md).
 *
 * A page answers a later request only while the user's version (drizzle/0023, 0024, 0026: the triggers
 * add to it with every committed write to the user's study states, their questions, any public
 * question, a contributor's name or a question's images) is the one read in the page's own
 * statement, and until the next studied question falls due. The version lives in the database, so a
 * write through any process is seen by the next request to every process.
 */
export type DuePageCache = VersionedCache<CachedDuePage>;

export function newDuePageCache(maxBytes = DUE_PAGE_CACHE_BYTES): DuePageCache {
  return new VersionedCache<CachedDuePage>(4096, {
    maxWeight: maxBytes,
    weigh: (page) => page.json.length * 2,
  });
}

const caches = new WeakMap<Db, DuePageCache>();

/** Turns the cache on for calls on `db` itself (a transaction's handle never has one). */
export function enableDuePageCache(db: Db, cache = newDuePageCache()): DuePageCache {
  caches.set(db, cache);
  return cache;
}

export function duePageCacheOf(db: Db): DuePageCache | undefined {
  return caches.get(db);
}

/**
 * Per cache, each user's answers and ratings committed through this process (issue 35 item 1). A page
 * read before one of them cannot answer a later request (the write moved the user's version), so the
 * due page skips reading the version for it and reads the page at once. Only a shortcut to a refusal:
 * a count forgotten by the LRU starts again at 0, which at worst leaves the check to the version.
 */
const writes = new WeakMap<DuePageCache, LRUCache<string, number>>();

function writesFor(cache: DuePageCache): LRUCache<string, number> {
  let byUser = writes.get(cache);
  if (!byUser) writes.set(cache, (byUser = new LRUCache<string, number>({ max: 20_000 })));
  return byUser;
}

/** Called by the study writer after an answer or a rating of `userId` committed on `db`. */
export function noteStudyWrite(db: Db, userId: string): void {
  const cache = caches.get(db);
  if (!cache) return;
  const byUser = writesFor(cache);
  byUser.set(userId, (byUser.get(userId) ?? 0) + 1);
}

export function studyWritesOf(cache: DuePageCache, userId: string): number {
  return writes.get(cache)?.get(userId) ?? 0;
}
