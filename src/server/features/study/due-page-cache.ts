import { LRUCache } from "lru-cache";
import type { Db } from "../../db/client";
import type { StudyStateRow } from "../../db/schema";
import { VersionedCache, versionAfterLiveWrite } from "../../db/user-versions";
import type { StoredQuestion } from "../questions/question-json";

/** A due page as `listDueQuestions` keeps it: the JSON text of its questions and the list's size. */
export interface CachedDuePage {
  json: string;
  total: number;
  /** Of the total: reviews due and today's new questions. */
  counts?: { reviews: number; fresh: number };
  /** The user's study writes through this process when it was read (studyWritesOf). */
  written?: number;
  /** What the page's statement read of its questions (page-reads.ts, decision 430). */
  reads?: string;
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
    weigh: (page) => (page.json.length + (page.reads?.length ?? 0)) * 2,
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

/**
 * The day's sizes of a user's list (without a category) as the due page's full statement counted
 * them, kept so that the page after the user's own answers and ratings need not count them again
 * (issue 35 item 1, docs/decisions/429-day-sizes-kept-per-user.md). The questions the user's live
 * writes touched since are taken out of the counts and kept with the state each write left
 * (`written`): a page counts them as of its own time (keptDaySizesAt). The entry holds while the
 * user's version is `version`, which each of those writes moved by what it wrote
 * (versionAfterLiveWrite), and until `validUntil`.
 */
export interface KeptDaySizes {
  /** The user's version the sizes are of, the user's own live writes since included. */
  version: string;
  /** The request time they were counted at, and when a studied question falls due or the day ends. */
  countedAt: number;
  validUntil: number;
  /** The day they are of: its start and its new-question limit. */
  dayStart: number;
  newLimit: number;
  /** Reviews due, own new questions (by hand today and older) and questions introduced today, without `written`. */
  reviewed: number;
  hand: number;
  ownOlder: number;
  introduced: number;
  /** Questions written by the user's live writes since they were counted, with the state each write left. */
  written: Map<string, StudyStateRow>;
}

/** A kept entry ends after this many written questions. */
const KEPT_WRITTEN_MAX = 64;

const daySizes = new WeakMap<DuePageCache, LRUCache<string, KeptDaySizes>>();

function daySizesFor(cache: DuePageCache): LRUCache<string, KeptDaySizes> {
  let byUser = daySizes.get(cache);
  if (!byUser) daySizes.set(cache, (byUser = new LRUCache<string, KeptDaySizes>({ max: 20_000 })));
  return byUser;
}

export function keepDaySizes(cache: DuePageCache, userId: string, sizes: KeptDaySizes): void {
  daySizesFor(cache).set(userId, sizes);
}

/**
 * The user's kept sizes if they are of this day and still hold at `now`: reviews due and questions
 * introduced today with the written questions counted as the full statement would count their states
 * now (due-page.service.ts, poolSegments), and the version they are of.
 */
export function keptDaySizesAt(
  cache: DuePageCache,
  userId: string,
  day: { dayStart: number; newLimit: number; now: number },
): Pick<KeptDaySizes, "version" | "reviewed" | "hand" | "ownOlder" | "introduced"> | undefined {
  const kept = daySizes.get(cache)?.get(userId);
  if (!kept) return undefined;
  if (
    kept.dayStart !== day.dayStart ||
    kept.newLimit !== day.newLimit ||
    day.now < kept.countedAt ||
    day.now >= kept.validUntil
  ) {
    return undefined;
  }
  let reviewed = kept.reviewed;
  let introduced = kept.introduced;
  for (const state of kept.written.values()) {
    const due = state.dueAt?.getTime();
    if (state.available && !state.leech && (due === undefined || due <= day.now)) reviewed += 1;
    if (state.introducedAt && state.introducedAt.getTime() >= kept.dayStart) introduced += 1;
  }
  return { version: kept.version, reviewed, hand: kept.hand, ownOlder: kept.ownOlder, introduced };
}

/** How many pages were read with kept sizes, and of them of reviews alone (the tests check that they were). */
export const keptSizePages = { count: 0, reviewsOnly: 0 };

/**
 * Called by the study writer's live path after an answer or a rating of `userId` committed on `db`:
 * the version its statement found, the reviews it wrote, the question, and the user's state of it
 * before and after the write. A write that found another version than the kept one (a write elsewhere came
 * between) ends the entry; else the question leaves the kept counts as the full statement had counted
 * it, and the version moves on by what the write added.
 */
export function noteLiveStudyWrite(
  db: Db,
  userId: string,
  write: {
    versionBefore: string;
    reviewsWritten: number;
    question: Pick<StoredQuestion, "id" | "creatorId" | "byHand" | "createdAt">;
    before: StudyStateRow | null;
    after: StudyStateRow;
  },
): void {
  const cache = caches.get(db);
  if (!cache) return;
  const byUser = daySizes.get(cache);
  const kept = byUser?.get(userId);
  if (!kept) return;
  if (kept.version !== write.versionBefore) {
    byUser!.delete(userId);
    return;
  }
  const { question, before } = write;
  if (!kept.written.has(question.id)) {
    if (kept.written.size >= KEPT_WRITTEN_MAX) {
      byUser!.delete(userId);
      return;
    }
    // As the full statement counted the question (due-page.service.ts, poolSegments).
    if (before) {
      const due = before.dueAt?.getTime();
      if (before.available && !before.leech && (due === undefined || due <= kept.countedAt)) {
        kept.reviewed -= 1;
      }
      if (before.introducedAt && before.introducedAt.getTime() >= kept.dayStart) {
        kept.introduced -= 1;
      }
    } else if (question.creatorId === userId) {
      // An own question never studied: the live path answers only a question with an answer key.
      if (question.byHand && question.createdAt.getTime() >= kept.dayStart) kept.hand -= 1;
      else kept.ownOlder -= 1;
    }
  }
  kept.written.set(question.id, write.after);
  kept.version = versionAfterLiveWrite(write.versionBefore, write.reviewsWritten);
}
