import type { Difficulty } from "@/core/constants";
import type { FlashcardRating } from "@/core/srs/flashcard";
import type { AnswerResult, StudyQuestion } from "./question-view";

/** What the resident did with one question of the session. */
export interface Entry {
  selected: string[];
  result: AnswerResult | null;
  rated: Difficulty | null;
  /** A flashcard's self-rating (issue 17): its review, Again counting as incorrect. */
  flashcard?: FlashcardRating;
}

export interface Session {
  id: string;
  category: string | null;
  questions: StudyQuestion[];
  index: number;
  entries: Record<string, Entry>;
}

/*
 * Session changes are pure functions of the latest session, applied with React's functional updater
 * (`setSession((s) => s && withRating(s, …))`): rating and moving on happen in one event, and an update
 * built from the copy the event handler closed over would drop the one queued before it.
 */

/** The server's verdict on the resident's selection; not rated yet. */
export function withAnswer(
  session: Session,
  questionId: string,
  selected: string[],
  result: AnswerResult,
): Session {
  return {
    ...session,
    entries: { ...session.entries, [questionId]: { selected, result, rated: null } },
  };
}

/** The difficulty the resident gave an answered question. */
export function withRating(session: Session, questionId: string, difficulty: Difficulty): Session {
  const entry = session.entries[questionId];
  if (!entry) return session;
  return {
    ...session,
    entries: { ...session.entries, [questionId]: { ...entry, rated: difficulty } },
  };
}

/** A flashcard rated by the resident: the rating is the whole review. */
export function withFlashcardRating(
  session: Session,
  questionId: string,
  rating: FlashcardRating,
): Session {
  return {
    ...session,
    entries: {
      ...session.entries,
      [questionId]: { selected: [], result: null, rated: null, flashcard: rating },
    },
  };
}

/** Whether the resident got a question right: its verdict, or its rating for a flashcard. */
export function outcomeOf(entry: Entry | undefined): { isCorrect: boolean } | null {
  if (!entry) return null;
  if (entry.flashcard) return { isCorrect: entry.flashcard !== "again" };
  return entry.result ? { isCorrect: entry.result.isCorrect } : null;
}

/**
 * The next question, if the session is still on `fromIndex` (a second press of Next before the
 * screen updates must not skip a question) and it is not the last one.
 */
export function advancedFrom(session: Session, fromIndex: number): Session {
  if (session.index !== fromIndex || fromIndex >= session.questions.length - 1) return session;
  return { ...session, index: fromIndex + 1 };
}
