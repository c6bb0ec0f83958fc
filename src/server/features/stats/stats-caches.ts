import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { queryRows } from "../../db/raw";

/*
 * What a server keeps of the dashboard and the rankings between requests (issue 20 item 2;
 * docs/decisions/260-dashboard-and-rankings-kept-between-requests.md). Both caches belong to one
 * database handle (a transaction's handle has none) and are turned on by buildApp.
 */

/** The public bank's rows of summary_changes (drizzle/0023, 0024): every user's summary counts public questions. */
export const PUBLIC_VERSION_ROW = "00000000-0000-0000-0000-000000000000";

/**
 * The user's version and the public bank's, as one text: it changes with every committed write that
 * `stats.summary` reads for this user (drizzle/0023's triggers, 0024's rows that are only ever
 * added), in any process. One round trip.
 */
export async function summaryVersion(db: Db, userId: string): Promise<string> {
  const [row] = await queryRows<{ v: string }>(
    db,
    sql`select coalesce((select sum(weight) from summary_changes where user_id = ${userId}), 0)::text || '/' ||
               coalesce((select sum(weight) from summary_changes where user_id = ${PUBLIC_VERSION_ROW}), 0)::text as v`,
  );
  return row!.v;
}

interface VersionedEntry<T> {
  value: T;
  /** summaryVersion read before the summary was: a later write always changes it. */
  version: string;
  /** The user's day when it was read ("today", the streak and the history change with the day). */
  dayKey: string;
  /** The request time it was read at: a clock that went back cannot use it. */
  readAt: number;
  /**
   * When it changes with time alone (ms): for a summary, the next due time of a studied question;
   * for the viewer's ranking figures, when their oldest answer of the week leaves it.
   */
  validUntil: number;
}

/**
 * Figures of one user (summaries by user and time zone; the viewer's own ranking figures). An entry
 * answers a request only if the user's version is still the one read before the figures, the request's
 * time is between the read and `validUntil`, and the day key is the same; otherwise the caller reads
 * them again. At most `maxEntries`, oldest out.
 */
export class VersionedCache<T> {
  private readonly entries = new Map<string, VersionedEntry<T>>();

  constructor(readonly maxEntries = 4096) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string, version: string, now: number, dayKey: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (
      entry.version !== version ||
      entry.dayKey !== dayKey ||
      now < entry.readAt ||
      now >= entry.validUntil
    ) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, entry: VersionedEntry<T>): void {
    this.entries.delete(key);
    // A Map keeps insertion order: the first key is the one stored longest ago.
    while (this.entries.size >= this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, entry);
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * The rankings' cohort (every sharing user's figures), read again once it is `maxAgeMs` old by the
 * requests' clock: the only figures a ranking may show late are other users' (decision 260); the
 * viewer's own are read on every request. Requests that find it old share one read.
 */
export class CohortCache<T> {
  private value: T | undefined;
  private readAt = 0;
  private pending: Promise<T> | null = null;

  constructor(readonly maxAgeMs: number) {}

  async get(now: number, read: () => Promise<T>): Promise<T> {
    if (this.value !== undefined && now >= this.readAt && now - this.readAt < this.maxAgeMs) {
      return this.value;
    }
    if (!this.pending) {
      const p = read().then(
        (value) => {
          this.value = value;
          this.readAt = now;
          this.pending = null;
          return value;
        },
        (err: unknown) => {
          this.pending = null;
          throw err;
        },
      );
      this.pending = p;
    }
    return this.pending;
  }

  clear(): void {
    this.value = undefined;
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
