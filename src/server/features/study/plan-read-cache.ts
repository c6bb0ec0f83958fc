import type { ForecastCard } from "../../../core/srs/forecast";
import type { Db } from "../../db/client";
import { VersionedCache } from "../../db/user-versions";

/**
 * What `getPlan` reads from the database for one user and plan categories (decision 396): the studied
 * cards and the plan's unseen questions per category. Neither depends on the clock; the forecast is
 * computed again from them on every call, at the request's time.
 */
export interface PlanRead {
  cards: readonly ForecastCard[];
  unseen: Readonly<Record<string, number>>;
}

/** About what a kept read holds (a card: its category string shared, four numbers, the object). */
const BYTES_PER_CARD = 100;
/** At most this much is kept per process, oldest first out: ~160 users of 10,000 studied questions. */
const PLAN_READ_CACHE_BYTES = 128 * 1024 * 1024;

/**
 * Reads kept between requests on both databases, like the due pages (decision 270): an entry answers
 * only while the user's version (read before the entry, in its own statement) is unchanged. The
 * version moves with every committed write to the user's study states, their questions, any public
 * question, their program's questions and their program membership (drizzle/0023, 0024, 0026,
 * 0032): everything the two queries read.
 */
export type PlanReadCache = VersionedCache<PlanRead>;

export function newPlanReadCache(maxBytes = PLAN_READ_CACHE_BYTES): PlanReadCache {
  return new VersionedCache<PlanRead>(1024, {
    maxWeight: maxBytes,
    weigh: (read) => 1_000 + read.cards.length * BYTES_PER_CARD,
  });
}

const caches = new WeakMap<Db, PlanReadCache>();

/** Turns the cache on for calls on `db` itself (a transaction's handle never has one). */
export function enablePlanReadCache(db: Db, cache = newPlanReadCache()): PlanReadCache {
  caches.set(db, cache);
  return cache;
}

export function planReadCacheOf(db: Db): PlanReadCache | undefined {
  return caches.get(db);
}

/** The key of one user's read for these plan categories (their order as stored). */
export function planReadKey(userId: string, categories: readonly string[]): string {
  return `${userId}\u0000${JSON.stringify(categories)}`;
}
