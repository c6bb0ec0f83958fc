/** PRITE score summaries and rankings. */
import { PERCENTILE_BANDS } from "../constants";

export interface ScoreRecordLike {
  year: string | number;
  overallPercentile: number | null | undefined;
  psychiatryPercentile?: number | null;
  neurosciencePercentile?: number | null;
  somaPercentile?: number | null;
  growthPercentile?: number | null;
}

export const SCORE_SUBJECTS = ["overall", "psychiatry", "neuroscience", "soma", "growth"] as const;
export type ScoreSubject = (typeof SCORE_SUBJECTS)[number];

/** Labels of the summary cells and table columns (docs/product/screens.md Score history). */
export const SCORE_SUBJECT_LABELS: Readonly<Record<ScoreSubject, string>> = {
  overall: "Overall",
  psychiatry: "Psychiatry",
  neuroscience: "Neuroscience",
  soma: "Somatic",
  growth: "Growth",
};

export interface ScoreImprovement {
  title: string;
  fromYear: number;
  toYear: number;
  yearSpan: number;
  /** last − first per subject; null (shown as N/A) unless both endpoints are non-zero numbers. */
  changes: Record<ScoreSubject, number | null>;
}

function subjectValue(record: ScoreRecordLike, subject: ScoreSubject): number | null | undefined {
  return record[`${subject}Percentile`];
}

/**
 * The summary card of the score history: earliest year against latest (docs/product/screens.md and states.md). Null with fewer
 * than 2 records with a readable year. Records of the same year keep their given order.
 */
export function scoreImprovement(records: readonly ScoreRecordLike[]): ScoreImprovement | null {
  const dated = records
    .map((record) => ({ record, year: Number.parseInt(String(record.year), 10) }))
    .filter((r) => Number.isFinite(r.year))
    .sort((a, b) => a.year - b.year);
  const first = dated[0];
  const last = dated.at(-1);
  if (dated.length < 2 || !first || !last) return null;
  const yearSpan = last.year - first.year;
  const changes = {} as Record<ScoreSubject, number | null>;
  for (const subject of SCORE_SUBJECTS) {
    const from = subjectValue(first.record, subject);
    const to = subjectValue(last.record, subject);
    const usable = (v: number | null | undefined): v is number =>
      typeof v === "number" && Number.isFinite(v) && v !== 0;
    changes[subject] = usable(from) && usable(to) ? to - from : null;
  }
  return {
    title: yearSpan === 0 ? "Progress Since First PRITE" : `${yearSpan}-Year Improvement`,
    fromYear: first.year,
    toYear: last.year,
    yearSpan,
    changes,
  };
}

export type PercentileBand = "success" | "primary" | "warning" | "danger";

/** Colour band of a percentile (docs/product/constants.md). */
export function percentileBand(percentile: number): PercentileBand {
  if (percentile >= PERCENTILE_BANDS.SUCCESS) return "success";
  if (percentile >= PERCENTILE_BANDS.PRIMARY) return "primary";
  if (percentile >= PERCENTILE_BANDS.WARNING) return "warning";
  return "danger";
}

/**
 * Where `value` stands in a cohort, as a rounded percent: the share of the cohort strictly below it
 * plus half the share equal to it (the usual "mid-rank" percentile, so a cohort of equals puts
 * everyone at 50 rather than at 0 or 100). The caller decides whether the user is in the cohort.
 * Null for an empty cohort; non-finite cohort values are ignored.
 */
export function percentileRank(value: number, cohortValues: readonly number[]): number | null {
  let below = 0;
  let equal = 0;
  let size = 0;
  for (const v of cohortValues) {
    if (!Number.isFinite(v)) continue;
    size++;
    if (v < value) below++;
    else if (v === value) equal++;
  }
  if (size === 0) return null;
  return Math.round(((below + equal / 2) / size) * 100);
}
