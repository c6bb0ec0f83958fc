import { Check, X } from "lucide-react";
import { UNCATEGORIZED } from "@/core/constants";
import { Badge } from "@/web/components/ui/badge";
import type { RouterOutputs } from "@/web/lib/trpc";
import { cn } from "@/web/lib/utils";
import { ExplanationText } from "@/web/components/explanations/explanation-panel";
import { QuestionImages } from "@/web/components/questions/question-images";
import { requiredCount, visibleOptions } from "./selection";

export type StudyQuestion = RouterOutputs["study"]["due"]["questions"][number];
export type AnswerResult = RouterOutputs["study"]["answer"];

/** The chips in docs/product/screens.md: Part, category (or Uncategorized), PRITE year, question number. */
export function QuestionChips({ question }: { question: StudyQuestion }) {
  return (
    <div className="flex flex-wrap gap-1.5" data-testid="question-chips">
      <Badge variant="secondary">Part {question.part}</Badge>
      <Badge variant="info">{question.category.trim() || UNCATEGORIZED}</Badge>
      <Badge variant="outline">PRITE {question.year}</Badge>
      {question.number != null && <Badge variant="outline">Q{question.number}</Badge>}
    </div>
  );
}

/** Instructions for non-standard types; a multiple-correct question without any gets the count. */
export function instructionsFor(question: StudyQuestion): string | null {
  if (question.questionType === "standard") return null;
  const text = question.instructions.trim();
  if (text) return text;
  if (question.questionType === "multipleCorrect") {
    return `Select ${requiredCount(question)} correct answers.`;
  }
  return null;
}

export function QuestionBody({ question }: { question: StudyQuestion }) {
  const instructions = instructionsFor(question);
  return (
    <div className="space-y-2">
      <p className="text-base leading-relaxed whitespace-pre-line" data-testid="question-text">
        {question.text}
      </p>
      <QuestionImages images={question.images} />
      {instructions && (
        <p className="text-sm font-medium text-info-soft-foreground" data-testid="instructions">
          {instructions}
        </p>
      )}
    </div>
  );
}

interface OptionListProps {
  question: StudyQuestion;
  selected: readonly string[];
  /** The answer's letters once checked; options are locked then (docs/product/states.md). */
  correctAnswers: readonly string[] | null;
  onToggle?: (letter: string) => void;
}

/**
 * Options as radio buttons (one answer) or checkboxes (multiple correct). After checking, correct
 * options turn green and wrongly chosen ones red.
 */
export function OptionList({ question, selected, correctAnswers, onToggle }: OptionListProps) {
  const multiple = question.questionType === "multipleCorrect";
  const checked = correctAnswers !== null;
  return (
    <div
      role={multiple ? "group" : "radiogroup"}
      aria-label="Answer options"
      className="flex flex-col gap-2"
    >
      {visibleOptions(question.options).map(([letter, text]) => {
        const isSelected = selected.includes(letter);
        const isCorrect = checked && correctAnswers.includes(letter);
        const isWrongChoice = checked && isSelected && !isCorrect;
        return (
          <button
            key={letter}
            type="button"
            role={multiple ? "checkbox" : "radio"}
            aria-checked={isSelected}
            aria-disabled={checked || undefined}
            data-letter={letter}
            data-state={isCorrect ? "correct" : isWrongChoice ? "wrong" : undefined}
            onClick={() => {
              if (!checked) onToggle?.(letter);
            }}
            className={cn(
              "flex min-h-11 w-full items-start gap-3 rounded-md border bg-card px-3 py-2.5 text-left text-sm",
              "outline-none focus-visible:ring-2 focus-visible:ring-ring",
              !checked && "hover:bg-accent",
              isSelected && !checked && "border-primary bg-primary/10",
              isCorrect && "border-success bg-success-soft text-success-soft-foreground",
              isWrongChoice && "border-destructive bg-error-soft text-error-soft-foreground",
              checked && !isCorrect && !isWrongChoice && "opacity-70",
            )}
          >
            <span
              className={cn(
                "flex size-6 shrink-0 items-center justify-center rounded-full border text-xs font-semibold",
                isSelected && "border-primary bg-primary text-primary-foreground",
                isSelected && isCorrect && "border-success bg-success text-white",
                isWrongChoice && "border-destructive bg-destructive text-destructive-foreground",
              )}
              aria-hidden="true"
            >
              {letter}
            </span>
            <span className="flex-1 pt-0.5">
              <span className="sr-only">{letter}. </span>
              {text}
            </span>
            {isCorrect && <Check className="mt-0.5 size-5 shrink-0" aria-label="Correct answer" />}
            {isWrongChoice && (
              <X className="mt-0.5 size-5 shrink-0" aria-label="Your wrong choice" />
            )}
          </button>
        );
      })}
    </div>
  );
}

/** 'Correct answer: B. beta' or 'Correct answers: A, C, E' with their texts. */
export function CorrectAnswers({
  question,
  letters,
}: {
  question: StudyQuestion;
  letters: readonly string[];
}) {
  return (
    <div className="text-sm" data-testid="correct-answers">
      <p className="font-medium">{letters.length === 1 ? "Correct answer:" : "Correct answers:"}</p>
      <ul className="mt-1 space-y-0.5">
        {letters.map((l) => (
          <li key={l}>
            <span className="font-semibold">{l}.</span> {question.options[l] ?? ""}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ResultBanner({ isCorrect }: { isCorrect: boolean }) {
  return (
    <div
      role="status"
      className={cn(
        "flex items-center gap-2 rounded-md px-4 py-3 font-semibold",
        isCorrect
          ? "bg-success-soft text-success-soft-foreground"
          : "bg-error-soft text-error-soft-foreground",
      )}
    >
      {isCorrect ? (
        <Check className="size-5" aria-hidden="true" />
      ) : (
        <X className="size-5" aria-hidden="true" />
      )}
      {isCorrect ? "Correct! Well done." : "Not quite right."}
    </div>
  );
}

export function QuestionExplanation({ text }: { text: string }) {
  if (!text.trim()) return null;
  return (
    <section aria-label="Explanation" className="rounded-lg border p-4">
      <h3 className="mb-2 font-semibold">Explanation</h3>
      <ExplanationText text={text} className="text-sm" />
    </section>
  );
}
