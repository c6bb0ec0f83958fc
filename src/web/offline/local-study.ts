/**
 * Studying from the offline copy (issue 18): the verdict, the card's next state and the due order are
 * computed here with the code the server runs (`src/core/correctness.ts`, `src/core/srs`), so what the
 * resident sees offline is what the server records when the answers sync. Pure: storage is store.ts.
 */
import { answerKeyOf, isCorrectSelection } from "@/core/correctness";
import { DUE_PAGE, type Difficulty } from "@/core/constants";
import { initialStudyState, type StudyState } from "@/core/srs";
import { flashcardReview, type FlashcardRating } from "@/core/srs/flashcard";
import { applyReview } from "@/core/srs/replay";
import { placeAfterReview } from "@/core/srs/exam-plan";
import { localDayKey } from "@/core/stats/days";
import { answerState, nextIntervals, type NextIntervals } from "@/core/srs/schedule";
import type { RouterOutputs } from "@/web/lib/trpc";

export type OfflineCopy = RouterOutputs["study"]["offlineCopy"];
export type OfflineQuestion = OfflineCopy["questions"][number];
export type StoredState = OfflineCopy["states"][string];
export type AnswerResult = RouterOutputs["study"]["answer"];

/** An answer waiting to be sent to `study.sync`, in the order it was given (`seq`). */
export interface QueuedReview {
  id: string;
  seq: number;
  questionId: string;
  selected: string[];
  timeSpentMs: number;
  reviewedAt: string;
  difficulty: Difficulty | null;
  /** A flashcard's self-rating (issue 17), sent instead of a selection. */
  rating?: FlashcardRating;
}

/** An answer given offline whose rating has not come yet: kept so closing the tab loses nothing. */
export interface PendingAnswer {
  review: Omit<QueuedReview, "seq">;
  isCorrect: boolean;
}

export function toStudyState(stored: StoredState | undefined): StudyState {
  if (!stored) return initialStudyState();
  return {
    ...stored,
    dueAt: stored.dueAt ? new Date(stored.dueAt) : null,
    lastReviewedAt: stored.lastReviewedAt ? new Date(stored.lastReviewedAt) : null,
  };
}

export function toStoredState(state: StudyState): StoredState {
  return {
    easeFactor: state.easeFactor,
    intervalDays: state.intervalDays,
    repetitions: state.repetitions,
    lapses: state.lapses,
    dueAt: state.dueAt?.toISOString() ?? null,
    lastReviewedAt: state.lastReviewedAt?.toISOString() ?? null,
    stability: state.stability ?? null,
    fsrsDifficulty: state.fsrsDifficulty ?? null,
  };
}

/**
 * Reviews due per local day in the copy, other than `exceptQuestion`: the loads the load balancer
 * reads offline (the server counts its study states the same way, study-writer `dueLoads`).
 */
export function copyLoads(copy: OfflineCopy, exceptQuestion: string): (day: string) => number {
  const zone = copy.settings.placement?.timeZone ?? "UTC";
  // The server's counts when the copy was saved, plus the cards rescheduled in the copy since (they
  // were due then, so not among those counts).
  const loads = new Map<string, number>(Object.entries(copy.dayLoads ?? {}));
  const saved = Date.parse(copy.savedAt);
  for (const [id, state] of Object.entries(copy.states)) {
    if (id === exceptQuestion || !state.dueAt || Date.parse(state.dueAt) <= saved) continue;
    const day = localDayKey(new Date(state.dueAt), zone);
    loads.set(day, (loads.get(day) ?? 0) + 1);
  }
  return (day) => loads.get(day) ?? 0;
}

/** Due now (never studied counts as due), in the copy's order, which is the server's due order. */
export function dueFromCopy(
  copy: OfflineCopy,
  now: Date,
  opts: { category?: string; limit?: number } = {},
): OfflineQuestion[] {
  const due = copy.questions.filter((q) => {
    if (opts.category && q.category !== opts.category) return false;
    const dueAt = copy.states[q._id]?.dueAt;
    return !dueAt || Date.parse(dueAt) <= now.getTime();
  });
  return due.slice(0, opts.limit ?? DUE_PAGE.DEFAULT);
}

/**
 * The verdict on an answer given offline, shaped like the server's answer so the Study screen shows
 * it the same way, and the answer as it will be queued (rated later).
 */
export function answerOffline(
  copy: OfflineCopy,
  question: OfflineQuestion,
  input: { id: string; selected: string[]; timeSpentMs: number; now: Date },
): { result: AnswerResult; pending: PendingAnswer } {
  const selected = [...new Set(input.selected.map((l) => l.toUpperCase()))].sort();
  const key = answerKeyOf(question);
  const isCorrect = isCorrectSelection(selected, key);
  const before = toStudyState(copy.states[question._id]);
  const after = answerState(before, isCorrect, input.now, copy.settings);
  const result: AnswerResult = {
    isCorrect,
    selected,
    correctAnswer: question.correctAnswer,
    correctAnswers: key,
    explanation: question.explanation,
    generatedExplanation: question.generatedExplanation,
    category: question.category,
    // No review row exists until the answer syncs.
    reviewId: 0,
    question: withStudyData(question, after),
    scheduler: copy.settings.scheduler,
    nextIntervals: nextIntervals(before, input.now, copy.settings),
  };
  return {
    result,
    pending: {
      isCorrect,
      review: {
        id: input.id,
        questionId: question._id,
        selected,
        timeSpentMs: input.timeSpentMs,
        reviewedAt: input.now.toISOString(),
        difficulty: null,
      },
    },
  };
}

/**
 * The copy after an answer (rated or not) is settled: the card takes the state the server's replay
 * gives (`applyReview`, the step `study.sync` replays), so it leaves the due list until it is due.
 */
export function settleInCopy(
  copy: OfflineCopy,
  pending: PendingAnswer,
  difficulty: Difficulty | null,
): OfflineCopy {
  const { questionId, reviewedAt } = pending.review;
  const before = toStudyState(copy.states[questionId]);
  const at = new Date(reviewedAt);
  const scheduled = applyReview(
    before,
    {
      isCorrect: pending.isCorrect,
      difficulty: pending.isCorrect ? difficulty : null,
      reviewedAt: at,
    },
    copy.settings,
  );
  const state = placeAfterReview(before, scheduled, at, copy.settings, copyLoads(copy, questionId));
  return { ...copy, states: { ...copy.states, [questionId]: toStoredState(state) } };
}

/** The days each of a flashcard's four ratings gives, from the copy's state and scheduler. */
export function intervalsFromCopy(copy: OfflineCopy, questionId: string, now: Date): NextIntervals {
  return nextIntervals(toStudyState(copy.states[questionId]), now, copy.settings);
}

/**
 * A flashcard rated offline (decision 235): the review as it will be queued, and the copy with the card
 * where the server's replay will put it (the same `applyReview` step `study.sync` replays).
 */
export function rateFlashcardOffline(
  copy: OfflineCopy,
  questionId: string,
  input: { id: string; rating: FlashcardRating; timeSpentMs: number; now: Date },
): { review: Omit<QueuedReview, "seq">; copy: OfflineCopy } {
  const before = toStudyState(copy.states[questionId]);
  const scheduled = applyReview(
    before,
    { ...flashcardReview(input.rating), reviewedAt: input.now },
    copy.settings,
  );
  const state = placeAfterReview(
    before,
    scheduled,
    input.now,
    copy.settings,
    copyLoads(copy, questionId),
  );
  return {
    review: {
      id: input.id,
      questionId,
      selected: [],
      timeSpentMs: input.timeSpentMs,
      reviewedAt: input.now.toISOString(),
      difficulty: null,
      rating: input.rating,
    },
    copy: { ...copy, states: { ...copy.states, [questionId]: toStoredState(state) } },
  };
}

function withStudyData(question: OfflineQuestion, state: StudyState): OfflineQuestion {
  const own = question.studyData[0]?.user ?? "";
  return {
    ...question,
    studyData: [
      {
        user: own,
        easeFactor: state.easeFactor,
        interval: state.intervalDays,
        repetitions: state.repetitions,
        lapses: state.lapses,
        nextReview: state.dueAt?.toISOString() ?? null,
        lastReviewed: state.lastReviewedAt?.toISOString() ?? null,
      },
    ],
  };
}

/** The queue's batches in the order the answers were given. */
export function inAnswerOrder(queue: readonly QueuedReview[]): QueuedReview[] {
  return [...queue].sort((a, b) => a.seq - b.seq);
}
