import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "./client";
import { prepared } from "./prepared";

/*
 * Per-user versions kept by triggers, and the cache that checks figures against them (decisions 260
 * and 270). A user's version is the sum of their rows in `summary_changes` (drizzle/0023, 0024, 0026):
 * every committed write to what the dashboard or the due page reads for them adds to it, in any
 * process, and nothing takes from it. Row PUBLIC_VERSION_ROW is the public bank's, which every user's
 * figures read.
 */

/** The public bank's rows of summary_changes: every user's figures read the public questions. */
export const PUBLIC_VERSION_ROW = "00000000-0000-0000-0000-000000000000";

/**
 * The user's version and the public bank's as one text, for use inside a statement: read in the same
 * statement as the figures, it is of the same snapshot.
 */
export function userVersionSql(userId: SQL | Placeholder): SQL<string> {
  // One index scan for both keys: on PGlite a fifth cheaper than two subqueries (the check of every kept page).
  // The public row written as a constant, not a parameter: raw statements take the text (decision 429).
  const publicRow = sql.raw(`'${PUBLIC_VERSION_ROW}'::uuid`);
  return sql<string>`(select coalesce(sum(weight) filter (where user_id = ${userId}), 0)::text || '/' ||
    coalesce(sum(weight) filter (where user_id = ${publicRow}), 0)::text
    from summary_changes where user_id in (${userId}, ${publicRow}))`;
}

const userIdParam = sql.placeholder("userId");

/**
 * The user's version, one small prepared round trip: what a kept entry is checked against before it
 * answers a request.
 */
export async function userVersion(db: Db, userId: string): Promise<string> {
  const query = prepared(db, "user_version", (d, name) =>
    d
      .select({ v: userVersionSql(userIdParam) })
      .from(sql`(select 1) as one`)
      .prepare(name),
  );
  const [row] = await query.execute({ userId });
  return row!.v;
}

interface VersionedEntry<T> {
  value: T;
  /** userVersion read before (or with) the value: a later write always changes it. */
  version: string;
  /** What else ends the entry when it changes (a summary's day in the user's zone); "" if nothing. */
  dayKey: string;
  /** The request time it was read at: a clock that went back cannot use it. */
  readAt: number;
  /**
   * When it changes with time alone (ms): the next due time of a studied question for a summary or a
   * due page; for the viewer's ranking figures, when their oldest answer of the week leaves it.
   */
  validUntil: number;
}

/**
 * Figures of one user (summaries by user and time zone, the viewer's ranking figures, due pages). An
 * entry answers a request only if the user's version is still the one read with it, the request's
 * time is between the read and `validUntil`, and the day key is the same; otherwise the caller reads
 * them again. At most `maxEntries`, and at most `maxWeight` by `weigh` where given; oldest out.
 */
export class VersionedCache<T> {
  private readonly entries = new Map<string, VersionedEntry<T>>();
  private weight = 0;

  constructor(
    readonly maxEntries = 4096,
    private readonly limit?: { maxWeight: number; weigh: (value: T) => number },
  ) {}

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The kept value whatever its version (for a check of the caller's own before the version's). */
  peek(key: string): T | undefined {
    return this.entries.get(key)?.value;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry) this.remove(key, entry);
  }

  get(key: string, version: string, now: number, dayKey = ""): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (
      entry.version !== version ||
      entry.dayKey !== dayKey ||
      now < entry.readAt ||
      now >= entry.validUntil
    ) {
      this.remove(key, entry);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, entry: VersionedEntry<T>): void {
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    const weight = this.limit ? this.limit.weigh(entry.value) : 0;
    if (this.limit && weight > this.limit.maxWeight) return;
    // A Map keeps insertion order: the first key is the one stored longest ago.
    while (
      this.entries.size >= this.maxEntries ||
      (this.limit && this.entries.size > 0 && this.weight + weight > this.limit.maxWeight)
    ) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.remove(oldestKey, oldest);
    }
    this.entries.set(key, entry);
    this.weight += weight;
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  private remove(key: string, entry: VersionedEntry<T>): void {
    this.entries.delete(key);
    if (this.limit) this.weight -= this.limit.weigh(entry.value);
  }
}

/**
 * The version a user's live study write leaves (decision 429), from the version its statement found
 * and how many reviews it wrote: the statement triggers of study_states and reviews (drizzle/0024)
 * each add one row of weight 1 for every user whose rows the statement touched, so a statement that
 * writes one state of the user and R of their reviews adds 1, plus 1 if R > 0, and nothing to the
 * public bank's sum. (A count too low only sends the due page back to counting: the version read then
 * is higher than the one expected.)
 */
export function versionAfterLiveWrite(before: string, reviewsWritten: number): string {
  const slash = before.indexOf("/");
  const added = 1n + (reviewsWritten > 0 ? 1n : 0n);
  return `${BigInt(before.slice(0, slash)) + added}${before.slice(slash)}`;
}
