import { yearChoices } from "@/core/constants";

/**
 * The year a new import starts with. Apart from question-fields (Radix Select) so the Import page's
 * first chunk, which only needs the year, stays small (issue 35 item 2, decision 421).
 */
export function defaultYear(now: Date = new Date()): number {
  return yearChoices(now)[0] ?? now.getFullYear();
}
