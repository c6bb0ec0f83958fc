import { Check } from "lucide-react";
import { CATEGORIES } from "@/core/constants";
import { LETTERS, type Letter, type Options } from "@/core/import/types";
import { Badge } from "@/web/components/ui/badge";
import { OptionSelect, type SelectOption } from "@/web/components/ui/select";
import { PART_OPTIONS, partOf, yearOptions } from "@/web/lib/options";
import { cn } from "@/web/lib/utils";

/**
 * Pieces shared by the three ways questions come in (bulk file import, Capture, the paste-based
 * Question import at /test). Every question and option text is rendered as React text, never as HTML.
 */

export { defaultYear } from "./default-year";

/** Radix reserves '' for "nothing chosen", so an explicit "none" entry needs a value of its own. */
export const NONE_VALUE = "__none__";

interface PartYearProps {
  idPrefix: string;
  part: "1" | "2";
  year: number;
  onPartChange: (part: "1" | "2") => void;
  onYearChange: (year: number) => void;
  partLabel?: string;
  yearLabel?: string;
  disabled?: boolean;
}

/** Part and Year side by side (stacked on the narrowest phones). */
export function PartYearFields({
  idPrefix,
  part,
  year,
  onPartChange,
  onYearChange,
  partLabel = "PRITE Part",
  yearLabel = "PRITE Year",
  disabled,
}: PartYearProps) {
  const years = yearOptions(new Date());
  if (!years.some((o) => o.value === String(year))) {
    years.push({ value: String(year), label: String(year) });
  }
  return (
    <div className="grid grid-cols-1 gap-4 min-[360px]:grid-cols-2">
      <div className="grid gap-2">
        <label htmlFor={`${idPrefix}-part`} className="text-sm font-medium">
          {partLabel}
        </label>
        <OptionSelect
          id={`${idPrefix}-part`}
          value={part}
          onValueChange={(v) => onPartChange(partOf(v))}
          options={PART_OPTIONS}
          disabled={disabled}
        />
      </div>
      <div className="grid gap-2">
        <label htmlFor={`${idPrefix}-year`} className="text-sm font-medium">
          {yearLabel}
        </label>
        <OptionSelect
          id={`${idPrefix}-year`}
          value={String(year)}
          onValueChange={(v) => onYearChange(Number(v))}
          options={years}
          disabled={disabled}
        />
      </div>
    </div>
  );
}

interface CategorySelectProps {
  id: string;
  value: string;
  onChange: (category: string) => void;
  /** The entry meaning "no category" (docs/product/screens.md Question import: '-- Select a category --'). */
  noneLabel?: string;
  "aria-label"?: string;
}

/** The fixed category list in docs/product/data.md; a category the parser found outside it is offered too. */
export function CategorySelect({
  id,
  value,
  onChange,
  noneLabel = "Uncategorized",
  "aria-label": ariaLabel,
}: CategorySelectProps) {
  const options: SelectOption[] = [
    { value: NONE_VALUE, label: noneLabel },
    ...CATEGORIES.map((c) => ({ value: c, label: c })),
  ];
  if (value && !(CATEGORIES as readonly string[]).includes(value)) {
    options.push({ value, label: value });
  }
  return (
    <OptionSelect
      id={id}
      aria-label={ariaLabel}
      value={value || NONE_VALUE}
      onValueChange={(v) => onChange(v === NONE_VALUE ? "" : v)}
      options={options}
    />
  );
}

/** The letters that have text, in order (docs/product/data.md: empty options are not shown). */
export function filledLetters(options: Partial<Record<string, string>>): Letter[] {
  return LETTERS.filter((letter) => (options[letter] ?? "").trim() !== "");
}

interface OptionPickerProps {
  options: Options;
  correctAnswer: string;
  /** Called with the clicked letter; clicking the marked one again clears it. */
  onChange: (answer: "" | Letter) => void;
  /** Names the group for screen readers, e.g. "Answer options for question 3". */
  label: string;
}

/**
 * Answer options as buttons: click (or Enter/Space) marks one correct. A radio group in ARIA terms,
 * each option a 44 px tall target for thumbs.
 */
export function OptionPicker({ options, correctAnswer, onChange, label }: OptionPickerProps) {
  const letters = filledLetters(options);
  if (letters.length === 0) {
    return <p className="text-sm text-muted-foreground">No answer options were found.</p>;
  }
  return (
    <div role="radiogroup" aria-label={label} className="grid gap-2">
      {letters.map((letter) => {
        const selected = correctAnswer === letter;
        return (
          <button
            key={letter}
            type="button"
            role="radio"
            aria-checked={selected}
            onClick={() => onChange(selected ? "" : letter)}
            className={cn(
              "flex min-h-11 w-full items-start gap-3 rounded-md border px-3 py-2 text-left text-sm transition-colors",
              "outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1",
              selected
                ? "border-success bg-success-soft text-success-soft-foreground"
                : "border-border bg-card hover:bg-accent",
            )}
          >
            <span
              aria-hidden="true"
              className={cn(
                "flex size-6 shrink-0 items-center justify-center rounded-full border text-xs font-semibold",
                selected ? "border-success bg-success text-white" : "border-input",
              )}
            >
              {selected ? <Check className="size-3.5" /> : letter}
            </span>
            <span className="min-w-0 flex-1 break-words whitespace-pre-wrap">
              <span className="sr-only">{letter}. </span>
              {options[letter]}
            </span>
          </button>
        );
      })}
    </div>
  );
}

/** Read-only options with the correct one highlighted (previews, the duplicate comparison). */
export function OptionList({
  options,
  correctAnswer,
  className,
}: {
  options: Partial<Record<string, string>>;
  correctAnswer: string;
  className?: string;
}) {
  const letters = filledLetters(options);
  if (letters.length === 0) return null;
  return (
    <ul className={cn("grid gap-1.5", className)}>
      {letters.map((letter) => {
        const correct = correctAnswer === letter;
        return (
          <li
            key={letter}
            className={cn(
              "flex items-start gap-2 rounded-md border px-3 py-1.5 text-sm",
              correct
                ? "border-success bg-success-soft font-medium text-success-soft-foreground"
                : "border-border",
            )}
          >
            <span className="font-semibold">{letter}.</span>
            <span className="min-w-0 flex-1 break-words whitespace-pre-wrap">
              {options[letter]}
            </span>
            {correct && (
              <>
                <Check className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span className="sr-only">(correct answer)</span>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** 'Answer: B' in green, or 'No answer' in amber, so unanswered questions stand out in a long list. */
export function AnswerBadge({ answer }: { answer: string }) {
  return answer ? (
    <Badge variant="success">Answer: {answer}</Badge>
  ) : (
    <Badge variant="warning">No answer</Badge>
  );
}

interface ChoiceRadioProps {
  id: string;
  name: string;
  value: string;
  label: string;
  hint: string;
  checked: boolean;
  onSelect: () => void;
}

/** A native radio with a title and a line of explanation, the whole box a 44 px+ touch target. */
export function ChoiceRadio({ id, name, value, label, hint, checked, onSelect }: ChoiceRadioProps) {
  return (
    <label
      htmlFor={id}
      className={cn(
        "flex min-h-11 cursor-pointer items-start gap-3 rounded-md border px-3 py-2",
        "focus-within:ring-2 focus-within:ring-ring",
        checked ? "border-primary bg-accent" : "border-border",
      )}
    >
      <input
        id={id}
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={onSelect}
        className="mt-1 size-4 accent-primary"
      />
      <span>
        <span className="block font-medium">{label}</span>
        <span className="block text-sm text-muted-foreground">{hint}</span>
      </span>
    </label>
  );
}
