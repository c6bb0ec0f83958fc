import type { Difficulty } from "@/core/constants";

/** How long until a card comes back, in the words of the rating buttons ("in 3 days"). */
export function formatInterval(days: number): string {
  if (days < 1) return "today";
  if (days === 1) return "in 1 day";
  if (days < 30) return `in ${days} days`;
  if (days < 365) return `in ${Math.round(days / 3.044) / 10} months`;
  return `in ${Math.round(days / 36.525) / 10} years`;
}

/** The interval a rating button gives, from the answer's `nextIntervals`. */
export function intervalOf(
  next: { hard: number; good: number; easy: number },
  difficulty: Difficulty,
): number {
  return difficulty === 0 ? next.hard : difficulty === 1 ? next.good : next.easy;
}
