import { Eye } from "lucide-react";
import {
  FLASHCARD_RATINGS,
  FLASHCARD_RATING_LABELS,
  intervalForRating,
  type FlashcardRating,
} from "@/core/srs/flashcard";
import type { NextIntervals } from "@/core/srs/schedule";
import { RichContent } from "@/web/components/questions/rich-content";
import { Button } from "@/web/components/ui/button";
import { formatInterval } from "./next-interval";
import type { StudyQuestion } from "./question-view";

export { FLASHCARD_KEYS } from "./flashcard-keys";

const KEY_OF: Readonly<Record<FlashcardRating, string>> = {
  again: "1",
  hard: "2",
  good: "3",
  easy: "4",
};

const VARIANT: Readonly<Record<FlashcardRating, "destructive" | "secondary" | "default">> = {
  again: "destructive",
  hard: "secondary",
  good: "default",
  easy: "default",
};

/** A flashcard's front and back (sanitized HTML, images from /api/media). */
export function FlashcardSides({
  question,
  revealed,
}: {
  question: StudyQuestion;
  revealed: boolean;
}) {
  return (
    <div className="space-y-3">
      <RichContent html={question.text} className="text-base" data-testid="flashcard-front" />
      {revealed && (
        <>
          <hr className="border-dashed" />
          <RichContent html={question.back} className="text-base" data-testid="flashcard-back" />
        </>
      )}
    </div>
  );
}

interface FlashcardStudyProps {
  question: StudyQuestion;
  revealed: boolean;
  onReveal: () => void;
  /** The days each rating gives, once known (null while they load or cannot be read). */
  intervals: NextIntervals | null;
  rated: FlashcardRating | null;
  onRate: (rating: FlashcardRating) => void;
}

/**
 * Studying a flashcard (issue 17): the front, "Show answer" (Space or Enter), then the back and the
 * four self-ratings (keys 1-4) with the interval each gives, as the multiple-choice rating shows them.
 * Phone first: the buttons fill one row of a 375 px screen.
 */
export function FlashcardStudy({
  question,
  revealed,
  onReveal,
  intervals,
  rated,
  onRate,
}: FlashcardStudyProps) {
  return (
    <div className="space-y-4" data-testid="flashcard">
      <FlashcardSides question={question} revealed={revealed} />
      {!revealed ? (
        <Button size="lg" className="w-full" onClick={onReveal} aria-keyshortcuts="Space Enter">
          <Eye aria-hidden="true" />
          Show answer
        </Button>
      ) : (
        <div className="rounded-lg border p-3">
          <p className="mb-2 font-medium">How well did you remember it?</p>
          <div className="grid grid-cols-4 gap-1.5" role="group" aria-label="Rate this flashcard">
            {FLASHCARD_RATINGS.map((rating) => (
              <Button
                key={rating}
                variant={VARIANT[rating]}
                className="h-auto min-h-12 px-1 py-1.5"
                aria-keyshortcuts={KEY_OF[rating]}
                aria-pressed={rated === rating ? true : undefined}
                disabled={rated !== null}
                data-rating={rating}
                onClick={() => onRate(rating)}
              >
                <span className="flex flex-col items-center leading-tight">
                  <span>{FLASHCARD_RATING_LABELS[rating]}</span>
                  <span
                    className="min-h-4 text-xs font-normal opacity-80"
                    data-testid={`flashcard-interval-${rating}`}
                  >
                    {intervals ? formatInterval(intervalForRating(intervals, rating)) : ""}
                  </span>
                </span>
              </Button>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
