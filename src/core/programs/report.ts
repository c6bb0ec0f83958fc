import { CATEGORIES } from "../constants";
import { toCsv } from "../exams/settings";
import { percentileRank } from "../stats/scores";

/*
 * The program dashboard's pure figures (docs/product/program-dashboard.md, decision 360): heatmap
 * cells, flags, class means and percentiles, and the CSV tables. Isomorphic: the server computes the
 * report with these, the tests recompute it from scratch with them.
 */

/** A heatmap cell, a class mean or a percentile counts a resident's category only from this many answers. */
export const HEATMAP_MIN_ANSWERS = 5;
/** A resident's percentile within their class is shown only when the class has this many residents. */
export const CLASS_MIN_RESIDENTS = 5;
export const DAY_MS = 86_400_000;

/** Accuracy as a percent with one decimal, or null under `minimum` answers. */
export function accuracyPercent(correct: number, answered: number, minimum = 1): number | null {
  if (answered < Math.max(1, minimum)) return null;
  return Math.round((correct / answered) * 1000) / 10;
}

export interface HeatmapCell {
  answered: number;
  /** Percent correct (one decimal); null with fewer than HEATMAP_MIN_ANSWERS answers. */
  accuracy: number | null;
}

export function heatmapCell(answered: number, correct: number): HeatmapCell {
  return { answered, accuracy: accuracyPercent(correct, answered, HEATMAP_MIN_ANSWERS) };
}

export type Flag =
  { kind: "inactive"; days: number } | { kind: "accuracy"; accuracy: number; threshold: number };

export interface FlagInput {
  /** Last activity (an answer or a study session), or null for none. */
  lastActive: Date | null;
  /** When they joined the program: with no activity, inactivity counts from here. */
  joinedAt: Date | null;
  answered: number;
  correct: number;
  now: Date;
  inactiveDays: number;
  /** A fraction, 0-1. */
  accuracyFlag: number;
}

/**
 * Flags of one resident: inactive for `inactiveDays` whole days or more (counted from the join date
 * when they never studied), and accuracy below `accuracyFlag` once they have HEATMAP_MIN_ANSWERS answers.
 */
export function flagsFor(input: FlagInput): Flag[] {
  const flags: Flag[] = [];
  const since = input.lastActive ?? input.joinedAt;
  if (since) {
    const days = Math.floor((input.now.getTime() - since.getTime()) / DAY_MS);
    if (days >= input.inactiveDays) flags.push({ kind: "inactive", days });
  }
  if (
    input.answered >= HEATMAP_MIN_ANSWERS &&
    input.correct / input.answered < input.accuracyFlag
  ) {
    flags.push({
      kind: "accuracy",
      accuracy: accuracyPercent(input.correct, input.answered)!,
      threshold: Math.round(input.accuracyFlag * 1000) / 10,
    });
  }
  return flags;
}

export interface CategoryCount {
  answered: number;
  correct: number;
}

/**
 * Mean of the members' accuracies in one category (percent, one decimal), counting members with at
 * least HEATMAP_MIN_ANSWERS answers there — the rankings' mean of each person's score (decision 360).
 */
export function meanAccuracy(members: readonly (CategoryCount | undefined)[]): {
  mean: number | null;
  members: number;
} {
  let sum = 0;
  let n = 0;
  for (const m of members) {
    if (!m || m.answered < HEATMAP_MIN_ANSWERS) continue;
    sum += m.correct / m.answered;
    n++;
  }
  return { mean: n === 0 ? null : Math.round((sum / n) * 1000) / 10, members: n };
}

/**
 * The viewer's percentile per category within their class: null for the whole card while the class
 * has fewer than CLASS_MIN_RESIDENTS residents; per category, null unless the viewer and at least
 * CLASS_MIN_RESIDENTS - 1 classmates have HEATMAP_MIN_ANSWERS answers there (so it never tells
 * one classmate's standing).
 */
export function classPercentiles(
  viewer: ReadonlyMap<string, CategoryCount>,
  classmates: readonly ReadonlyMap<string, CategoryCount>[],
  categories: readonly string[],
): { category: string; percentile: number | null; classmates: number }[] | null {
  if (classmates.length + 1 < CLASS_MIN_RESIDENTS) return null;
  return categories.map((category) => {
    const own = viewer.get(category);
    const others = classmates
      .map((c) => c.get(category))
      .filter((c): c is CategoryCount => !!c && c.answered >= HEATMAP_MIN_ANSWERS)
      .map((c) => c.correct / c.answered);
    const percentile =
      own && own.answered >= HEATMAP_MIN_ANSWERS && others.length >= CLASS_MIN_RESIDENTS - 1
        ? percentileRank(own.correct / own.answered, others)
        : null;
    return { category, percentile, classmates: others.length };
  });
}

/** The fixed PRITE categories first, in their order, then any others by name. */
export function orderCategories(names: Iterable<string>): string[] {
  const set = new Set(names);
  const fixed = CATEGORIES.filter((c) => set.has(c));
  const rest = [...set].filter((c) => !(CATEGORIES as readonly string[]).includes(c)).sort();
  return [...fixed, ...rest];
}

/** PGY levels in training order ('PGY-1' … 'PGY-5'), unknown ones after, '' last. */
export function comparePgy(a: string, b: string): number {
  const n = (s: string) => {
    const m = /(\d+)/.exec(s);
    return s === "" ? Number.MAX_SAFE_INTEGER : m ? Number(m[1]) : Number.MAX_SAFE_INTEGER - 1;
  };
  return n(a) - n(b) || a.localeCompare(b);
}

// ---------------------------------------------------------------------------------------------------
// CSV (decision 362: one table per request, `?table=roster|heatmap`, roster by default)

export interface RosterCsvRow {
  username: string;
  displayName: string;
  pgyLevel: string;
  lastActive: string | null;
  answered7: number;
  answered30: number;
  answered: number;
  accuracy: number | null;
  dueBacklog: number;
  assignmentsDone: number;
  assignmentsTotal: number;
  flags: readonly Flag[];
}

export function flagText(flag: Flag): string {
  return flag.kind === "inactive"
    ? `inactive ${flag.days} days`
    : `accuracy ${flag.accuracy}% below ${flag.threshold}%`;
}

export function rosterCsv(rows: readonly RosterCsvRow[]): string {
  return toCsv([
    [
      "username",
      "name",
      "pgy",
      "last_active",
      "answered_7d",
      "answered_30d",
      "answered_total",
      "accuracy_percent",
      "due_backlog",
      "assignments_done",
      "assignments_total",
      "flags",
    ],
    ...rows.map((r) => [
      r.username,
      r.displayName,
      r.pgyLevel,
      r.lastActive,
      r.answered7,
      r.answered30,
      r.answered,
      r.accuracy,
      r.dueBacklog,
      r.assignmentsDone,
      r.assignmentsTotal,
      r.flags.map(flagText).join("; "),
    ]),
  ]);
}

/**
 * The heatmap, one row per resident and two columns per category (accuracy, answered); an accuracy
 * cell is empty under HEATMAP_MIN_ANSWERS answers.
 */
export function heatmapCsv(
  categories: readonly string[],
  rows: readonly {
    username: string;
    pgyLevel: string;
    cells: Readonly<Record<string, HeatmapCell>>;
  }[],
): string {
  return toCsv([
    ["username", "pgy", ...categories.flatMap((c) => [`${c} accuracy_percent`, `${c} answered`])],
    ...rows.map((r) => [
      r.username,
      r.pgyLevel,
      ...categories.flatMap((c) => {
        const cell = r.cells[c];
        return [cell?.accuracy ?? null, cell?.answered ?? 0];
      }),
    ]),
  ]);
}
