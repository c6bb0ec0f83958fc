import type { Db } from "../../db/client";
import { VersionedCache } from "../../db/user-versions";

/** A due page as `listDueQuestions` keeps it: the JSON text of its questions and the list's size. */
export interface CachedDuePage {
  json: string;
  total: number;
  /** Of the total: reviews due and today's new questions. */
  counts?: { reviews: number; fresh: number };
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
