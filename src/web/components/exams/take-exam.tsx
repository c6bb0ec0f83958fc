import { QuestionImages } from "@/web/components/questions/question-images";
import { Link } from "@tanstack/react-router";
import { ChevronLeft, ChevronRight, Flag, Send, Timer } from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { PageHeader } from "@/web/components/layout/page-header";
import { Alert, useBanner } from "@/web/components/ui/alert";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Spinner } from "@/web/components/ui/spinner";
import { errorMessage, trpc, type RouterOutputs } from "@/web/lib/trpc";
import { inBackgroundAfterLoad } from "@/web/lib/after-paint";
import { cn } from "@/web/lib/utils";
import { formatClock, modeLabel } from "./exam-text";
import { QuestionNavigator } from "./question-navigator";

type Exam = RouterOutputs["exams"]["get"];
type ExamQuestion = Exam["questions"][number];

const LONG_PRESS_MS = 550;

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}

function optionLetters(q: ExamQuestion): string[] {
  return Object.entries(q.options)
    .filter(([, text]) => text.trim() !== "")
    .map(([letter]) => letter)
    .sort();
}

/** The clock of a timed exam, counting down from the server's remaining time. */
function useCountdown(remainingMs: number | null, fetchedAt: number): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (remainingMs === null) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [remainingMs]);
  if (remainingMs === null) return null;
  return Math.max(0, remainingMs - (now - fetchedAt));
}

/**
 * The results (with Report a problem's dialog and its schemas) are a chunk of their own: a resident
 * opening an exam in progress does not wait for them on a phone (issue 35 item 2, decision 420). The
 * runner fetches the chunk in the background once it is up, so the results show at once when the
 * exam ends.
 */
const loadResults = () => import("./exam-results");
const ExamResults = lazy(() => loadResults().then((m) => ({ default: m.ExamResults })));

/** Issue 16 item 2: taking an exam, one question at a time; the results once it is over. */
export function TakeExamPage({ examId, notice }: { examId: string; notice?: string }) {
  // Fresh for a few seconds: the exam asked for with the session check on a first visit
  // (lib/early-data.ts) is not asked for again as the page mounts, which would render the runner a
  // second time in one long task on a phone (issue 35 item 2); coming back to the tab later asks again.
  const query = trpc.exams.get.useQuery(
    { examId },
    { refetchOnWindowFocus: true, staleTime: 5_000 },
  );
  if (query.isPending) return <Spinner label="Loading exam..." showLabel />;
  if (query.error || !query.data) {
    return (
      <div className="grid gap-4">
        <PageHeader title="Practice Exam" />
        <Alert type="error" dismissible={false}>
          {errorMessage(query.error, "Failed to load the exam")}
        </Alert>
        <Link to="/exams" className="text-sm underline">
          Back to Practice Exam
        </Link>
      </div>
    );
  }
  if (query.data.status !== "in_progress") {
    return (
      <Suspense fallback={<Spinner label="Loading results..." showLabel />}>
        <ExamResults examId={examId} />
      </Suspense>
    );
  }
  return (
    <ExamRunner
      exam={query.data}
      fetchedAt={query.dataUpdatedAt}
      notice={notice}
      onOver={() => void query.refetch()}
    />
  );
}

function ExamRunner({
  exam,
  fetchedAt,
  notice,
  onOver,
}: {
  exam: Exam;
  fetchedAt: number;
  notice?: string;
  onOver: () => void;
}) {
  const utils = trpc.useUtils();
  const { show, banner } = useBanner();
  const answerMutation = trpc.exams.answer.useMutation();
  const flagMutation = trpc.exams.flag.useMutation();
  const eliminateMutation = trpc.exams.eliminate.useMutation();
  const submitMutation = trpc.exams.submit.useMutation();

  const firstOpen = exam.questions.findIndex((q) => !q.answer.answeredAt);
  const [index, setIndex] = useState(firstOpen < 0 ? 0 : firstOpen);
  const [answers, setAnswers] = useState(() =>
    Object.fromEntries(exam.questions.map((q) => [q.questionId, q.answer])),
  );
  const [feedback, setFeedback] = useState(() =>
    Object.fromEntries(exam.questions.map((q) => [q.questionId, q.feedback])),
  );
  // Tutor mode: a selection is only sent when the resident confirms it.
  const [draft, setDraft] = useState<Record<string, string[]>>({});
  const shownAt = useRef(Date.now());
  const remaining = useCountdown(exam.remainingMs, fetchedAt);
  useEffect(
    () =>
      inBackgroundAfterLoad(() => {
        void loadResults().catch(() => {
          // Asked for again, and reported, when the results are shown.
        });
      }),
    [],
  );
  const timed = exam.mode === "timed";

  const q = exam.questions[index]!;
  const answer = answers[q.questionId]!;
  const fb = feedback[q.questionId] ?? null;
  const letters = optionLetters(q);
  const required = Math.max(1, q.numCorrectAnswers);
  const selected = timed ? answer.selected : (draft[q.questionId] ?? answer.selected);
  const locked = !timed && fb !== null;

  // The time up: the server submits (it also would with nobody here); show the results.
  const over = remaining !== null && remaining <= 0;
  useEffect(() => {
    if (over) onOver();
  }, [over, onOver]);

  const spentOnCurrent = useCallback(() => {
    const ms = Date.now() - shownAt.current;
    return (answers[q.questionId]?.timeSpentMs ?? 0) + Math.max(0, Math.round(ms));
  }, [answers, q.questionId]);

  const go = useCallback(
    (next: number) => {
      if (next < 0 || next >= exam.questions.length) return;
      setIndex(next);
      shownAt.current = Date.now();
    },
    [exam.questions.length],
  );

  const save = useCallback(
    (questionId: string, letters: string[]) => {
      answerMutation.mutate(
        { examId: exam.id, questionId, selected: letters, timeSpentMs: spentOnCurrent() },
        {
          onSuccess: (saved) => {
            setAnswers((prev) => ({ ...prev, [questionId]: saved.answer }));
            if (saved.feedback) setFeedback((prev) => ({ ...prev, [questionId]: saved.feedback }));
          },
          onError: (err) => {
            show("error", errorMessage(err, "Failed to save your answer"));
            void utils.exams.get.invalidate({ examId: exam.id });
          },
        },
      );
    },
    [answerMutation, exam.id, show, spentOnCurrent, utils],
  );

  const choose = useCallback(
    (letter: string) => {
      if (locked || answer.eliminated.includes(letter)) return;
      const current = selected;
      const next =
        required === 1
          ? [letter]
          : current.includes(letter)
            ? current.filter((l) => l !== letter)
            : current.length < required
              ? [...current, letter].sort()
              : current;
      if (timed) {
        // Saved as it is given: closing the tab or switching devices loses nothing.
        setAnswers((prev) => ({ ...prev, [q.questionId]: { ...answer, selected: next } }));
        save(q.questionId, next);
      } else {
        setDraft((prev) => ({ ...prev, [q.questionId]: next }));
      }
    },
    [answer, locked, q.questionId, required, save, selected, timed],
  );

  const confirm = useCallback(() => {
    if (!timed && !locked && selected.length === required) save(q.questionId, selected);
    else go(index + 1);
  }, [go, index, locked, q.questionId, required, save, selected, timed]);

  const toggleFlag = useCallback(() => {
    const flagged = !answer.flagged;
    setAnswers((prev) => ({ ...prev, [q.questionId]: { ...answer, flagged } }));
    flagMutation.mutate(
      { examId: exam.id, questionId: q.questionId, flagged },
      { onError: (err) => show("error", errorMessage(err, "Failed to flag the question")) },
    );
  }, [answer, exam.id, flagMutation, q.questionId, show]);

  const toggleEliminated = useCallback(
    (letter: string) => {
      if (locked) return;
      const eliminated = answer.eliminated.includes(letter)
        ? answer.eliminated.filter((l) => l !== letter)
        : [...answer.eliminated, letter].sort();
      setAnswers((prev) => ({ ...prev, [q.questionId]: { ...answer, eliminated } }));
      eliminateMutation.mutate(
        { examId: exam.id, questionId: q.questionId, eliminated },
        {
          onError: (err) =>
            show("error", errorMessage(err, "Failed to save the struck-out option")),
        },
      );
    },
    [answer, eliminateMutation, exam.id, locked, q.questionId, show],
  );

  const unanswered = exam.questions.filter(
    (x) => (answers[x.questionId]?.selected.length ?? 0) === 0,
  ).length;
  const submit = useCallback(() => {
    const message =
      unanswered > 0
        ? `Submit the exam? ${unanswered} ${unanswered === 1 ? "question is" : "questions are"} unanswered.`
        : "Submit the exam?";
    if (!window.confirm(message)) return;
    submitMutation.mutate(
      { examId: exam.id },
      {
        onSuccess: () => {
          void utils.exams.invalidate();
          void utils.stats.invalidate();
        },
        onError: (err) => show("error", errorMessage(err, "Failed to submit the exam")),
      },
    );
  }, [exam.id, show, submitMutation, unanswered, utils]);

  // Keyboard: 1-5 or A-E choose, N/P or arrows move, F flags, Enter confirms.
  // Subscribed before the browser paints, so a key pressed as soon as a result shows meets the
  // handler that knows about it.
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target)) return;
      const key = event.key;
      const byNumber = /^[1-9]$/.test(key) ? letters[Number(key) - 1] : undefined;
      const byLetter =
        key.length === 1 && letters.includes(key.toUpperCase()) && !/^[NPF]$/i.test(key)
          ? key.toUpperCase()
          : undefined;
      if (byNumber ?? byLetter) {
        event.preventDefault();
        choose((byNumber ?? byLetter)!);
      } else if (key === "ArrowRight" || key === "n" || key === "N") {
        event.preventDefault();
        go(index + 1);
      } else if (key === "ArrowLeft" || key === "p" || key === "P") {
        event.preventDefault();
        go(index - 1);
      } else if (key === "f" || key === "F") {
        event.preventDefault();
        toggleFlag();
      } else if (key === "Enter") {
        event.preventDefault();
        confirm();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [choose, confirm, go, index, letters, toggleFlag]);

  const press = useRef<{ letter: string; timer: ReturnType<typeof setTimeout> } | null>(null);
  const longPressed = useRef(false);

  return (
    // Tighter on a phone, so the question and its options fit the first screen (issue 31).
    <div className="grid gap-3 sm:gap-4">
      <PageHeader
        className="mb-0 sm:mb-4"
        title="Practice Exam"
        description={`${modeLabel(exam.mode)} · ${exam.questionCount} questions`}
        actions={
          remaining !== null && (
            <p
              className={cn(
                "flex items-center gap-1 rounded-md border px-2 py-1 font-mono text-sm",
                remaining < 60_000 && "border-destructive text-destructive",
              )}
              role="timer"
              aria-label="Time left"
            >
              <Timer aria-hidden="true" className="size-4" />
              {formatClock(remaining)}
            </p>
          )
        }
      />
      {notice && (
        <Alert type="info" autoCloseMs={null}>
          {notice}
        </Alert>
      )}
      {banner}

      <QuestionNavigator
        answers={exam.questions.map((x) => answers[x.questionId]!)}
        index={index}
        onJump={go}
      />

      <Card className="gap-3 py-4 sm:gap-4 sm:py-5">
        <CardHeader className="gap-2">
          <div className="flex items-center justify-between gap-2">
            <CardTitle>
              Question {index + 1} of {exam.questions.length}
            </CardTitle>
            <Button
              variant={answer.flagged ? "secondary" : "ghost"}
              size="sm"
              aria-pressed={answer.flagged}
              aria-keyshortcuts="F"
              onClick={toggleFlag}
            >
              <Flag aria-hidden="true" className={cn(answer.flagged && "fill-current")} />
              {answer.flagged ? "Flagged" : "Flag"}
            </Button>
          </div>
          <div className="flex flex-wrap gap-1.5">
            <Badge variant="secondary">Part {q.part}</Badge>
            <Badge variant="info">{q.category || "Uncategorized"}</Badge>
          </div>
        </CardHeader>
        <CardContent className="grid gap-4">
          {q.instructions && <p className="text-sm font-medium">{q.instructions}</p>}
          <p className="whitespace-pre-wrap" data-testid="exam-question-text">
            {q.text}
          </p>
          <QuestionImages images={q.images} />
          <div
            role={required === 1 ? "radiogroup" : "group"}
            aria-label="Options"
            className="grid gap-2"
          >
            {letters.map((letter) => {
              const chosen = selected.includes(letter);
              const struck = answer.eliminated.includes(letter);
              const right = fb?.correctAnswers.includes(letter) ?? false;
              const wrongChoice = fb !== null && chosen && !right;
              return (
                <button
                  key={letter}
                  type="button"
                  role={required === 1 ? "radio" : "checkbox"}
                  aria-checked={chosen}
                  aria-disabled={locked || struck}
                  aria-label={`${letter}. ${q.options[letter]}${struck ? " (struck out)" : ""}`}
                  onClick={() => {
                    if (longPressed.current) {
                      longPressed.current = false;
                      return;
                    }
                    choose(letter);
                  }}
                  onContextMenu={(e) => {
                    e.preventDefault();
                    toggleEliminated(letter);
                  }}
                  onPointerDown={(e) => {
                    if (e.pointerType !== "touch") return;
                    press.current = {
                      letter,
                      timer: setTimeout(() => {
                        longPressed.current = true;
                        toggleEliminated(letter);
                      }, LONG_PRESS_MS),
                    };
                  }}
                  onPointerUp={() => press.current && clearTimeout(press.current.timer)}
                  onPointerLeave={() => press.current && clearTimeout(press.current.timer)}
                  data-state={right ? "correct" : wrongChoice ? "wrong" : undefined}
                  className={cn(
                    "flex items-start gap-3 rounded-md border p-3 text-left text-sm transition-colors select-none",
                    chosen && "border-primary bg-primary/10",
                    struck && "text-muted-foreground line-through opacity-60",
                    right && "border-success bg-success-soft text-success-soft-foreground",
                    wrongChoice && "border-destructive",
                  )}
                >
                  <span className="font-semibold">{letter}.</span>
                  <span>{q.options[letter]}</span>
                </button>
              );
            })}
          </div>
          <p className="text-xs text-muted-foreground">
            Right-click or long-press an option to strike it out. Keys: 1-5 or A-E choose, N/P move,
            F flags, Enter confirms.
          </p>

          {fb && !timed && (
            <div className="grid gap-2 rounded-md border p-3" data-testid="exam-feedback">
              <p className={cn("font-medium", fb.isCorrect ? "text-success" : "text-destructive")}>
                {fb.isCorrect ? "Correct!" : "Not quite right."} Correct answer:{" "}
                {fb.correctAnswers.join(", ")}
              </p>
              {(fb.explanation || fb.generatedExplanation) && (
                <p className="text-sm whitespace-pre-wrap">
                  {fb.explanation || fb.generatedExplanation}
                </p>
              )}
            </div>
          )}

          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              onClick={() => go(index - 1)}
              disabled={index === 0}
              aria-keyshortcuts="P"
            >
              <ChevronLeft aria-hidden="true" />
              Previous
            </Button>
            {!timed && !locked && (
              <Button
                onClick={confirm}
                disabled={selected.length !== required}
                busy={answerMutation.isPending}
                aria-keyshortcuts="Enter"
              >
                Check Answer
              </Button>
            )}
            <Button
              variant="outline"
              onClick={() => go(index + 1)}
              disabled={index >= exam.questions.length - 1}
              aria-keyshortcuts="N"
            >
              Next
              <ChevronRight aria-hidden="true" />
            </Button>
          </div>
        </CardContent>
      </Card>

      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">
          {exam.questions.length - unanswered} of {exam.questions.length} answered
          {!timed && " · tutor exams can be paused: come back any time"}
        </p>
        <Button onClick={submit} busy={submitMutation.isPending}>
          <Send aria-hidden="true" />
          Submit Exam
        </Button>
      </div>
    </div>
  );
}
