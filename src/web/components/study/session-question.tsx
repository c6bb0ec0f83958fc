import { RotateCcw } from "lucide-react";
import { DIFFICULTY_LABELS, FLASHCARD, type Difficulty } from "@/core/constants";
import type { FlashcardRating } from "@/core/srs/flashcard";
import type { NextIntervals } from "@/core/srs/schedule";
import {
  ExplanationPanel,
  type ExplanationValue,
} from "@/web/components/explanations/explanation-panel";
import { ReportedNoticeBox, ReportProblem } from "@/web/components/reports/report-problem";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Progress } from "@/web/components/ui/progress";
import { FlashcardStudy } from "./flashcard-view";
import { formatInterval, intervalOf } from "./next-interval";
import {
  CorrectAnswers,
  OptionList,
  QuestionBody,
  QuestionChips,
  QuestionExplanation,
  ResultBanner,
  type StudyQuestion,
} from "./question-view";
import { checkLabel, requiredCount } from "./selection";
import { SessionProgressBox, type SessionTally } from "./session-progress";
import type { Entry } from "./session-state";
import { RATINGS } from "./study-keys";

/**
 * A session's question view (docs/product/screens.md and states.md Study): the question or flashcard, then its result, the
 * explanation and the rating buttons; Restart, Check and Next; the session's progress below. Loaded
 * with the other session views after the first screen (session-views.ts).
 */
export function SessionQuestion({
  question,
  position,
  count,
  entry,
  selected,
  onToggle,
  canCheck,
  checking,
  onCheck,
  onRate,
  revealed,
  onReveal,
  cardIntervals,
  onRateFlashcard,
  explanation,
  onExplanation,
  canSaveExplanation,
  restarting,
  onRestart,
  isLast,
  onNext,
  tally,
}: {
  question: StudyQuestion;
  /** 1-based, of `count`. */
  position: number;
  count: number;
  entry: Entry | undefined;
  selected: string[];
  onToggle: (letter: string) => void;
  canCheck: boolean;
  checking: boolean;
  onCheck: () => void;
  onRate: (difficulty: Difficulty) => void;
  revealed: boolean;
  onReveal: () => void;
  cardIntervals: NextIntervals | null;
  onRateFlashcard: (rating: FlashcardRating) => void;
  explanation: ExplanationValue | null;
  onExplanation: (value: ExplanationValue) => void;
  canSaveExplanation: boolean;
  restarting: boolean;
  onRestart: () => void;
  isLast: boolean;
  onNext: () => void;
  tally: SessionTally;
}) {
  const result = entry?.result ?? null;
  const required = requiredCount(question);
  const isFlashcard = question.questionType === FLASHCARD;
  return (
    <div className="space-y-4">
      <Card>
        <CardHeader className="gap-3">
          <div className="flex items-center justify-between">
            <CardTitle>
              Question {position}/{count}
            </CardTitle>
          </div>
          <Progress value={position} max={count} aria-label="Session progress" />
          <QuestionChips question={question} />
        </CardHeader>
        <CardContent className="space-y-4">
          {isFlashcard ? (
            <FlashcardStudy
              question={question}
              revealed={revealed}
              onReveal={onReveal}
              intervals={cardIntervals}
              rated={entry?.flashcard ?? null}
              onRate={onRateFlashcard}
            />
          ) : (
            <>
              <QuestionBody question={question} />
              <OptionList
                question={question}
                selected={result ? (entry?.selected ?? selected) : selected}
                correctAnswers={result ? result.correctAnswers : null}
                onToggle={onToggle}
              />

              {result && (
                <div className="space-y-4">
                  <ResultBanner isCorrect={result.isCorrect} />
                  <CorrectAnswers question={question} letters={result.correctAnswers} />
                  <ReportedNoticeBox reported={question.reported} />
                  <QuestionExplanation text={result.explanation} />
                  <ExplanationPanel
                    key={question._id}
                    question={question}
                    canSave={canSaveExplanation}
                    value={explanation}
                    onChange={onExplanation}
                  />
                  <div className="rounded-lg border p-4">
                    <p className="mb-3 font-medium">How difficult was this for you?</p>
                    {!result.isCorrect && (
                      <p className="mb-3 text-sm text-muted-foreground" data-testid="next-again">
                        Missed: this question comes back{" "}
                        {formatInterval(result.nextIntervals.again)}.
                      </p>
                    )}
                    <div className="grid grid-cols-3 gap-2">
                      {RATINGS.map((r) => (
                        <Button
                          key={r.difficulty}
                          variant={
                            r.difficulty === 0
                              ? "destructive"
                              : r.difficulty === 1
                                ? "secondary"
                                : "default"
                          }
                          aria-keyshortcuts={r.key}
                          onClick={() => onRate(r.difficulty)}
                        >
                          <span className="flex flex-col items-center leading-tight">
                            <span>{DIFFICULTY_LABELS[r.difficulty]}</span>
                            {result.isCorrect && (
                              <span
                                className="text-xs font-normal opacity-80"
                                data-testid={`next-interval-${r.difficulty}`}
                              >
                                {formatInterval(intervalOf(result.nextIntervals, r.difficulty))}
                              </span>
                            )}
                          </span>
                        </Button>
                      ))}
                    </div>
                  </div>
                  <ReportProblem key={question._id} questionId={question._id} />
                </div>
              )}
            </>
          )}

          <div className="flex flex-wrap gap-2">
            <Button variant="ghost" onClick={onRestart} busy={restarting}>
              <RotateCcw aria-hidden="true" />
              Restart
            </Button>
            {!result && !isFlashcard && (
              <Button
                onClick={onCheck}
                disabled={!canCheck}
                busy={checking}
                aria-keyshortcuts="Enter"
              >
                {checkLabel(selected.length, required)}
              </Button>
            )}
            <Button variant="outline" onClick={onNext}>
              {isLast ? "Finish" : "Next Question"}
            </Button>
          </div>
          <p className="hidden text-xs text-muted-foreground pointer-fine:block">
            {isFlashcard
              ? "Keys: Space or Enter shows the answer, 1/2/3/4 rate Again/Hard/Good/Easy."
              : "Keys: letters select, Enter checks, 1/2/3 rate Hard/Medium/Easy."}
          </p>
        </CardContent>
      </Card>
      <SessionProgressBox tally={tally} />
    </div>
  );
}
