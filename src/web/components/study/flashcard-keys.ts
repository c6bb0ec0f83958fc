import type { FlashcardRating } from "@/core/srs/flashcard";

/** The keys that rate a revealed flashcard, as in Anki: 1 Again, 2 Hard, 3 Good, 4 Easy. */
export const FLASHCARD_KEYS: Readonly<Record<string, FlashcardRating>> = {
  "1": "again",
  "2": "hard",
  "3": "good",
  "4": "easy",
};
