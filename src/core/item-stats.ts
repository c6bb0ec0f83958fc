/**
 * Item statistics of one question (issue 36 item 5, docs/product/item-statistics.md): the sums the
 * server keeps as answers arrive (drizzle's item_stats triggers), and what the panel and Browse show
 * from them. Pure: no server or database imports.
 */

/** Exam attempts a question needs before its discrimination is shown (decision 392): below it "—". */
export const ITEM_STATS_MIN_EXAMS = 5;
/** Answers a question needs before Browse's "most missed" lists it (decision 393). */
export const ITEM_STATS_MIN_ANSWERED = 5;
/** Browse's filters over item statistics. */
export const ITEM_STATS_FILTERS = ["mostMissed", "negativeDiscrimination", "reported"] as const;
export type ItemStatsFilter = (typeof ITEM_STATS_FILTERS)[number];

/**
 * The kept sums of one question. `answered`, `correct`, `timeMsSum` and `picks` count every counted
 * answer (study reviews outside exam lapse records, and answers of finished exams: decision 170).
 * The exam sums are over (x, y) pairs, one per question of each finished exam attempt: x = 1 when the
 * question was answered right, y = the attempt's rest score, the share right of its other questions
 * (decision 391).
 */
export interface ItemSums {
  answered: number;
  correct: number;
  timeMsSum: number;
  /** Answers that chose each option letter (a multiple-answer question's answer chooses several). */
  picks: Record<string, number>;
  examN: number;
  examSx: number;
  examSy: number;
  examSyy: number;
  examSxy: number;
}

/** What the statistics panel shows. Shares are 0..1; null where there is nothing to divide. */
export interface ItemStatsView {
  answered: number;
  correct: number;
  shareCorrect: number | null;
  meanTimeMs: number | null;
  /** Every option letter of the question, and any other letter answers chose, in letter order. */
  options: { letter: string; picks: number; share: number | null }[];
  /** Residents who found the question a leech (issue 34's leech marks). */
  leeches: number;
  /** Finished exam attempts that held the question. */
  examAttempts: number;
  /** Point-biserial discrimination; null below {@link ITEM_STATS_MIN_EXAMS} attempts or when undefined. */
  discrimination: number | null;
}

/** What a Browse card shows beside a question listed by a statistics filter. */
export interface ItemStatsBrief {
  answered: number;
  shareCorrect: number | null;
  discrimination: number | null;
  examAttempts: number;
}

export const EMPTY_SUMS: ItemSums = {
  answered: 0,
  correct: 0,
  timeMsSum: 0,
  picks: {},
  examN: 0,
  examSx: 0,
  examSy: 0,
  examSyy: 0,
  examSxy: 0,
};

/**
 * The Pearson correlation of x and y from their sums, which for a 0/1 x is the point-biserial
 * correlation: r = (nΣxy − ΣxΣy) / sqrt((nΣx² − (Σx)²)(nΣy² − (Σy)²)), with Σx² = Σx for 0/1 scores.
 * Null when either variance is 0 (everyone right, everyone wrong, or every rest score equal): the
 * correlation is undefined there, not 0. Sums of floating-point rest scores carry rounding, so a
 * variance within rounding of 0 counts as 0 and the result is clamped to [-1, 1].
 */
export function pointBiserialFromSums(s: {
  n: number;
  sx: number;
  sy: number;
  syy: number;
  sxy: number;
}): number | null {
  const { n, sx, sy, syy, sxy } = s;
  if (n < 2) return null;
  const vx = n * sx - sx * sx;
  const vy = n * syy - sy * sy;
  const eps = 1e-9 * Math.max(1, n * n);
  if (vx <= 0 || vy <= eps) return null;
  const r = (n * sxy - sx * sy) / Math.sqrt(vx * vy);
  return Math.max(-1, Math.min(1, r));
}

/** The Pearson correlation computed directly from the pairs (two passes): the sums' oracle. */
export function pearson(pairs: readonly { x: number; y: number }[]): number | null {
  const n = pairs.length;
  if (n < 2) return null;
  const mx = pairs.reduce((a, p) => a + p.x, 0) / n;
  const my = pairs.reduce((a, p) => a + p.y, 0) / n;
  let cov = 0;
  let vx = 0;
  let vy = 0;
  for (const p of pairs) {
    cov += (p.x - mx) * (p.y - my);
    vx += (p.x - mx) ** 2;
    vy += (p.y - my) ** 2;
  }
  if (vx <= 0 || vy <= 1e-12) return null;
  return Math.max(-1, Math.min(1, cov / Math.sqrt(vx * vy)));
}

/**
 * An attempt's rest score for one question: the share right of the attempt's other questions, from
 * the attempt's count right (`exams.correct_count`) and length (`exams.question_count`). Null for an
 * attempt of one question, which has no rest.
 */
export function restScore(correctCount: number, questionCount: number, x: 0 | 1): number | null {
  if (questionCount < 2) return null;
  return (correctCount - x) / (questionCount - 1);
}

/** The panel's figures from the kept sums, the question's option letters and its leech count. */
export function itemStatsView(
  sums: ItemSums,
  optionLetters: readonly string[],
  leeches: number,
): ItemStatsView {
  const letters = new Set(optionLetters.map((l) => l.toUpperCase()));
  for (const [letter, n] of Object.entries(sums.picks)) if (n > 0) letters.add(letter);
  const options = [...letters].sort().map((letter) => {
    const picks = sums.picks[letter] ?? 0;
    return { letter, picks, share: sums.answered > 0 ? picks / sums.answered : null };
  });
  const r =
    sums.examN >= ITEM_STATS_MIN_EXAMS
      ? pointBiserialFromSums({
          n: sums.examN,
          sx: sums.examSx,
          sy: sums.examSy,
          syy: sums.examSyy,
          sxy: sums.examSxy,
        })
      : null;
  return {
    answered: sums.answered,
    correct: sums.correct,
    shareCorrect: sums.answered > 0 ? sums.correct / sums.answered : null,
    meanTimeMs: sums.answered > 0 ? sums.timeMsSum / sums.answered : null,
    options,
    leeches,
    examAttempts: sums.examN,
    discrimination: r,
  };
}

/** A share as a whole percent, "—" for none (the panel and the CLI write it so). */
export function formatShare(share: number | null): string {
  return share === null ? "—" : `${Math.round(share * 100)}%`;
}

/** Discrimination to two decimals, "—" when it is not shown. */
export function formatDiscrimination(r: number | null): string {
  return r === null ? "—" : r.toFixed(2);
}
