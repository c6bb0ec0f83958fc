import { MULTIPLE_CORRECT_DEFAULT_COUNT, OPTION_LETTERS } from "@/core/constants";

export interface SelectableQuestion {
  questionType: string;
  numCorrectAnswers: number;
  options: Record<string, string>;
}

/** How many letters must be chosen before Check Answer is enabled (docs/product/states.md). */
export function requiredCount(q: SelectableQuestion): number {
  if (q.questionType !== "multipleCorrect") return 1;
  const n = q.numCorrectAnswers > 0 ? q.numCorrectAnswers : MULTIPLE_CORRECT_DEFAULT_COUNT;
  return n;
}

/**
 * docs/product/states.md Multiple-correct selection: toggling adds or removes a letter; at the required count a new
 * choice drops the oldest one. Single-answer types simply replace the choice. Order is choice order.
 */
export function toggleSelection(
  selected: readonly string[],
  letter: string,
  required: number,
): string[] {
  if (selected.includes(letter)) return selected.filter((l) => l !== letter);
  if (required <= 1) return [letter];
  const next = [...selected, letter];
  return next.length > required ? next.slice(next.length - required) : next;
}

/** Check Answer's label: 'Check Answer' once the selection is valid, else what is missing. */
export function checkLabel(selectedCount: number, required: number): string {
  if (selectedCount === required) return "Check Answer";
  return required === 1 ? "Select an Answer" : `Select ${required} Answers`;
}

/** Options with text, in letter order (docs/product/data.md: empty options are not shown). */
export function visibleOptions(options: Record<string, string>): [string, string][] {
  return OPTION_LETTERS.filter((l) => (options[l] ?? "").trim() !== "").map(
    (l) => [l, options[l]!] as [string, string],
  );
}

/** Fisher–Yates; `random` is injectable for tests. */
export function shuffle<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Session Review's jump buttons: the first 10, then an ellipsis when there are more (docs/product/constants.md). */
export function jumpButtons(total: number, shown = 10): { numbers: number[]; more: boolean } {
  const count = Math.min(total, shown);
  return { numbers: Array.from({ length: count }, (_, i) => i), more: total > shown };
}
