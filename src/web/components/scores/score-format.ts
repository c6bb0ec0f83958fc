import {
  percentileBand,
  SCORE_SUBJECTS,
  type PercentileBand,
  type ScoreSubject,
} from "@/core/stats";
import { TRPCClientError } from "@trpc/client";
import { errorMessage, type RouterOutputs } from "@/web/lib/trpc";

export type PriteScore = RouterOutputs["scores"]["list"][number];

/** Table cell in docs/product/screens.md: 'n%', or '-' for a missing or zero optional score. */
export function formatPercentile(
  value: number | null | undefined,
  opts: { optional?: boolean } = {},
) {
  if (value === null || value === undefined) return "-";
  if (opts.optional && value === 0) return "-";
  return `${value}%`;
}

/** Summary cell in docs/product/screens.md: '+n', '-n' (or '0'), or 'N/A' when it cannot be computed. */
export function formatChange(change: number | null): string {
  if (change === null) return "N/A";
  return change > 0 ? `+${change}` : String(change);
}

/** Green for a gain, red for a loss, grey for no change or N/A. */
export function changeClass(change: number | null): string {
  if (change === null || change === 0) return "text-muted-foreground";
  return change > 0 ? "text-success" : "text-destructive";
}

/** The colour of each percentile band (docs/product/constants.md): ≥80 success, ≥50 primary, ≥30 warning, below danger. */
export const BAND_COLORS: Readonly<Record<PercentileBand, string>> = {
  success: "var(--success)",
  primary: "var(--primary)",
  warning: "var(--warning)",
  danger: "var(--destructive)",
};

export const BAND_TEXT_CLASSES: Readonly<Record<PercentileBand, string>> = {
  success: "text-success",
  primary: "text-primary",
  warning: "text-warning",
  danger: "text-destructive",
};

export function bandColor(percentile: number): string {
  return BAND_COLORS[percentileBand(percentile)];
}

export function bandTextClass(percentile: number): string {
  return BAND_TEXT_CLASSES[percentileBand(percentile)];
}

/**
 * Keeps only integers 0-99 as the user types (docs/product/validation.md: other input is ignored): returns the new text,
 * or the previous one when the keystroke would make it invalid.
 */
export function acceptPercentileInput(next: string, previous: string): string {
  const trimmed = next.trim();
  if (trimmed === "") return "";
  if (!/^\d{1,2}$/.test(trimmed)) return previous;
  return String(Number(trimmed));
}

/** Entry order within one year: as entered, the id breaking ties as the server does. */
const entryOrder = (a: PriteScore, b: PriteScore) =>
  a.createdAt.localeCompare(b.createdAt) || a._id.localeCompare(b._id);

/** Records sorted oldest exam first; one year's records keep the order they were entered in. */
export function byYearAscending(scores: readonly PriteScore[]): PriteScore[] {
  return [...scores].sort(
    (a, b) => Number.parseInt(a.year, 10) - Number.parseInt(b.year, 10) || entryOrder(a, b),
  );
}

/**
 * The Score History table's order, the same as the server's list (decision 043): newest year first,
 * one year's records in the order they were entered.
 */
export function byYearNewestFirst(scores: readonly PriteScore[]): PriteScore[] {
  return [...scores].sort(
    (a, b) => Number.parseInt(b.year, 10) - Number.parseInt(a.year, 10) || entryOrder(a, b),
  );
}

/** docs/product/errors.md's defaults for the score calls, used when the server gives no message of its own. */
export const SCORE_CALL_DEFAULTS = {
  FETCH_ALL: "Failed to fetch PRITE scores",
  CREATE: "Failed to create PRITE score",
  UPDATE: "Failed to update PRITE score",
  DELETE: "Failed to delete PRITE score",
} as const;

/**
 * What a score screen says when an action fails (decision 077): the server's message when it gave
 * one; the call's default when the call failed without one (unreachable server, a 500); the screen's
 * own text ('Failed to save PRITE scores', 'Failed to delete score record') for a failure outside
 * the call.
 */
export function scoreFailureText(error: unknown, callDefault: string, screenText: string): string {
  return error instanceof TRPCClientError ? errorMessage(error, callDefault) : screenText;
}

export type ChartRow = { year: number } & Partial<Record<ScoreSubject, number>>;

/**
 * One point per year: the latest record entered for that year. Optional subjects that are missing
 * or zero are left out (the table shows them as '-'), so a line never dives to 0 for "not entered".
 */
export function chartRows(scores: readonly PriteScore[]): ChartRow[] {
  const byYear = new Map<number, ChartRow>();
  for (const score of byYearAscending(scores)) {
    const year = Number.parseInt(score.year, 10);
    const row: ChartRow = { year, overall: score.overallPercentile };
    for (const subject of SCORE_SUBJECTS) {
      if (subject === "overall") continue;
      const value = score[`${subject}Percentile`];
      if (typeof value === "number" && value !== 0) row[subject] = value;
    }
    byYear.set(year, row);
  }
  return [...byYear.values()];
}
