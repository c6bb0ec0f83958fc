import { Link } from "@tanstack/react-router";
import { BookOpen, RotateCcw } from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { DIFFICULTY_LABELS, FLASHCARD, type Difficulty } from "@/core/constants";
import type { FlashcardRating } from "@/core/srs/flashcard";
import type { NextIntervals } from "@/core/srs/schedule";
import { StreakBanner, StreakPlaceholder } from "@/web/components/dashboard/streak";
import {
  ExplanationPanel,
  initialExplanation,
  type ExplanationValue,
} from "@/web/components/explanations/explanation-panel";
import { PageHeader } from "@/web/components/layout/page-header";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Label } from "@/web/components/ui/label";
import { Progress } from "@/web/components/ui/progress";
import { LazyOptionSelect } from "@/web/components/ui/lazy-select";
import type { SelectOption } from "@/web/components/ui/select";
import { PageSpinner, Spinner } from "@/web/components/ui/spinner";
import { inBackgroundAfterLoad } from "@/web/lib/after-paint";
import { useSessionUser } from "@/web/lib/session";
import { errorMessage, httpStatusOf, trpc, type RouterOutputs } from "@/web/lib/trpc";
import {
  answerOffline,
  dueFromCopy,
  intervalsFromCopy,
  rateFlashcardOffline,
  settleInCopy,
  type PendingAnswer,
} from "@/web/offline/local-study";
import { useOffline } from "@/web/offline/offline-provider";
import { FLASHCARD_KEYS } from "./flashcard-keys";
import { formatInterval, intervalOf } from "./next-interval";
import type { StudyQuestion } from "./question-view";
import { checkLabel, requiredCount, shuffle, toggleSelection, visibleOptions } from "./selection";
import type { OfflineTally } from "./session-complete";
import type { SessionTally } from "./session-progress";
import {
  advancedFrom,
  outcomeOf,
  withAnswer,
  withFlashcardRating,
  withRating,
  type Session,
} from "./session-state";

// The views of a session load apart from the page (session-views.ts): when a session starts, or in the
// background after the first screen, so that a session begun offline later finds them loaded.
const loadSessionViews = () => import("./session-views");
const QuestionChips = lazy(() => loadSessionViews().then((m) => ({ default: m.QuestionChips })));
const QuestionBody = lazy(() => loadSessionViews().then((m) => ({ default: m.QuestionBody })));
const OptionList = lazy(() => loadSessionViews().then((m) => ({ default: m.OptionList })));
const CorrectAnswers = lazy(() => loadSessionViews().then((m) => ({ default: m.CorrectAnswers })));
const ResultBanner = lazy(() => loadSessionViews().then((m) => ({ default: m.ResultBanner })));
const QuestionExplanation = lazy(() =>
  loadSessionViews().then((m) => ({ default: m.QuestionExplanation })),
);
const FlashcardStudy = lazy(() => loadSessionViews().then((m) => ({ default: m.FlashcardStudy })));
const SessionProgressBox = lazy(() =>
  loadSessionViews().then((m) => ({ default: m.SessionProgressBox })),
);
const SessionComplete = lazy(() =>
  loadSessionViews().then((m) => ({ default: m.SessionComplete })),
);
const SessionReview = lazy(() => loadSessionViews().then((m) => ({ default: m.SessionReview })));

export const NO_QUESTIONS_DUE =
  "No questions due for review! Add some questions or check back later.";
const ALL_CATEGORIES = "__all__";
/** The id of a session studied offline: the server records no session for it. */
const OFFLINE_SESSION = "offline";
export const NO_OFFLINE_COPY =
  "You are offline, and this device has no questions saved yet. Open Study once while online to keep the next questions for offline study.";

type Phase = "idle" | "question" | "complete" | "review";

const RATINGS: { difficulty: Difficulty; key: string }[] = [
  { difficulty: 0, key: "1" },
  { difficulty: 1, key: "2" },
  { difficulty: 2, key: "3" },
];

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}

/** A button, link or tab that is not one of the question's options. */
function isOtherControl(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('[role="radio"], [role="checkbox"]')) return false;
  return !!target.closest('button, a[href], [role="button"], [role="link"], [role="tab"]');
}

/** SPEC §2/§4 Study: idle → question view → Session Complete → Session Review. */
export function StudyPage() {
  const user = useSessionUser();
  const utils = trpc.useUtils();
  const summary = trpc.stats.summary.useQuery();
  const startMutation = trpc.study.startSession.useMutation();
  const answerMutation = trpc.study.answer.useMutation();
  const rateMutation = trpc.study.rate.useMutation();
  const rateFlashcardMutation = trpc.study.rateFlashcard.useMutation();
  const finishMutation = trpc.study.finishSession.useMutation();
  const { show, clear, banner } = useBanner();
  const offline = useOffline();
  // The answer given offline that waits for its rating (also kept in IndexedDB against a closed tab).
  const pendingOffline = useRef<PendingAnswer | null>(null);
  const offlineTimeMs = useRef(0);

  const [phase, setPhase] = useState<Phase>("idle");
  const [category, setCategory] = useState<string>(ALL_CATEGORIES);
  const [emptyNotice, setEmptyNotice] = useState(false);
  const [session, setSession] = useState<Session | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  // A flashcard's back is shown (issue 17), and the days each of its ratings gives.
  const [revealed, setRevealed] = useState(false);
  const [cardIntervals, setCardIntervals] = useState<NextIntervals | null>(null);
  const [explanations, setExplanations] = useState<Record<string, ExplanationValue>>({});
  const shownAt = useRef(Date.now());

  // The explanation panel needs to know whether AI is configured: ask once, before the first check.
  // Both in the background after the first screen (inBackgroundAfterLoad): asked for sooner, they
  // delay it on a phone. A session started before then asks for its views itself.
  useEffect(
    () =>
      inBackgroundAfterLoad(() => {
        void utils.explanations.status.prefetch(undefined, { staleTime: Infinity });
        void loadSessionViews().catch(() => {});
      }),
    [utils],
  );

  const refreshStats = useCallback(() => {
    void utils.stats.invalidate();
    void utils.study.due.invalidate();
  }, [utils]);

  const beginSession = useCallback(
    (id: string, categoryName: string | undefined, questions: StudyQuestion[]) => {
      setSession({
        id,
        category: categoryName ?? null,
        questions: shuffle(questions),
        index: 0,
        entries: {},
      });
      setSelected([]);
      setRevealed(false);
      setExplanations({});
      shownAt.current = Date.now();
      offlineTimeMs.current = 0;
      setPhase("question");
    },
    [],
  );

  /** Offline: the session comes from the copy kept on the device. */
  const startOffline = useCallback(
    async (categoryName: string | undefined) => {
      const copy = await offline.store?.copy();
      if (!copy) {
        show("error", NO_OFFLINE_COPY);
        return;
      }
      const questions = dueFromCopy(copy, new Date(), { category: categoryName });
      if (questions.length === 0) {
        setSession(null);
        setPhase("idle");
        setEmptyNotice(true);
        return;
      }
      beginSession(OFFLINE_SESSION, categoryName, questions);
    },
    [beginSession, offline.store, show],
  );

  const start = useCallback(
    (chosen: string) => {
      // In parallel with the session's questions (usually loaded already, when the page was idle).
      void loadSessionViews().catch(() => {});
      clear();
      setEmptyNotice(false);
      const categoryName = chosen === ALL_CATEGORIES ? undefined : chosen;
      if (!offline.online) {
        void startOffline(categoryName);
        return;
      }
      startMutation.mutate(
        { category: categoryName },
        {
          onSuccess: (data) => {
            if (!data.session || data.questions.length === 0) {
              setSession(null);
              setPhase("idle");
              setEmptyNotice(true);
              if (categoryName) {
                show("info", `No questions due for review in the ${categoryName} category`);
              }
              return;
            }
            beginSession(data.session.id, categoryName, data.questions);
            refreshStats();
          },
          onError: (err) => {
            // No answer from the server (the connection dropped): study from the device's copy.
            if (httpStatusOf(err) === undefined) void startOffline(categoryName);
            else show("error", errorMessage(err, "Failed to load questions"));
          },
        },
      );
    },
    [clear, show, startMutation, refreshStats, beginSession, offline.online, startOffline],
  );

  const current = session ? session.questions[session.index] : undefined;
  const entry = current && session ? session.entries[current._id] : undefined;
  const result = entry?.result ?? null;
  const required = current ? requiredCount(current) : 1;
  const canCheck = !!current && !result && selected.length === required;
  const isLast = !!session && session.index >= session.questions.length - 1;
  const isFlashcard = current?.questionType === FLASHCARD;
  const offlineSession = session?.id === OFFLINE_SESSION || !offline.online;

  // The flashcard's buttons show their intervals: from the server, or from the copy when offline.
  const currentId = isFlashcard ? current._id : null;
  useEffect(() => {
    setCardIntervals(null);
    if (!currentId) return;
    let live = true;
    const load = async () => {
      if (offlineSession) {
        const copy = await offline.store?.copy();
        return copy ? intervalsFromCopy(copy, currentId, new Date()) : null;
      }
      const found = await utils.study.nextIntervals.fetch({ questionId: currentId });
      return found.nextIntervals;
    };
    load()
      .then((found) => {
        if (live) setCardIntervals(found);
      })
      // The buttons work without their intervals; nothing to tell the resident.
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [currentId, offlineSession, offline.store, utils]);

  /**
   * Queues the offline answer waiting for its rating, with the rating if one was given, and moves
   * the card in the copy to where the server's replay will put it.
   */
  const settleOffline = useCallback(
    async (difficulty: Difficulty | null) => {
      const pending = pendingOffline.current;
      const store = offline.store;
      if (!pending || !store) return;
      pendingOffline.current = null;
      const copy = await store.copy();
      await store.settle(
        { ...pending.review, difficulty },
        copy && settleInCopy(copy, pending, difficulty),
      );
      offline.queued();
    },
    [offline],
  );

  const finish = useCallback(() => {
    if (!session) return;
    setPhase("complete");
    if (session.id === OFFLINE_SESSION) {
      void settleOffline(null);
      return;
    }
    finishMutation.mutate(
      { sessionId: session.id },
      {
        onSettled: () => {
          refreshStats();
          void offline.refreshCopy();
        },
      },
    );
  }, [finishMutation, offline, refreshStats, session, settleOffline]);

  const advance = useCallback(() => {
    if (!session) return;
    void settleOffline(null);
    if (session.index >= session.questions.length - 1) {
      finish();
      return;
    }
    const from = session.index;
    setSession((s) => (s ? advancedFrom(s, from) : s));
    setSelected([]);
    setRevealed(false);
    shownAt.current = Date.now();
  }, [finish, session, settleOffline]);

  const toggle = useCallback(
    (letter: string) => {
      if (!current || result) return;
      setSelected((prev) => toggleSelection(prev, letter, required));
    },
    [current, required, result],
  );

  /** The verdict from the copy on the device, the answer kept until it is rated. */
  const checkOffline = useCallback(
    async (question: StudyQuestion, chosen: string[]) => {
      const store = offline.store;
      const copy = await store?.copy();
      if (!store || !copy) {
        show("error", NO_OFFLINE_COPY);
        return;
      }
      const { result, pending } = answerOffline(copy, question, {
        id: crypto.randomUUID(),
        selected: chosen,
        timeSpentMs: Math.max(0, Math.round(Date.now() - shownAt.current)),
        now: new Date(),
      });
      await store.savePending(pending);
      pendingOffline.current = pending;
      offlineTimeMs.current += pending.review.timeSpentMs;
      setSession((s) => (s ? withAnswer(s, question._id, chosen, result) : s));
    },
    [offline.store, show],
  );

  const check = useCallback(() => {
    if (!session || !current || !canCheck || answerMutation.isPending) return;
    const question = current;
    const chosen = selected;
    // Offline (or a session begun offline): answered on the device and synced later.
    if (session.id === OFFLINE_SESSION || !offline.online) {
      void checkOffline(question, chosen);
      return;
    }
    answerMutation.mutate(
      {
        questionId: question._id,
        selected: chosen,
        timeSpentMs: Math.max(0, Math.round(Date.now() - shownAt.current)),
        sessionId: session.id,
      },
      {
        onSuccess: (data) => {
          setSession((s) => (s ? withAnswer(s, question._id, chosen, data) : s));
          void utils.stats.invalidate();
        },
        onError: (err) => show("error", errorMessage(err, "Failed to update study data")),
      },
    );
  }, [
    answerMutation,
    canCheck,
    checkOffline,
    current,
    offline.online,
    selected,
    session,
    show,
    utils,
  ]);

  /** Rating submits in the background and moves on at once: no visible wait (issue 4). */
  const rateAndAdvance = useCallback(
    (difficulty: Difficulty) => {
      if (!session || !current || !entry?.result || entry.rated !== null) return;
      const questionId = current._id;
      setSession((s) => (s ? withRating(s, questionId, difficulty) : s));
      if (pendingOffline.current?.review.questionId === questionId) {
        void settleOffline(difficulty);
        advance();
        return;
      }
      rateMutation.mutate(
        { questionId, difficulty },
        {
          onError: (err) => show("error", errorMessage(err, "Failed to update study data")),
          onSettled: () => {
            void utils.stats.invalidate();
            void utils.study.due.invalidate();
          },
        },
      );
      advance();
    },
    [advance, current, entry, rateMutation, session, settleOffline, show, utils],
  );

  /** A flashcard's rating is its review: sent in the background (or queued offline), then on. */
  const rateFlashcard = useCallback(
    (rating: FlashcardRating) => {
      if (!session || !current || !revealed || entry?.flashcard) return;
      const questionId = current._id;
      const timeSpentMs = Math.max(0, Math.round(Date.now() - shownAt.current));
      setSession((s) => (s ? withFlashcardRating(s, questionId, rating) : s));
      if (session.id === OFFLINE_SESSION || !offline.online) {
        const store = offline.store;
        void (async () => {
          const copy = await store?.copy();
          if (!store || !copy) return;
          const out = rateFlashcardOffline(copy, questionId, {
            id: crypto.randomUUID(),
            rating,
            timeSpentMs,
            now: new Date(),
          });
          offlineTimeMs.current += timeSpentMs;
          await store.settle(out.review, out.copy);
          offline.queued();
        })();
        advance();
        return;
      }
      rateFlashcardMutation.mutate(
        { questionId, rating, timeSpentMs, sessionId: session.id },
        {
          onError: (err) => show("error", errorMessage(err, "Failed to update study data")),
          onSettled: () => {
            void utils.stats.invalidate();
            void utils.study.due.invalidate();
          },
        },
      );
      advance();
    },
    [advance, current, entry, offline, rateFlashcardMutation, revealed, session, show, utils],
  );

  // Keyboard: letters select, Enter checks, 1/2/3 rate after checking.
  // Subscribed before the browser paints, so a key pressed as soon as a result shows meets the
  // handler that knows about it.
  useLayoutEffect(() => {
    if (phase !== "question" || !current || !isFlashcard) return;
    // A flashcard: Space or Enter shows the back, then 1-4 rate it Again/Hard/Good/Easy.
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target)) return;
      if (!revealed) {
        if ((event.key === " " || event.key === "Enter") && !isOtherControl(event.target)) {
          event.preventDefault();
          setRevealed(true);
        }
        return;
      }
      const rating = FLASHCARD_KEYS[event.key];
      if (rating && !entry?.flashcard) {
        event.preventDefault();
        rateFlashcard(rating);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [phase, current, isFlashcard, revealed, entry, rateFlashcard]);

  useLayoutEffect(() => {
    if (phase !== "question" || !current || isFlashcard) return;
    const letters = new Set(visibleOptions(current.options).map(([l]) => l));
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target)) return;
      if (!result) {
        const letter = event.key.length === 1 ? event.key.toUpperCase() : "";
        if (letters.has(letter)) {
          event.preventDefault();
          toggle(letter);
          return;
        }
        // Enter on a focused button or link elsewhere (the update prompt's Reload, the header, the
        // tabs) is that control's own: checking the answer instead would hijack it.
        if (event.key === "Enter" && canCheck && !isOtherControl(event.target)) {
          event.preventDefault();
          check();
        }
        return;
      }
      const rating = RATINGS.find((r) => r.key === event.key);
      if (rating && entry?.rated === null) {
        event.preventDefault();
        rateAndAdvance(rating.difficulty);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [phase, current, isFlashcard, result, canCheck, check, toggle, rateAndAdvance, entry]);

  const explanationOf = (q: StudyQuestion) => explanations[q._id] ?? initialExplanation(q);
  const setExplanation = (id: string, value: ExplanationValue) =>
    setExplanations((prev) => ({ ...prev, [id]: value }));

  const tally: SessionTally = (() => {
    const results = session
      ? session.questions
          .map((q) => outcomeOf(session.entries[q._id]))
          .filter((r): r is { isCorrect: boolean } => !!r)
      : [];
    return {
      answered: results.length,
      correct: results.filter((r) => r.isCorrect).length,
      results,
    };
  })();

  return (
    <div className="space-y-4">
      <PageHeader title="Study" />
      {banner}

      {phase === "idle" && (
        <IdleView
          summary={summary.data}
          loading={summary.isPending}
          category={category}
          onCategory={setCategory}
          onStart={() => start(category)}
          starting={startMutation.isPending}
          emptyNotice={emptyNotice}
        />
      )}

      <Suspense fallback={<PageSpinner />}>
        {phase === "question" && session && current && (
          <div className="space-y-4">
            <Card>
              <CardHeader className="gap-3">
                <div className="flex items-center justify-between">
                  <CardTitle>
                    Question {session.index + 1}/{session.questions.length}
                  </CardTitle>
                </div>
                <Progress
                  value={session.index + 1}
                  max={session.questions.length}
                  aria-label="Session progress"
                />
                <QuestionChips question={current} />
              </CardHeader>
              <CardContent className="space-y-4">
                {isFlashcard ? (
                  <FlashcardStudy
                    question={current}
                    revealed={revealed}
                    onReveal={() => setRevealed(true)}
                    intervals={cardIntervals}
                    rated={entry?.flashcard ?? null}
                    onRate={rateFlashcard}
                  />
                ) : (
                  <>
                    <QuestionBody question={current} />
                    <OptionList
                      question={current}
                      selected={result ? (entry?.selected ?? selected) : selected}
                      correctAnswers={result ? result.correctAnswers : null}
                      onToggle={toggle}
                    />

                    {result && (
                      <div className="space-y-4">
                        <ResultBanner isCorrect={result.isCorrect} />
                        <CorrectAnswers question={current} letters={result.correctAnswers} />
                        <QuestionExplanation text={result.explanation} />
                        <ExplanationPanel
                          key={current._id}
                          question={current}
                          canSave={current.creator === user._id}
                          value={explanationOf(current)}
                          onChange={(v) => setExplanation(current._id, v)}
                        />
                        <div className="rounded-lg border p-4">
                          <p className="mb-3 font-medium">How difficult was this for you?</p>
                          {!result.isCorrect && (
                            <p
                              className="mb-3 text-sm text-muted-foreground"
                              data-testid="next-again"
                            >
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
                                onClick={() => rateAndAdvance(r.difficulty)}
                              >
                                <span className="flex flex-col items-center leading-tight">
                                  <span>{DIFFICULTY_LABELS[r.difficulty]}</span>
                                  {result.isCorrect && (
                                    <span
                                      className="text-xs font-normal opacity-80"
                                      data-testid={`next-interval-${r.difficulty}`}
                                    >
                                      {formatInterval(
                                        intervalOf(result.nextIntervals, r.difficulty),
                                      )}
                                    </span>
                                  )}
                                </span>
                              </Button>
                            ))}
                          </div>
                        </div>
                      </div>
                    )}
                  </>
                )}

                <div className="flex flex-wrap gap-2">
                  <Button
                    variant="ghost"
                    onClick={() => start(category)}
                    busy={startMutation.isPending}
                  >
                    <RotateCcw aria-hidden="true" />
                    Restart
                  </Button>
                  {!result && !isFlashcard && (
                    <Button
                      onClick={check}
                      disabled={!canCheck}
                      busy={answerMutation.isPending}
                      aria-keyshortcuts="Enter"
                    >
                      {checkLabel(selected.length, required)}
                    </Button>
                  )}
                  <Button variant="outline" onClick={advance}>
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
        )}

        {phase === "complete" && session && (
          <SessionComplete
            sessionId={session.id}
            offline={
              session.id === OFFLINE_SESSION
                ? offlineTally(tally, offlineTimeMs.current)
                : undefined
            }
            starting={startMutation.isPending}
            onNewSession={() => start(category)}
            onReview={() => setPhase("review")}
          />
        )}

        {phase === "review" && session && (
          <SessionReview
            entries={session.questions.map((q) => ({
              question: q,
              selected: session.entries[q._id]?.selected ?? [],
              result: session.entries[q._id]?.result ?? null,
              flashcard: session.entries[q._id]?.flashcard,
            }))}
            userId={user._id}
            explanationOf={explanationOf}
            onExplanation={setExplanation}
            onBack={() => setPhase("complete")}
          />
        )}
      </Suspense>
    </div>
  );
}

type Summary = RouterOutputs["stats"]["summary"] | undefined;

function offlineTally(tally: SessionTally, timeSpentMs: number): OfflineTally {
  return { answered: tally.answered, correct: tally.correct, timeSpentMs };
}

/** The category list: all categories, then each category with questions due and how many. */
function categoryOptions(
  chosen: string,
  due: NonNullable<Summary>["dueCategories"],
): SelectOption[] {
  const options = [
    { value: ALL_CATEGORIES, label: "All categories" },
    ...due.map((c) => ({ value: c.name, label: `${c.name} (${c.due})` })),
  ];
  // A category chosen before its last question was studied stays shown as chosen.
  if (!options.some((o) => o.value === chosen)) options.push({ value: chosen, label: chosen });
  return options;
}

function IdleView({
  summary,
  loading,
  category,
  onCategory,
  onStart,
  starting,
  emptyNotice,
}: {
  summary: Summary;
  loading: boolean;
  category: string;
  onCategory: (c: string) => void;
  onStart: () => void;
  starting: boolean;
  emptyNotice: boolean;
}) {
  return (
    <div className="space-y-4" data-testid="study-idle">
      {summary ? <StreakBanner streakDays={summary.streakDays} /> : <StreakPlaceholder />}
      <Card>
        <CardHeader>
          <CardTitle>Today&apos;s Study Overview</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          {loading || !summary ? (
            // As tall as the figures that replace it.
            <div className="flex min-h-[74px] items-center justify-center">
              <Spinner label="Loading..." showLabel />
            </div>
          ) : (
            <dl className="grid grid-cols-2 gap-2 text-center">
              <div className="rounded-md border p-3">
                <dt className="text-xs text-muted-foreground">Questions due</dt>
                <dd className="text-2xl font-semibold" data-testid="overview-due">
                  {summary.dueCount}
                </dd>
              </div>
              <div className="rounded-md border p-3">
                <dt className="text-xs text-muted-foreground">Answered today</dt>
                <dd className="text-2xl font-semibold" data-testid="overview-answered">
                  {summary.answeredToday}
                </dd>
              </div>
            </dl>
          )}
          {summary && summary.dueCategories.length > 0 && (
            <div className="space-y-1.5">
              <Label htmlFor="study-category">Category</Label>
              <LazyOptionSelect
                id="study-category"
                value={category}
                onValueChange={onCategory}
                options={categoryOptions(category, summary.dueCategories)}
              />
            </div>
          )}
          <Button size="lg" className="w-full" onClick={onStart} busy={starting}>
            <BookOpen aria-hidden="true" />
            Start Studying
          </Button>
        </CardContent>
      </Card>
      {emptyNotice && (
        <Card data-testid="no-questions-due">
          <CardContent className="space-y-3 text-center">
            <p className="font-medium">{NO_QUESTIONS_DUE}</p>
            <div className="flex justify-center gap-2">
              <Button asChild variant="outline" size="sm">
                <Link to="/capture">Capture</Link>
              </Button>
              <Button asChild variant="outline" size="sm">
                <Link to="/import">Import</Link>
              </Button>
            </div>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
