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
 *
 * With `keepWarmMs` (the server's, decision 438), the cohort is also read again in the background
 * each half age for that long after the last request, so that requests after a lull of a few seconds
 * do not find it past its age; the timer stops once nobody has asked for that long. `clock` is the
 * requests' clock (the server's; tests pass a fake one).
 */
export class CohortCache<T> {
  private value: T | undefined;
  private readAt = 0;
  private pending: Promise<T> | null = null;
  private lastAsked = 0;
  private lastRead: ((now: number) => Promise<T>) | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    readonly maxAgeMs: number,
    readonly opts: { keepWarmMs?: number; clock?: () => number } = {},
  ) {}

  async get(now: number, read: (now: number) => Promise<T>): Promise<T> {
    if (this.opts.keepWarmMs) this.keepWarm(now, read);
    const age = now - this.readAt;
    const kept = this.value !== undefined && age >= 0 && age < this.maxAgeMs;
    if (kept && age < this.maxAgeMs / 2) return this.value as T;
    const pending = this.pending ?? this.start(now, read);
    if (!kept) return pending;
    // The background read's failure reaches no request: the next one past half the age tries again.
    pending.catch(() => {});
    return this.value as T;
  }

  private start(now: number, read: (now: number) => Promise<T>): Promise<T> {
    const p = read(now).then(
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

  private keepWarm(now: number, read: (now: number) => Promise<T>): void {
    this.lastAsked = now;
    this.lastRead = read;
    if (this.timer || this.maxAgeMs <= 0) return;
    const clock = this.opts.clock ?? Date.now;
    this.timer = setInterval(
      () => {
        const at = clock();
        if (at - this.lastAsked > this.opts.keepWarmMs! || !this.lastRead) {
          this.stopKeepingWarm();
          return;
        }
        const age = at - this.readAt;
        if (this.pending || (this.value !== undefined && age >= 0 && age < this.maxAgeMs / 2)) {
          return;
        }
        this.start(at, this.lastRead).catch(() => {});
      },
      Math.max(100, this.maxAgeMs / 2),
    );
    // Never what keeps a process alive.
    this.timer.unref?.();
  }

  private stopKeepingWarm(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.lastRead = null;
  }

  clear(): void {
    this.value = undefined;
    this.pending = null;
    this.stopKeepingWarm();
  }
}

/** How long after the last request the server keeps reading the cohort ahead (decision 438). */
export const COHORT_KEEP_WARM_MS = 60_000;

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
export function enableStatsCaches(
  db: Db,
  opts: { rankingCohortMs: number; cohortKeepWarmMs?: number; clock?: () => number },
): StatsCaches {
  const cohortOpts = { keepWarmMs: opts.cohortKeepWarmMs, clock: opts.clock };
  const entry: StatsCaches = {
    summaries: new VersionedCache(),
    viewers: new VersionedCache(),
    cohort: opts.rankingCohortMs > 0 ? new CohortCache(opts.rankingCohortMs, cohortOpts) : null,
  };
  caches.set(db, entry);
  return entry;
}

export function statsCachesOf(db: Db): StatsCaches | undefined {
  return caches.get(db);
}
