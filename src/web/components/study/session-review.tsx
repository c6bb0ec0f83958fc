import { useState } from "react";
import { FLASHCARD, REVIEW_JUMP_BUTTONS } from "@/core/constants";
import { FLASHCARD_RATING_LABELS, type FlashcardRating } from "@/core/srs/flashcard";
import {
  ExplanationPanel,
  type ExplanationValue,
} from "@/web/components/explanations/explanation-panel";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Progress } from "@/web/components/ui/progress";
import { cn } from "@/web/lib/utils";
import {
  CorrectAnswers,
  OptionList,
  QuestionBody,
  QuestionChips,
  QuestionExplanation,
  type AnswerResult,
  type StudyQuestion,
} from "./question-view";
import { FlashcardSides } from "./flashcard-view";
import { jumpButtons } from "./selection";
import { outcomeOf } from "./session-state";

export interface ReviewEntry {
  question: StudyQuestion;
  selected: string[];
  result: AnswerResult | null;
  /** A flashcard's rating (issue 17). */
  flashcard?: FlashcardRating;
}

interface SessionReviewProps {
  entries: ReviewEntry[];
  userId: string;
  explanationOf: (q: StudyQuestion) => ExplanationValue | null;
  onExplanation: (questionId: string, value: ExplanationValue) => void;
  onBack: () => void;
}

/** docs/product/screens.md Session Review: step through the session's questions with what was answered. */
export function SessionReview({
  entries,
  userId,
  explanationOf,
  onExplanation,
  onBack,
}: SessionReviewProps) {
  const [index, setIndex] = useState(0);
  const entry = entries[index];
  if (!entry) return null;
  const { question, result } = entry;
  const { numbers, more } = jumpButtons(entries.length, REVIEW_JUMP_BUTTONS);
  const outcome = outcomeOf({ ...entry, rated: null });
  const status = outcome ? (outcome.isCorrect ? "correct" : "incorrect") : "unanswered";
  const isFlashcard = question.questionType === FLASHCARD;
  const correct = result?.correctAnswers ?? question.correctAnswers;

  return (
    <Card data-testid="session-review">
      <CardHeader>
        <CardTitle>Session Review</CardTitle>
        <p className="text-sm text-muted-foreground">
          Question {index + 1} of {entries.length}
        </p>
        <Progress
          value={index + 1}
          max={entries.length}
          aria-label="Review progress"
          className="mt-1"
        />
      </CardHeader>
      <CardContent className="space-y-4">
        <nav aria-label="Review questions" className="flex flex-wrap items-center gap-1.5">
          {numbers.map((i) => {
            const e = entries[i];
            const r = e ? outcomeOf({ ...e, rated: null }) : null;
            return (
              <Button
                key={i}
                size="sm"
                variant={i === index ? "default" : "outline"}
                aria-current={i === index ? "step" : undefined}
                aria-label={`Question ${i + 1}`}
                className={cn(
                  "w-10 px-0",
                  i !== index && r?.isCorrect === true && "border-success text-success",
                  i !== index && r?.isCorrect === false && "border-destructive text-destructive",
                )}
                onClick={() => setIndex(i)}
              >
                {i + 1}
              </Button>
            );
          })}
          {more && (
            <span className="px-1 text-muted-foreground" aria-label="More questions">
              …
            </span>
          )}
        </nav>

        <QuestionChips question={question} />
        {isFlashcard ? (
          <FlashcardSides question={question} revealed />
        ) : (
          <QuestionBody question={question} />
        )}
        <Badge
          variant={
            status === "correct" ? "success" : status === "incorrect" ? "destructive" : "secondary"
          }
          data-testid="review-status"
        >
          {entry.flashcard
            ? `You rated it ${FLASHCARD_RATING_LABELS[entry.flashcard]}`
            : status === "correct"
              ? "Your answer was correct"
              : status === "incorrect"
                ? "Your answer was incorrect"
                : "Unanswered"}
        </Badge>
        {!isFlashcard && (
          <>
            <OptionList question={question} selected={entry.selected} correctAnswers={correct} />
            <CorrectAnswers question={question} letters={correct} />
          </>
        )}
        <QuestionExplanation text={result?.explanation ?? question.explanation} />
        <ExplanationPanel
          key={question._id}
          question={question}
          canSave={question.creator === userId}
          value={explanationOf(question)}
          onChange={(v) => onExplanation(question._id, v)}
        />

        <div className="flex flex-wrap justify-between gap-2">
          <div className="flex gap-2">
            <Button
              variant="outline"
              disabled={index === 0}
              onClick={() => setIndex((i) => Math.max(0, i - 1))}
            >
              Previous
            </Button>
            <Button
              variant="outline"
              disabled={index >= entries.length - 1}
              onClick={() => setIndex((i) => Math.min(entries.length - 1, i + 1))}
            >
              Next
            </Button>
          </div>
          <Button variant="ghost" onClick={onBack}>
            Back to Summary
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
