import { useCallback, useRef } from "react";
import type { Difficulty } from "@/core/constants";
import type { FlashcardRating } from "@/core/srs/flashcard";
import {
  answerOffline,
  dueFromCopy,
  intervalsFromCopy,
  rateFlashcardOffline,
  settleInCopy,
  type PendingAnswer,
} from "@/web/offline/local-study";
import { useOffline } from "@/web/offline/offline-provider";
import type { StudyQuestion } from "./question-view";
import type { OfflineTally } from "./session-complete";
import type { SessionTally } from "./session-progress";

/** The id of a session studied offline: the server records no session for it. */
export const OFFLINE_SESSION = "offline";
export const NO_OFFLINE_COPY =
  "You are offline, and this device has no questions saved yet. Open Study once while online to keep the next questions for offline study.";

/**
 * Study's offline path (issue 18): a session from the copy kept on the device, its answers checked
 * there and queued for `study.sync`, the copy moved on as the server's replay will move it. Each
 * function stays the same while the device's store does, for the page's callbacks that depend on them.
 */
export function useOfflineStudy(showError: (text: string) => void) {
  const offline = useOffline();
  // The answer given offline that waits for its rating (also kept in IndexedDB against a closed tab).
  const pendingAnswer = useRef<PendingAnswer | null>(null);
  const timeSpentMs = useRef(0);

  /** The questions due in the device's copy; null, and said, when the device has none. */
  const dueQuestions = useCallback(
    async (category: string | undefined) => {
      const copy = await offline.store?.copy();
      if (!copy) {
        showError(NO_OFFLINE_COPY);
        return null;
      }
      return dueFromCopy(copy, new Date(), { category });
    },
    [offline.store, showError],
  );

  /** The days each rating of a flashcard gives, from the copy. */
  const intervals = useCallback(
    async (questionId: string) => {
      const copy = await offline.store?.copy();
      return copy ? intervalsFromCopy(copy, questionId, new Date()) : null;
    },
    [offline.store],
  );

  /**
   * Queues the offline answer waiting for its rating, with the rating if one was given, and moves
   * the card in the copy to where the server's replay will put it.
   */
  const settle = useCallback(
    async (difficulty: Difficulty | null) => {
      const pending = pendingAnswer.current;
      const store = offline.store;
      if (!pending || !store) return;
      pendingAnswer.current = null;
      const copy = await store.copy();
      await store.settle(
        { ...pending.review, difficulty },
        copy && settleInCopy(copy, pending, difficulty),
      );
      offline.queued();
    },
    [offline],
  );

  /** The verdict from the copy on the device, the answer kept until it is rated; null, and said, without a copy. */
  const answer = useCallback(
    async (question: StudyQuestion, chosen: string[], shownAt: number) => {
      const store = offline.store;
      const copy = await store?.copy();
      if (!store || !copy) {
        showError(NO_OFFLINE_COPY);
        return null;
      }
      const { result, pending } = answerOffline(copy, question, {
        id: crypto.randomUUID(),
        selected: chosen,
        timeSpentMs: Math.max(0, Math.round(Date.now() - shownAt)),
        now: new Date(),
      });
      await store.savePending(pending);
      pendingAnswer.current = pending;
      timeSpentMs.current += pending.review.timeSpentMs;
      return result;
    },
    [offline.store, showError],
  );

  /** A flashcard's rating, queued with the card moved on in the copy. */
  const rateFlashcard = useCallback(
    (questionId: string, rating: FlashcardRating, spentMs: number) => {
      const store = offline.store;
      void (async () => {
        const copy = await store?.copy();
        if (!store || !copy) return;
        const out = rateFlashcardOffline(copy, questionId, {
          id: crypto.randomUUID(),
          rating,
          timeSpentMs: spentMs,
          now: new Date(),
        });
        timeSpentMs.current += spentMs;
        await store.settle(out.review, out.copy);
        offline.queued();
      })();
    },
    [offline],
  );

  /** Whether the question's offline answer waits for its rating. */
  const awaitsRating = useCallback(
    (questionId: string) => pendingAnswer.current?.review.questionId === questionId,
    [],
  );
  /** A new session: its time starts at zero. */
  const restart = useCallback(() => {
    timeSpentMs.current = 0;
  }, []);
  /** The finished session's figures, with the time spent answering offline. */
  const tally = useCallback(
    (tally: SessionTally): OfflineTally => ({
      answered: tally.answered,
      correct: tally.correct,
      timeSpentMs: timeSpentMs.current,
    }),
    [],
  );

  return { dueQuestions, intervals, settle, answer, rateFlashcard, awaitsRating, restart, tally };
}
