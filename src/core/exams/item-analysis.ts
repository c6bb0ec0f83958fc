/**
 * Classical item analysis of a mock exam (issue 16 item 6): for each question the share of takers who
 * got it right (its p-value), the share who chose each option, and its point-biserial discrimination
 * (how well getting it right goes with a high total score).
 */
import { isCorrectSelection } from "../correctness";

export interface AnalysedQuestion {
  questionId: string;
  key: readonly string[];
  /** The question's option letters, so options nobody chose show 0. */
  options: readonly string[];
}

export interface TakerAnswers {
  /** Selected letters by question id; a question missing or null was not answered. */
  answers: ReadonlyMap<string, readonly string[] | null>;
}

export interface ItemStatistics {
  questionId: string;
  takers: number;
  /** Share (0-1) answering right; null with no takers. */
  pValue: number | null;
  /** Share (0-1) of takers who selected each option (a multiple-correct answer counts for each letter). */
  optionShares: Record<string, number>;
  /** Share of takers who left it unanswered. */
  unansweredShare: number;
  /**
   * Point-biserial correlation between right on this item (0/1) and the total score; null when it is
   * undefined: fewer than two takers, everyone right or everyone wrong, or every total the same.
   */
  discrimination: number | null;
}

export interface ScoreSpread {
  count: number;
  mean: number | null;
  /** Population standard deviation; null with no scores. */
  standardDeviation: number | null;
  min: number | null;
  max: number | null;
  median: number | null;
}

export function scoreSpread(scores: readonly number[]): ScoreSpread {
  const n = scores.length;
  if (n === 0) {
    return { count: 0, mean: null, standardDeviation: null, min: null, max: null, median: null };
  }
  const mean = scores.reduce((s, x) => s + x, 0) / n;
  const variance = scores.reduce((s, x) => s + (x - mean) ** 2, 0) / n;
  const sorted = [...scores].sort((a, b) => a - b);
  const mid = Math.floor(n / 2);
  const median = n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return {
    count: n,
    mean,
    standardDeviation: Math.sqrt(variance),
    min: sorted[0]!,
    max: sorted[n - 1]!,
    median,
  };
}

/** r_pb = (M₁ − M₀) / s · √(p·q), s the population SD of the totals; null where any factor is undefined. */
export function pointBiserial(right: readonly boolean[], totals: readonly number[]): number | null {
  const n = right.length;
  if (n < 2 || totals.length !== n) return null;
  const spread = scoreSpread(totals);
  const s = spread.standardDeviation ?? 0;
  // Float noise can leave a tiny s for identical totals: treat it as no spread at all.
  if (!(s > 1e-12)) return null;
  let sumRight = 0;
  let sumWrong = 0;
  let nRight = 0;
  for (let i = 0; i < n; i++) {
    if (right[i]) {
      sumRight += totals[i]!;
      nRight += 1;
    } else sumWrong += totals[i]!;
  }
  const nWrong = n - nRight;
  if (nRight === 0 || nWrong === 0) return null;
  const p = nRight / n;
  const r = ((sumRight / nRight - sumWrong / nWrong) / s) * Math.sqrt(p * (1 - p));
  return Number.isFinite(r) ? Math.max(-1, Math.min(1, r)) : null;
}

export interface ItemAnalysis {
  /** Each taker's number right, in the order given. */
  totals: number[];
  items: ItemStatistics[];
}

export function analyseItems(
  questions: readonly AnalysedQuestion[],
  takers: readonly TakerAnswers[],
): ItemAnalysis {
  const rightBy = questions.map((q) =>
    takers.map((t) => {
      const selected = t.answers.get(q.questionId);
      return selected != null && isCorrectSelection(selected, q.key);
    }),
  );
  const totals = takers.map((_, ti) => rightBy.reduce((sum, col) => sum + (col[ti] ? 1 : 0), 0));
  const n = takers.length;
  const items = questions.map((q, qi) => {
    const chose: Record<string, number> = Object.fromEntries(q.options.map((l) => [l, 0]));
    let unanswered = 0;
    for (const t of takers) {
      const selected = t.answers.get(q.questionId);
      if (selected == null || selected.length === 0) {
        unanswered += 1;
        continue;
      }
      for (const letter of new Set(selected.map((l) => l.toUpperCase()))) {
        chose[letter] = (chose[letter] ?? 0) + 1;
      }
    }
    const right = rightBy[qi]!;
    const nRight = right.filter(Boolean).length;
    return {
      questionId: q.questionId,
      takers: n,
      pValue: n > 0 ? nRight / n : null,
      optionShares: Object.fromEntries(
        Object.entries(chose).map(([l, c]) => [l, n > 0 ? c / n : 0]),
      ),
      unansweredShare: n > 0 ? unanswered / n : 0,
      discrimination: pointBiserial(right, totals),
    };
  });
  return { totals, items };
}
