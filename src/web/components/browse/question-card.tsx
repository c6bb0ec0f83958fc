import { BarChart3, Check, History, Pencil } from "lucide-react";
import { useState } from "react";
import { UNCATEGORIZED } from "@/core/constants";
import type { ItemStatsBrief } from "@/core/item-stats";
import { isFlashcard } from "@/web/components/questions/question-kind";
import { QuestionImages } from "@/web/components/questions/question-images";
import type { QuestionJson } from "@/web/components/questions/question-kind";
import { RichContent } from "@/web/components/questions/rich-content";
import { ReportedNoticeBox, ReportProblem } from "@/web/components/reports/report-problem";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent } from "@/web/components/ui/card";
import { cn } from "@/web/lib/utils";
import { briefText, ItemStatsPanel } from "./item-stats-panel";

interface QuestionCardProps {
  question: QuestionJson;
  /** Only the creator gets the edit pencil (docs/product/roles.md). */
  own: boolean;
  due: boolean;
  onEdit: () => void;
  /**
   * Opens the question's history (issue 36 item 4): given for those who may see it, the owner, a
   * director for a program question, an admin for a public one (decision 388).
   */
  onHistory?: () => void;
  /** For the owner: how many residents found the question a leech (issue 34). */
  leechResidents?: number;
  /** Issue 36 item 5: the viewer may open the question's statistics (owner, director, admin). */
  canSeeStats?: boolean;
  /** Listed by a statistics filter: the figures it was listed by. */
  statsBrief?: ItemStatsBrief;
}

/** Letters with text, in order (docs/product/data.md: empty options are not shown). */
function shownOptions(options: Record<string, string>): [string, string][] {
  return (
    Object.entries(options)
      .filter(([, text]) => text.trim() !== "")
      // Option letters are ASCII: a plain comparison orders them, and localeCompare's first call builds
      // an ICU collator, a long task of its own on a phone's first Browse (issue 20 item 3).
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  );
}

/**
 * One Browse result (docs/product/screens.md): chips (kind, part, category, Public, Due), the contributor of another
 * user's public question and the question's source, then either a multiple-choice question (the text,
 * its images, the options with the correct one(s) highlighted, the explanation) or a flashcard (front
 * and back, issue 17). A multiple-choice question is React text: markup typed into it shows as the
 * characters typed. A flashcard's sides are sanitized HTML, shown by RichContent.
 */
export function QuestionCard({
  question,
  own,
  due,
  onEdit,
  onHistory,
  leechResidents,
  canSeeStats = false,
  statsBrief,
}: QuestionCardProps) {
  const [statsOpen, setStatsOpen] = useState(false);
  const flashcard = isFlashcard(question);
  const correct = new Set(
    question.correctAnswers.length > 0 ? question.correctAnswers : [question.correctAnswer],
  );
  const noun = flashcard ? "flashcard" : "question";
  return (
    <Card className="gap-3 py-4" data-testid="question-card" data-question-id={question._id}>
      <CardContent className="grid gap-3 px-4">
        <div className="flex items-start justify-between gap-2">
          <div className="flex flex-wrap gap-1.5" data-testid="question-chips">
            <Badge variant="outline" data-testid="question-kind">
              {flashcard ? "Flashcard" : "Multiple choice"}
            </Badge>
            <Badge variant="secondary">Part {question.part}</Badge>
            <Badge variant="info">{question.category.trim() || UNCATEGORIZED}</Badge>
            {question.isPublic && <Badge variant="success">Public</Badge>}
            {question.visibility === "program" && <Badge variant="secondary">Program</Badge>}
            {due && <Badge variant="warning">Due</Badge>}
            {question.takenDownAt && (
              <Badge variant="destructive" data-testid="taken-down">
                Taken down: copyright reports
              </Badge>
            )}
            {own && leechResidents !== undefined && leechResidents > 0 && (
              <Badge variant="outline" data-testid="leech-residents">
                Leech for {leechResidents} {leechResidents === 1 ? "resident" : "residents"}
              </Badge>
            )}
          </div>
          {(own || onHistory) && (
            <div className="-mt-2 -mr-2 flex shrink-0">
              {onHistory && (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label="History"
                  title="History"
                  onClick={onHistory}
                >
                  <History aria-hidden="true" />
                </Button>
              )}
              {own && (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Edit ${noun}`}
                  title={`Edit ${noun}`}
                  onClick={onEdit}
                >
                  <Pencil aria-hidden="true" />
                </Button>
              )}
            </div>
          )}
        </div>
        <div className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
          <span>
            PRITE {question.year}
            {question.number != null && ` · Q${question.number}`}
          </span>
          {!own && question.isPublic && (
            <span data-testid="contributor">Contributed by {question.contributor}</span>
          )}
          {question.source && <span data-testid="question-source">From {question.source}</span>}
        </div>
        {statsBrief && (
          <p className="text-sm font-medium" data-testid="stats-brief">
            {briefText(statsBrief)}
          </p>
        )}
        {flashcard ? (
          <FlashcardSides question={question} />
        ) : (
          <MultipleChoice question={question} correct={correct} />
        )}
        {canSeeStats && (
          <Button
            variant="outline"
            size="sm"
            className="justify-self-start"
            aria-expanded={statsOpen}
            onClick={() => setStatsOpen((v) => !v)}
          >
            <BarChart3 aria-hidden="true" />
            {statsOpen ? "Hide statistics" : "Statistics"}
          </Button>
        )}
        {canSeeStats && statsOpen && <ItemStatsPanel questionId={question._id} correct={correct} />}
        <ReportedNoticeBox reported={question.reported} />
        {!own && <ReportProblem questionId={question._id} />}
      </CardContent>
    </Card>
  );
}

function FlashcardSides({ question }: { question: QuestionJson }) {
  return (
    <>
      <RichContent html={question.text} data-testid="question-text" />
      <div className="rounded-md border px-3 py-2 text-sm">
        <p className="font-medium">Back</p>
        <RichContent html={question.back} data-testid="flashcard-back" />
      </div>
    </>
  );
}

function MultipleChoice({ question, correct }: { question: QuestionJson; correct: Set<string> }) {
  return (
    <>
      <p className="leading-relaxed break-words whitespace-pre-line" data-testid="question-text">
        {question.text}
      </p>
      <QuestionImages images={question.images} />
      {question.instructions.trim() && question.questionType !== "standard" && (
        <p className="text-sm font-medium text-info-soft-foreground">{question.instructions}</p>
      )}
      <ul className="grid gap-1.5" aria-label="Options">
        {shownOptions(question.options).map(([letter, text]) => {
          const isCorrect = correct.has(letter);
          return (
            <li
              key={letter}
              data-correct={isCorrect || undefined}
              className={cn(
                "flex items-start gap-2 rounded-md border px-3 py-2 text-sm",
                isCorrect
                  ? "border-success/40 bg-success-soft text-success-soft-foreground"
                  : "border-border",
              )}
            >
              <span className="font-semibold">{letter}.</span>
              <span className="min-w-0 flex-1 break-words whitespace-pre-line">{text}</span>
              {isCorrect && (
                <>
                  <Check className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                  <span className="sr-only">(correct answer)</span>
                </>
              )}
            </li>
          );
        })}
      </ul>
      {question.explanation.trim() && (
        <div className="rounded-md bg-muted px-3 py-2 text-sm">
          <p className="font-medium">Explanation</p>
          <p className="break-words whitespace-pre-line text-muted-foreground">
            {question.explanation}
          </p>
        </div>
      )}
    </>
  );
}
