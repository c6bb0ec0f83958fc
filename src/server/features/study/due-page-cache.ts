import type { Db } from "../../db/client";

/** A due page as `listDueQuestions` keeps it: the JSON text of its questions and the list's size. */
export interface CachedDuePage {
  json: string;
  total: number;
  /** When the next studied question falls due (ms since the epoch): the page changes then. */
  validUntil: number;
}

interface Entry {
  page: CachedDuePage;
  /** The request time it was read at: a clock that went back cannot use it. */
  readAt: number;
}

/**
 * Due pages already read, on the embedded database (issue 20; docs/decisions/250-due-page-cache.md).
 *
 * A page is answered from memory only while nothing at all was written since it was read: every entry
 * was read at one database snapshot (`pg_current_snapshot()`, which the page's own statement returns),
 * and a hit first asks for the current snapshot, which differs as soon as any transaction that wrote
 * has finished. That one cheap query replaces the due query, and no path that writes (a procedure, the
 * exam sweep, a trigger, a migration) has to remember to invalidate anything. The page also changes
 * with time alone, when the next studied question falls due: the entry ends then.
 */
export class DuePageCache {
  private snapshot: string | null = null;
  private readonly pages = new Map<string, Entry>();
  private bytes = 0;

  constructor(readonly maxBytes = 8 * 1024 * 1024) {}

  get size(): number {
    return this.pages.size;
  }

  /** The page stored under `key` if time has not changed it; still to be checked with `stillCurrent`. */
  get(key: string, now: number): CachedDuePage | undefined {
    const entry = this.pages.get(key);
    if (!entry) return undefined;
    if (now < entry.readAt || now >= entry.page.validUntil) {
      this.remove(key, entry);
      return undefined;
    }
    return entry.page;
  }

  /** Whether the database is still at the snapshot the pages were read at; forgets them all if not. */
  stillCurrent(snapshot: string): boolean {
    if (snapshot === this.snapshot) return true;
    this.clear();
    return false;
  }

  /** Keeps a page read at `snapshot`; the pages of any other snapshot are dropped. */
  set(key: string, page: CachedDuePage, snapshot: string, now: number): void {
    if (snapshot !== this.snapshot) {
      this.clear();
      this.snapshot = snapshot;
    }
    const previous = this.pages.get(key);
    if (previous) this.remove(key, previous);
    const size = page.json.length * 2;
    if (size > this.maxBytes) return;
    // Oldest first in a Map: the first key is the one stored longest ago.
    while (this.bytes + size > this.maxBytes) {
      const [oldestKey, oldest] = this.pages.entries().next().value!;
      this.remove(oldestKey, oldest);
    }
    this.pages.set(key, { page, readAt: now });
    this.bytes += size;
  }

  clear(): void {
    this.pages.clear();
    this.bytes = 0;
    this.snapshot = null;
  }

  private remove(key: string, entry: Entry): void {
    this.pages.delete(key);
    this.bytes -= entry.page.json.length * 2;
  }
}

const caches = new WeakMap<Db, DuePageCache>();

/**
 * Turns the cache on for calls on `db` itself (a transaction's handle never has one). The server does
 * it on the embedded database only: on PostgreSQL other processes write all the time, so the snapshot
 * would rarely match and every page would pay the check on top of the query.
 */
export function enableDuePageCache(db: Db, cache = new DuePageCache()): DuePageCache {
  caches.set(db, cache);
  return cache;
}

export function duePageCacheOf(db: Db): DuePageCache | undefined {
  return caches.get(db);
}
