/**
 * An exam's score report (issue 16 item 3). Each answer's correctness is decided when it is given, by
 * the study rule (../correctness: a multiple-correct question is right only with every answer), and
 * stored with it, as a review's is: `isItemCorrect` is that decision.
 */
import { isCorrectSelection } from "../correctness";
import { categoryLabel, percent } from "../stats";

export interface ScoredItem {
  questionId: string;
  category: string;
  answered: boolean;
  isCorrect: boolean;
  timeSpentMs: number;
}

export interface CategoryResult {
  category: string;
  total: number;
  correct: number;
  answered: number;
  /** Rounded percent of the category's questions answered right (unanswered count as wrong). */
  percent: number;
  timeSpentMs: number;
  averageMs: number;
}

export interface ExamScore {
  total: number;
  answered: number;
  correct: number;
  percent: number;
  timeSpentMs: number;
  /** Over every question of the exam, answered or not. */
  averageMsPerQuestion: number;
  categories: CategoryResult[];
  /** Highest average time per question; null for an empty exam. */
  slowestCategory: string | null;
  /** Most questions missed (wrong or unanswered), then lowest percent; null when nothing was missed. */
  mostMissedCategory: string | null;
}

/** An answer to an exam question is right by the study rule; nothing selected is never right. */
export function isItemCorrect(selected: readonly string[] | null, key: readonly string[]): boolean {
  return selected !== null && selected.length > 0 && isCorrectSelection(selected, key);
}

const average = (sum: number, n: number) => (n > 0 ? Math.round(sum / n) : 0);

export function scoreExam(items: readonly ScoredItem[]): ExamScore {
  const byCategory = new Map<string, CategoryResult>();
  let correct = 0;
  let answered = 0;
  let timeSpentMs = 0;
  for (const item of items) {
    const label = categoryLabel(item.category);
    let row = byCategory.get(label);
    if (!row) {
      row = {
        category: label,
        total: 0,
        correct: 0,
        answered: 0,
        percent: 0,
        timeSpentMs: 0,
        averageMs: 0,
      };
      byCategory.set(label, row);
    }
    const right = item.answered && item.isCorrect;
    row.total += 1;
    row.timeSpentMs += item.timeSpentMs;
    timeSpentMs += item.timeSpentMs;
    if (item.answered) {
      row.answered += 1;
      answered += 1;
    }
    if (right) {
      row.correct += 1;
      correct += 1;
    }
  }
  const categories = [...byCategory.values()]
    .map((row) => ({
      ...row,
      percent: percent(row.correct, row.total),
      averageMs: average(row.timeSpentMs, row.total),
    }))
    .sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
  const slowest = [...categories].sort((a, b) => b.averageMs - a.averageMs)[0];
  const missed = categories
    .filter((c) => c.total > c.correct)
    .sort((a, b) => b.total - b.correct - (a.total - a.correct) || a.percent - b.percent)[0];
  return {
    total: items.length,
    answered,
    correct,
    percent: percent(correct, items.length),
    timeSpentMs,
    averageMsPerQuestion: average(timeSpentMs, items.length),
    categories,
    slowestCategory: slowest && slowest.timeSpentMs > 0 ? slowest.category : null,
    mostMissedCategory: missed ? missed.category : null,
  };
}
