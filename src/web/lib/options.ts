import {
  PGY_LEVELS,
  PRITE_PARTS,
  SPECIALTIES,
  yearChoices,
  type PritePart,
} from "@/core/constants";
import type { SelectOption } from "@/web/components/ui/select";

/**
 * The choices the screens offer, built from src/core/constants.ts so that a form offers exactly the
 * values the server takes. The value is what the server stores; the label is what the screen shows.
 */

/** The exam's two parts, "Part 1" and "Part 2". */
export const PART_OPTIONS: readonly { value: PritePart; label: string }[] = PRITE_PARTS.map(
  (part) => ({ value: part, label: `Part ${part}` }),
);

/** docs/product/data.md: registration PGY choices. */
export const PGY_LEVEL_OPTIONS: readonly SelectOption[] = PGY_LEVELS.map(({ value, label }) => ({
  value,
  label,
}));

export const SPECIALTY_OPTIONS: readonly SelectOption[] = SPECIALTIES.map((s) => ({
  value: s,
  label: s,
}));

/** A select's value as a part: anything but "2" is Part 1, the default of every form. */
export const partOf = (value: string): PritePart => (value === "2" ? "2" : "1");

/** docs/product/product-decisions.md: every year picker offers the current year back to 2020, newest first (and `extraYear`). */
export function yearOptions(now: Date, extraYear?: number | null): SelectOption[] {
  return yearChoices(now, extraYear).map((year) => ({ value: String(year), label: String(year) }));
}
