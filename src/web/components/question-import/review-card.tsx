import { Trash2 } from "lucide-react";
import type { ParsedQuestion } from "@/core/import/types";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Label } from "@/web/components/ui/label";
import { Textarea } from "@/web/components/ui/textarea";
import { AnswerBadge, CategorySelect, OptionPicker } from "@/web/components/import/question-fields";

interface ReviewCardProps {
  question: ParsedQuestion;
  /** Position in the list (0-based): names the fields when the question has no number. */
  index: number;
  onChange: (patch: Partial<ParsedQuestion>) => void;
  /** The category list's "nothing chosen" entry. */
  categoryNoneLabel: string;
  /** Show part and year chips (the /test review does, Capture's does not need them). */
  showPartYear?: boolean;
  /** Drops the question from the import (a fragment the parser mistook for a question). */
  onRemove: () => void;
}

/**
 * One question under review (Capture step 3, Question import review): number, answer badge, text,
 * category, options to click for the correct answer, and an optional explanation.
 */
export function ReviewCard({
  question,
  index,
  onChange,
  categoryNoneLabel,
  showPartYear = false,
  onRemove,
}: ReviewCardProps) {
  const name = `question ${question.number ?? index + 1}`;
  const id = `review-${index}`;
  return (
    <li className="grid gap-3 rounded-lg border bg-card p-4 shadow-sm" aria-label={name}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">
          {question.number != null ? `Question ${question.number}` : `Question ${index + 1}`}
        </span>
        <AnswerBadge answer={question.correctAnswer} />
        {showPartYear && (
          <>
            <Badge variant="secondary">Part {question.part}</Badge>
            <Badge variant="secondary">{question.year}</Badge>
          </>
        )}
        <Button
          variant="ghost"
          size="sm"
          className="ml-auto text-muted-foreground"
          onClick={onRemove}
          aria-label={`Remove ${name}`}
        >
          <Trash2 aria-hidden="true" />
          Remove
        </Button>
      </div>
      <p className="break-words whitespace-pre-wrap">{question.text}</p>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-category`}>Category</Label>
        <CategorySelect
          id={`${id}-category`}
          value={question.category}
          noneLabel={categoryNoneLabel}
          onChange={(category) => onChange({ category })}
        />
      </div>
      <div className="grid gap-2">
        <p className="text-sm font-medium" id={`${id}-options`}>
          Options <span className="font-normal text-muted-foreground">(tap the correct one)</span>
        </p>
        <OptionPicker
          label={`Answer options for ${name}`}
          options={question.options}
          correctAnswer={question.correctAnswer}
          onChange={(correctAnswer) => onChange({ correctAnswer })}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-explanation`}>Explanation (optional)</Label>
        <Textarea
          id={`${id}-explanation`}
          rows={3}
          value={question.explanation}
          onChange={(event) => onChange({ explanation: event.target.value })}
        />
      </div>
    </li>
  );
}
