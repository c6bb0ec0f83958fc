/**
 * A flashcard's self-rating (issue 17, decision 235): Again, Hard, Good or Easy after the back is
 * revealed. A rating is stored as one review row, the shape every multiple-choice answer has, so the
 * schedulers, the replay of the log, offline sync and the statistics need nothing of their own:
 *   Again  → an incorrect review (a lapse under SM-2, FSRS Again), no difficulty;
 *   Hard   → a correct review rated Hard   (SM-2 quality 3, FSRS Hard);
 *   Good   → a correct review rated Medium (SM-2 quality 4, FSRS Good);
 *   Easy   → a correct review rated Easy   (SM-2 quality 5, FSRS Easy).
 */
import { DIFFICULTY, type Difficulty } from "../constants";
import type { NextIntervals } from "./schedule";

export const FLASHCARD_RATINGS = ["again", "hard", "good", "easy"] as const;
export type FlashcardRating = (typeof FLASHCARD_RATINGS)[number];

export const FLASHCARD_RATING_LABELS: Readonly<Record<FlashcardRating, string>> = {
  again: "Again",
  hard: "Hard",
  good: "Good",
  easy: "Easy",
};

/** What a rating stores in the review log: whether it counts as correct, and its difficulty. */
export interface FlashcardReview {
  isCorrect: boolean;
  difficulty: Difficulty | null;
}

const REVIEW_BY_RATING: Readonly<Record<FlashcardRating, FlashcardReview>> = {
  again: { isCorrect: false, difficulty: null },
  hard: { isCorrect: true, difficulty: DIFFICULTY.HARD },
  good: { isCorrect: true, difficulty: DIFFICULTY.MEDIUM },
  easy: { isCorrect: true, difficulty: DIFFICULTY.EASY },
};

export function flashcardReview(rating: FlashcardRating): FlashcardReview {
  return REVIEW_BY_RATING[rating];
}

/** The rating a stored review stands for (a correct review never rated reads as Good). */
export function ratingOfReview(review: FlashcardReview): FlashcardRating {
  if (!review.isCorrect) return "again";
  if (review.difficulty === DIFFICULTY.HARD) return "hard";
  if (review.difficulty === DIFFICULTY.EASY) return "easy";
  return "good";
}

/** Days until the card comes back after `rating`, from the scheduler's `nextIntervals`. */
export function intervalForRating(next: NextIntervals, rating: FlashcardRating): number {
  return next[rating];
}
