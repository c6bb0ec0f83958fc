import type { Db } from "../../db/client";
import { VersionedCache } from "../../db/user-versions";

/*
 * What a server keeps of the dashboard and the rankings between requests (issue 20 item 2;
 * docs/decisions/260-dashboard-and-rankings-kept-between-requests.md). Both caches belong to one
 * database handle (a transaction's handle has none) and are turned on by buildApp.
 */

/**
 * The rankings' cohort (every sharing user's figures), never older than `maxAgeMs` by the requests'
 * clock: the only figures a ranking may show late are other users' (decision 260); the viewer's own
 * are read on every request. Requests that find it old share one read.
 *
 * Once it is half its age the next request starts that read in the background and is answered from
 * what is kept, so under steady traffic no request waits for the cohort (at the specialty's size the
 * read takes 60-300 ms, decision 432); only one that finds it past `maxAgeMs` waits.
 */
export class CohortCache<T> {
  private value: T | undefined;
  private readAt = 0;
  private pending: Promise<T> | null = null;

  constructor(readonly maxAgeMs: number) {}

  async get(now: number, read: () => Promise<T>): Promise<T> {
    const age = now - this.readAt;
    const kept = this.value !== undefined && age >= 0 && age < this.maxAgeMs;
    if (kept && age < this.maxAgeMs / 2) return this.value as T;
    const pending = this.pending ?? this.start(now, read);
    if (!kept) return pending;
    // The background read's failure reaches no request: the next one past half the age tries again.
    pending.catch(() => {});
    return this.value as T;
  }

  private start(now: number, read: () => Promise<T>): Promise<T> {
    const p = read().then(
      (value) => {
        if (this.pending === p) {
          this.value = value;
          this.readAt = now;
          this.pending = null;
        }
        return value;
      },
      (err: unknown) => {
        if (this.pending === p) this.pending = null;
        throw err;
      },
    );
    this.pending = p;
    return p;
  }

  clear(): void {
    this.value = undefined;
    this.pending = null;
  }
}

export interface StatsCaches {
  summaries: VersionedCache<unknown>;
  /** The viewer's own figures for the rankings, with the rankings last computed from them. */
  viewers: VersionedCache<unknown>;
  cohort: CohortCache<unknown> | null;
}

const caches = new WeakMap<Db, StatsCaches>();

/**
 * Turns the caches on for calls on `db` itself. The summary cache is exact (checked against the
 * versions on every request); the cohort cache only where `rankingCohortMs` > 0 (the server's
 * RANKING_COHORT_SECONDS), as it lets other users' answers reach a ranking that many milliseconds late.
 */
export function enableStatsCaches(db: Db, opts: { rankingCohortMs: number }): StatsCaches {
  const entry: StatsCaches = {
    summaries: new VersionedCache(),
    viewers: new VersionedCache(),
    cohort: opts.rankingCohortMs > 0 ? new CohortCache(opts.rankingCohortMs) : null,
  };
  caches.set(db, entry);
  return entry;
}

export function statsCachesOf(db: Db): StatsCaches | undefined {
  return caches.get(db);
}
