import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { FLASHCARD, type Difficulty } from "@/core/constants";
import type { FlashcardRating } from "@/core/srs/flashcard";
import type { NextIntervals } from "@/core/srs/schedule";
import {
  initialExplanation,
  type ExplanationValue,
} from "@/web/components/explanations/explanation-panel";
import { PageHeader } from "@/web/components/layout/page-header";
import { PlanLink } from "./plan-link";
import { useBanner } from "@/web/components/ui/alert";
import { PageSpinner } from "@/web/components/ui/spinner";
import { inBackgroundAfterLoad } from "@/web/lib/after-paint";
import { useSessionUser } from "@/web/lib/session";
import { errorMessage, httpStatusOf, trpc } from "@/web/lib/trpc";
import { useOffline } from "@/web/offline/offline-provider";
import { ALL_CATEGORIES, IdleView } from "./idle-view";
import type { StudyQuestion } from "./question-view";
import { requiredCount, shuffle, toggleSelection } from "./selection";
import type { SessionTally } from "./session-progress";
import {
  advancedFrom,
  outcomeOf,
  withAnswer,
  withFlashcardRating,
  withRating,
  type Session,
} from "./session-state";
import { useStudyKeys } from "./study-keys";
import { OFFLINE_SESSION, useOfflineStudy } from "./use-offline-study";

// The views of a session load apart from the page (session-views.ts): when a session starts, or in the
// background after the first screen, so that a session begun offline later finds them loaded.
const loadSessionViews = () => import("./session-views");
const SessionQuestion = lazy(() =>
  loadSessionViews().then((m) => ({ default: m.SessionQuestion })),
);
const SessionComplete = lazy(() =>
  loadSessionViews().then((m) => ({ default: m.SessionComplete })),
);
const SessionReview = lazy(() => loadSessionViews().then((m) => ({ default: m.SessionReview })));

type Phase = "idle" | "question" | "complete" | "review";

/** docs/product/screens.md and states.md Study: idle → question view → Session Complete → Session Review. */
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
  const showError = useCallback((text: string) => show("error", text), [show]);
  const offline = useOffline();
  const {
    dueQuestions,
    intervals: offlineIntervals,
    settle: settleOffline,
    answer: answerOffline,
    rateFlashcard: rateFlashcardOffline,
    awaitsRating,
    restart: restartOfflineTime,
    tally: offlineTally,
  } = useOfflineStudy(showError);

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
      restartOfflineTime();
      setPhase("question");
    },
    [restartOfflineTime],
  );

  /** Offline: the session comes from the copy kept on the device. */
  const startOffline = useCallback(
    async (categoryName: string | undefined) => {
      const questions = await dueQuestions(categoryName);
      if (!questions) return;
      if (questions.length === 0) {
        setSession(null);
        setPhase("idle");
        setEmptyNotice(true);
        return;
      }
      beginSession(OFFLINE_SESSION, categoryName, questions);
    },
    [beginSession, dueQuestions],
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
      if (offlineSession) return offlineIntervals(currentId);
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
  }, [currentId, offlineSession, offlineIntervals, utils]);

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

  const check = useCallback(() => {
    if (!session || !current || !canCheck || answerMutation.isPending) return;
    const question = current;
    const chosen = selected;
    // Offline (or a session begun offline): answered on the device and synced later.
    if (session.id === OFFLINE_SESSION || !offline.online) {
      void answerOffline(question, chosen, shownAt.current).then((result) => {
        if (result) setSession((s) => (s ? withAnswer(s, question._id, chosen, result) : s));
      });
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
    answerOffline,
    canCheck,
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
      if (awaitsRating(questionId)) {
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
    [advance, awaitsRating, current, entry, rateMutation, session, settleOffline, show, utils],
  );

  /** A flashcard's rating is its review: sent in the background (or queued offline), then on. */
  const rateFlashcard = useCallback(
    (rating: FlashcardRating) => {
      if (!session || !current || !revealed || entry?.flashcard) return;
      const questionId = current._id;
      const timeSpentMs = Math.max(0, Math.round(Date.now() - shownAt.current));
      setSession((s) => (s ? withFlashcardRating(s, questionId, rating) : s));
      if (session.id === OFFLINE_SESSION || !offline.online) {
        rateFlashcardOffline(questionId, rating, timeSpentMs);
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
    [
      advance,
      current,
      entry,
      offline.online,
      rateFlashcardMutation,
      rateFlashcardOffline,
      revealed,
      session,
      show,
      utils,
    ],
  );

  const reveal = useCallback(() => setRevealed(true), []);
  useStudyKeys({
    current: phase === "question" ? (current ?? null) : null,
    isFlashcard,
    revealed,
    reveal,
    cardRated: !!entry?.flashcard,
    rateFlashcard,
    checked: !!result,
    awaitsRating: entry?.rated === null,
    canCheck,
    toggle,
    check,
    rateAndAdvance,
  });

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
      <PageHeader title="Study" actions={<PlanLink />} />
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
          <SessionQuestion
            question={current}
            position={session.index + 1}
            count={session.questions.length}
            entry={entry}
            selected={selected}
            onToggle={toggle}
            canCheck={canCheck}
            checking={answerMutation.isPending}
            onCheck={check}
            onRate={rateAndAdvance}
            revealed={revealed}
            onReveal={reveal}
            cardIntervals={cardIntervals}
            onRateFlashcard={rateFlashcard}
            explanation={explanationOf(current)}
            onExplanation={(v) => setExplanation(current._id, v)}
            canSaveExplanation={current.creator === user._id}
            restarting={startMutation.isPending}
            onRestart={() => start(category)}
            isLast={isLast}
            onNext={advance}
            tally={tally}
          />
        )}

        {phase === "complete" && session && (
          <SessionComplete
            sessionId={session.id}
            offline={session.id === OFFLINE_SESSION ? offlineTally(tally) : undefined}
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
