/**
 * The rankings' arithmetic (docs/product/rest-api.md GET /stats/comparative; decision 025): a viewer's
 * ranking among the sharing users, computed over a list (`rankAmong`, the reference) or against a
 * cohort prepared once for every viewer (`rankedCohort`/`rankIn`, decision 433), which gives the same
 * figures to the last digit in logarithmic time plus the stretch of the mean after the viewer.
 */
import { RANKING_MIN_COHORT } from "../../../core/constants";
import { percentileRank } from "../../../core/stats/scores";

export interface Ranking {
  /** False while fewer than 5 other users share their data: every figure below is then null. */
  available: boolean;
  /** The viewer's percentile among the cohort; null when the viewer has not answered anything. */
  percentile: number | null;
  /** Users ranked: the sharing users with answers, plus the viewer when they have answers. */
  totalUsers: number | null;
  /** Mean of the cohort's scores (percent correct), one decimal. */
  averageScore: number | null;
  /** The viewer's own score (percent correct), shown even when rankings are not available. */
  score: number | null;
  /** How many other sharing users are needed before figures are shown. */
  minimumOthers: number;
}

export interface ComparativeData {
  overall: Ranking;
  pgyLevel: Ranking & { level: string };
  timeBasedRanking: Ranking & { period: "week"; days: number; since: string };
}

export interface Scored {
  userId: string;
  pgyLevel: string;
  answered: number;
  correct: number;
}

/** Most answers first; the rankings' mean adds the scores in this order. */
export function byAnswered(members: Scored[]): Scored[] {
  return members.sort(
    (a, b) => b.answered - a.answered || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0),
  );
}

export const scoreOf = (s: Scored) => (s.correct / s.answered) * 100;

/** Too few others: only the viewer's own score. */
const unavailable = (score: number | null): Ranking => ({
  available: false,
  percentile: null,
  totalUsers: null,
  averageScore: null,
  score,
  minimumOthers: RANKING_MIN_COHORT,
});

export function rankAmong(viewerId: string, members: readonly Scored[]): Ranking {
  const viewer = members.find((m) => m.userId === viewerId);
  const others = members.filter((m) => m.userId !== viewerId);
  const score = viewer ? Math.round(scoreOf(viewer)) : null;
  if (others.length < RANKING_MIN_COHORT) {
    return unavailable(score);
  }
  const everyone = viewer ? [...others, viewer] : others;
  const mean = everyone.reduce((sum, m) => sum + scoreOf(m), 0) / everyone.length;
  return {
    available: true,
    percentile: viewer ? percentileRank(scoreOf(viewer), others.map(scoreOf)) : null,
    totalUsers: everyone.length,
    averageScore: Math.round(mean * 10) / 10,
    score,
    minimumOthers: RANKING_MIN_COHORT,
  };
}

/**
 * A cohort (other users' figures, in byAnswered's order) prepared for many viewers: the scores in
 * that order and their running sums (the mean adds the scores in that order, so a sum from them is
 * the one `rankAmong` makes), the finite scores sorted, and each member's place.
 */
export interface RankedCohort {
  readonly members: readonly Scored[];
  readonly scores: Float64Array;
  /** prefix[k]: the sum of the first k scores, added one by one from 0. */
  readonly prefix: Float64Array;
  /** The finite scores, ascending (percentileRank skips the others). */
  readonly sorted: Float64Array;
  /** Each member's places (ascending; one unless a user is listed twice). */
  readonly placesOf: ReadonlyMap<string, number[]>;
  /** The same cohort narrowed to one PGY level, made on first use. */
  readonly levels: Map<string, RankedCohort>;
}

export function rankedCohort(members: readonly Scored[]): RankedCohort {
  const n = members.length;
  const scores = new Float64Array(n);
  const prefix = new Float64Array(n + 1);
  const placesOf = new Map<string, number[]>();
  const finite: number[] = [];
  for (let k = 0; k < n; k++) {
    const m = members[k]!;
    const v = scoreOf(m);
    scores[k] = v;
    prefix[k + 1] = prefix[k]! + v;
    const places = placesOf.get(m.userId);
    if (places) places.push(k);
    else placesOf.set(m.userId, [k]);
    if (Number.isFinite(v)) finite.push(v);
  }
  const sorted = Float64Array.from(finite).sort();
  return { members, scores, prefix, sorted, placesOf, levels: new Map() };
}

/** The members of one PGY level, in the cohort's order. */
export function levelCohort(cohort: RankedCohort, level: string): RankedCohort {
  let narrowed = cohort.levels.get(level);
  if (!narrowed) {
    narrowed = rankedCohort(cohort.members.filter((m) => m.pgyLevel === level));
    cohort.levels.set(level, narrowed);
  }
  return narrowed;
}

/** How many of `sorted` are below `value`, and how many equal it. */
function placeAmong(sorted: Float64Array, value: number): { below: number; equal: number } {
  if (Number.isNaN(value)) return { below: 0, equal: 0 };
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  hi = sorted.length;
  while (end < hi) {
    const mid = (end + hi) >>> 1;
    if (sorted[mid]! <= value) end = mid + 1;
    else hi = mid;
  }
  return { below: lo, equal: end - lo };
}

/**
 * `rankAmong(viewerId, [...cohort members other than the viewer, own])`: the viewer's own figures
 * (`own`, null when they have none) ranked among every other member of the cohort.
 */
export function rankIn(cohort: RankedCohort, viewerId: string, own: Scored | null): Ranking {
  const n = cohort.members.length;
  // rankAmong's filter drops every entry of the viewer from the others.
  const mine = cohort.placesOf.get(viewerId) ?? [];
  const others = n - mine.length;
  const score = own ? Math.round(scoreOf(own)) : null;
  if (others < RANKING_MIN_COHORT) {
    return unavailable(score);
  }
  // The others' scores added in order: the running sum up to the viewer's first place, then on.
  let sum: number;
  if (mine.length === 0) sum = cohort.prefix[n]!;
  else {
    sum = cohort.prefix[mine[0]!]!;
    let skip = 1;
    for (let k = mine[0]! + 1; k < n; k++) {
      if (skip < mine.length && mine[skip] === k) skip++;
      else sum += cohort.scores[k]!;
    }
  }
  let percentile: number | null = null;
  if (own) {
    const value = scoreOf(own);
    let { below, equal } = placeAmong(cohort.sorted, value);
    let size = cohort.sorted.length;
    for (const k of mine) {
      const v = cohort.scores[k]!;
      if (!Number.isFinite(v)) continue;
      size--;
      if (v < value) below--;
      else if (v === value) equal--;
    }
    percentile = size === 0 ? null : Math.round(((below + equal / 2) / size) * 100);
    sum += value;
  }
  const total = others + (own ? 1 : 0);
  return {
    available: true,
    percentile,
    totalUsers: total,
    averageScore: Math.round((sum / total) * 10) / 10,
    score,
    minimumOthers: RANKING_MIN_COHORT,
  };
}
