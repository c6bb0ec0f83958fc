import { and, asc, count, eq } from "drizzle-orm";
import { DASHBOARD_TOP_CATEGORIES } from "../../../core/constants";
import {
  categoryLabel,
  computeSessionStats,
  localDayKey,
  percent,
  type SessionStats,
  studyStatsFromRollups,
  type StudyStats,
} from "../../../core/stats";
import type { Db } from "../../db/client";
import { questions, reviews, studySessions } from "../../db/schema";
import { notFound } from "../../errors";
import { masteredCategoryCounts, visibleCategoryCounts } from "../questions/questions.service";
import { countDue, dueByCategory } from "../study/due-page.service";
import { STUDY_SESSION_NOT_FOUND } from "../study/study-writer.service";
import {
  advanceAnswerWindow,
  cohortFromRollups,
  loadStudyRollups,
  nextDueAfter,
  viewerFromRollups,
} from "./rollups";
import { PUBLIC_VERSION_ROW, userVersion, type VersionedCache } from "../../db/user-versions";
import {
  byAnswered,
  levelCohort,
  rankAmong,
  rankedCohort,
  rankIn,
  type ComparativeData,
  type Ranking,
  type RankedCohort,
  type Scored,
} from "./rankings";
import { type CohortCache, statsCachesOf } from "./stats-caches";

export type { ComparativeData } from "./rankings";

export interface CategoryProgress {
  name: string;
  /** Questions the user can see in this category. */
  total: number;
  mastered: number;
  /** mastered / total, rounded (docs/product/constants.md). */
  masteryPercent: number;
  due: number;
  /** Percent of the user's answers in this category that were right; null before any answer. */
  accuracy: number | null;
}

export interface StudySummary extends StudyStats {
  /** Questions the user can study: own plus public (docs/product/product-decisions.md). */
  totalQuestions: number;
  ownQuestions: number;
  dueCount: number;
  masteredCount: number;
  /** Top categories by question count (docs/product/screens.md Category Progress). */
  categoryProgress: CategoryProgress[];
  /** Every category with questions due now, most due first: the Study screen's category choice. */
  dueCategories: { name: string; due: number }[];
  timeZone: string;
}

/**
 * Everything the Dashboard and the Study screen show, from the review log and study states, in the
 * user's time zone: the same on every device. Where buildApp turned the stats caches on, a summary
 * read earlier is answered again while the user's version (drizzle/0023), their day and their due
 * counts are unchanged (decision 260); otherwise, or with `statsOf` (bench/stats-bench.ts's baseline,
 * the whole-log reference of whole-log.ts), it is computed.
 */
export async function studySummary(
  db: Db,
  opts: { userId: string; timeZone: string; now: Date },
  statsOf?: (db: Db, opts: { userId: string; timeZone: string; now: Date }) => Promise<StudyStats>,
): Promise<StudySummary> {
  const cache = statsCachesOf(db)?.summaries as VersionedCache<StudySummary> | undefined;
  if (!cache || statsOf) return computeStudySummary(db, opts, statsOf);
  const { userId, timeZone, now } = opts;
  const key = `${userId} ${timeZone}`;
  const at = now.getTime();
  const dayKey = localDayKey(now, timeZone);
  // Read before the summary: a write committed in between changes the version again, so an entry is
  // never newer-looking than its figures (it can only be refused once too often).
  const version = await userVersion(db, userId);
  const hit = cache.get(key, version, at, dayKey);
  if (hit) return hit;
  const [summary, nextDue] = await Promise.all([
    computeStudySummary(db, opts),
    nextDueAfter(db, { userId, now }),
  ]);
  cache.set(key, { value: summary, version, dayKey, readAt: at, validUntil: nextDue ?? Infinity });
  return summary;
}

/** The summary computed from the database (no cache). */
export async function computeStudySummary(
  db: Db,
  opts: { userId: string; timeZone: string; now: Date },
  statsOf: (
    db: Db,
    opts: { userId: string; timeZone: string; now: Date },
  ) => Promise<StudyStats> = keptStudyStats,
): Promise<StudySummary> {
  const { userId, timeZone, now } = opts;
  // Sent at once: on PostgreSQL they run side by side on the pool's connections (one request waits
  // for the slowest, not for their sum); PGlite runs them one after another as before.
  // Totals per category without counting the public bank (visibleCategoryCounts reads the counts
  // the triggers keep); own questions from the creator index.
  const [stats, visible, ownTotals, masteredBy, dueMap, day] = await Promise.all([
    statsOf(db, opts),
    visibleCategoryCounts(db, userId),
    db
      .select({ category: questions.category, own: count() })
      .from(questions)
      .where(eq(questions.creatorId, userId))
      .groupBy(questions.category),
    masteredCategoryCounts(db, userId),
    dueByCategory(db, { userId, now }),
    // Today's list (issue 34): reviews due and the new questions the day takes.
    countDue(db, { userId, now }),
  ]);
  const totalsBy = new Map<string, { total: number; own: number }>();
  for (const [category, total] of visible) totalsBy.set(category, { total, own: 0 });
  for (const r of ownTotals) {
    const entry = totalsBy.get(r.category) ?? { total: 0, own: 0 };
    entry.own = r.own;
    totalsBy.set(r.category, entry);
  }
  const totals = [...totalsBy].map(([category, t]) => ({ category, ...t }));
  const perCategory = totals.map((t) => ({ ...t, mastered: masteredBy.get(t.category) ?? 0 }));

  // Several stored categories (e.g. '' and 'Uncategorized') read as one label.
  const byLabel = new Map<string, { total: number; own: number; mastered: number; due: number }>();
  for (const row of perCategory) {
    const label = categoryLabel(row.category);
    const entry = byLabel.get(label) ?? { total: 0, own: 0, mastered: 0, due: 0 };
    entry.total += row.total;
    entry.own += row.own;
    entry.mastered += row.mastered;
    byLabel.set(label, entry);
  }
  for (const [category, n] of dueMap) {
    const entry = byLabel.get(categoryLabel(category));
    if (entry) entry.due += n;
  }
  let totalQuestions = 0;
  let ownQuestions = 0;
  let masteredCount = 0;
  for (const entry of byLabel.values()) {
    totalQuestions += entry.total;
    ownQuestions += entry.own;
    masteredCount += entry.mastered;
  }
  const categoryProgress = [...byLabel]
    .sort(([a, x], [b, y]) => y.total - x.total || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, DASHBOARD_TOP_CATEGORIES)
    .map(([name, c]) => {
      const perf = stats.categoryPerformance[name];
      return {
        name,
        total: c.total,
        mastered: c.mastered,
        masteryPercent: percent(c.mastered, c.total),
        due: c.due,
        accuracy: perf ? perf.accuracy : null,
      };
    });

  const dueCategories = [...byLabel]
    .filter(([, c]) => c.due > 0)
    .map(([name, c]) => ({ name, due: c.due }))
    .sort((a, b) => b.due - a.due || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  return {
    ...stats,
    totalQuestions,
    ownQuestions,
    // The size of today's list, as the due list counts it (docs/product/study-plan.md).
    dueCount: day.reviewed + day.fresh,
    masteredCount,
    categoryProgress,
    dueCategories,
    timeZone,
  };
}

/**
 * Study reviews and exam answers alike (decision 170), from the figures kept as they arrive (decision
 * 220): the same numbers as computeStudyStats over the whole log (whole-log.ts, stats-rollups.test.ts).
 */
export async function keptStudyStats(
  db: Db,
  opts: { userId: string; timeZone: string; now: Date },
): Promise<StudyStats> {
  const rollups = await loadStudyRollups(db, opts);
  return studyStatsFromRollups(rollups, opts);
}

/** The Session Complete card, from the answers logged under the session. */
export async function sessionStats(
  db: Db,
  opts: { userId: string; sessionId: string },
): Promise<SessionStats & { sessionId: string; startTime: string; answerTimes: number[] }> {
  const [session] = await db
    .select()
    .from(studySessions)
    .where(and(eq(studySessions.id, opts.sessionId), eq(studySessions.userId, opts.userId)));
  if (!session) throw notFound(STUDY_SESSION_NOT_FOUND);
  const answers = await db
    .select({ isCorrect: reviews.isCorrect, timeSpentMs: reviews.timeSpentMs })
    .from(reviews)
    .where(and(eq(reviews.sessionId, session.id), eq(reviews.userId, opts.userId)))
    .orderBy(asc(reviews.reviewedAt), asc(reviews.id));
  // docs/product/data.md Session stats: startTime and the answer times (ms) besides the counts.
  return {
    ...computeSessionStats(answers),
    sessionId: session.id,
    startTime: session.startedAt.toISOString(),
    answerTimes: answers.map((a) => a.timeSpentMs),
  };
}

// ---------------------------------------------------------------------------------------------------
// Rankings (docs/product/rest-api.md GET /stats/comparative; docs/product/product-decisions.md 'Share Anonymous Usage Data')

/** Days covered by the time-based ranking: a rolling week, the same for every time zone. */
export const RANKING_WINDOW_DAYS = 7;

/**
 * Real rankings only: the cohort is every user who turned on 'Share Anonymous Usage Data' and has
 * answered at least one question, plus the viewer. Score = percent of answers correct. With fewer
 * than 5 others in a cohort nothing but the viewer's own score is returned (decision 025).
 */
export async function comparativeStats(
  db: Db,
  opts: { userId: string; pgyLevel: string; now: Date },
): Promise<ComparativeData> {
  const since = rankingSince(opts.now);
  const caches = statsCachesOf(db);
  const cache = caches?.cohort as CohortCache<SortedCohort> | null | undefined;
  if (caches && cache) {
    // Other users' figures as read at most RANKING_COHORT_SECONDS ago, the viewer's own as of now
    // (decision 260): kept while their version holds, so the viewer always sees their answers counted.
    const [others, viewer] = await Promise.all([
      // A background read (decision 438) is of its own moment's week.
      cache.get(opts.now.getTime(), (at) => sortedCohort(db, rankingSince(new Date(at)))),
      keptViewer(db, caches.viewers as VersionedCache<KeptViewer>, opts.userId, opts.now),
    ]);
    let ranked = viewer.ranked;
    if (!ranked || ranked.others !== others || ranked.pgyLevel !== opts.pgyLevel) {
      // rankingsInOrder's figures over the prepared cohort, without a pass over it (decision 433).
      const { userId, pgyLevel } = opts;
      const level = pgyLevel ? levelCohort(others.allTime, pgyLevel) : NOBODY;
      const data = comparative(
        { pgyLevel, since },
        {
          overall: rankIn(others.allTime, userId, viewer.allTime),
          level: rankIn(level, userId, viewer.allTime),
          week: rankIn(others.week, userId, viewer.week),
        },
      );
      ranked = viewer.ranked = { others, pgyLevel, data };
    }
    const { data } = ranked;
    // The same rankings until the cohort or the viewer's figures change; only the week's start moves.
    return {
      ...data,
      timeBasedRanking: { ...data.timeBasedRanking, since: since.toISOString() },
    };
  }
  // Study reviews and exam answers alike (decision 170), from the kept figures (decision 220).
  const cohort = await cohortFromRollups(db, { viewerId: opts.userId, since });
  await advanceAnswerWindow(db, { since, windowStart: cohort.windowStart });
  return rankings({ ...opts, since, allTime: cohort.allTime, week: cohort.since });
}

/** The sharing users, most answers first (byAnswered), prepared for every viewer's ranking. */
interface SortedCohort {
  allTime: RankedCohort;
  week: RankedCohort;
}

/** No other user: what a viewer without a PGY level is ranked among in their level. */
const NOBODY = rankedCohort([]);

interface KeptViewer {
  allTime: Scored | null;
  week: Scored | null;
  /** The rankings last computed with these figures, against that cohort and level. */
  ranked?: { others: SortedCohort; pgyLevel: string; data: ComparativeData };
}

/**
 * The viewer's own ranking figures, kept while their version (drizzle/0023: their reviews, exam
 * answers and exams) holds and until their oldest answer of the week leaves it.
 */
async function keptViewer(
  db: Db,
  cache: VersionedCache<KeptViewer>,
  userId: string,
  now: Date,
): Promise<KeptViewer> {
  const at = now.getTime();
  const version = await userVersion(db, userId);
  const hit = cache.get(userId, version, at, "");
  if (hit) return hit;
  const since = rankingSince(now);
  const own = await viewerFromRollups(db, { viewerId: userId, since });
  const value: KeptViewer = { allTime: own.allTime, week: own.since };
  // The week's figures change with time alone when the oldest answer in it is older than the week.
  const validUntil =
    own.oldestInWeek === null ? Infinity : own.oldestInWeek + RANKING_WINDOW_DAYS * 86_400_000 + 1;
  cache.set(userId, { value, version, dayKey: "", readAt: at, validUntil });
  return value;
}

/** The sharing users' figures for the cache: no viewer (PUBLIC_VERSION_ROW is nobody's id). */
async function sortedCohort(db: Db, since: Date): Promise<SortedCohort> {
  const cohort = await cohortFromRollups(db, { viewerId: PUBLIC_VERSION_ROW, since });
  await advanceAnswerWindow(db, { since, windowStart: cohort.windowStart });
  return {
    allTime: rankedCohort(byAnswered(cohort.allTime)),
    week: rankedCohort(byAnswered(cohort.since)),
  };
}

/** Where the week ranking starts for a request at `now`. */
export function rankingSince(now: Date): Date {
  return new Date(now.getTime() - RANKING_WINDOW_DAYS * 86_400_000);
}

/** The viewer, their level, the week's start, and the cohort's all-time and weekly figures. */
interface RankingInput {
  userId: string;
  pgyLevel: string;
  since: Date;
  allTime: Scored[];
  week: Scored[];
}

/** The three rankings from the cohort's all-time and weekly figures (any order). */
export function rankings(opts: RankingInput): ComparativeData {
  return rankingsInOrder({
    ...opts,
    allTime: byAnswered(opts.allTime),
    week: byAnswered(opts.week),
  });
}

/**
 * The three rankings from lists in which every member but the viewer is in byAnswered's order: the
 * viewer's place does not matter (rankAmong keeps the others' order and adds the viewer last).
 */
function rankingsInOrder(opts: RankingInput): ComparativeData {
  const { userId, pgyLevel, allTime, week } = opts;
  const sameLevel = pgyLevel
    ? allTime.filter((m) => m.pgyLevel === pgyLevel || m.userId === userId)
    : allTime.filter((m) => m.userId === userId);
  return comparative(opts, {
    overall: rankAmong(userId, allTime),
    level: rankAmong(userId, sameLevel),
    week: rankAmong(userId, week),
  });
}

/** The answer's shape around the three rankings. */
function comparative(
  opts: { pgyLevel: string; since: Date },
  ranked: { overall: Ranking; level: Ranking; week: Ranking },
): ComparativeData {
  return {
    overall: ranked.overall,
    pgyLevel: { ...ranked.level, level: opts.pgyLevel },
    timeBasedRanking: {
      ...ranked.week,
      period: "week",
      days: RANKING_WINDOW_DAYS,
      since: opts.since.toISOString(),
    },
  };
}
