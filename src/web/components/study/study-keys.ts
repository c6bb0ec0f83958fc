import { useLayoutEffect } from "react";
import type { Difficulty } from "@/core/constants";
import type { FlashcardRating } from "@/core/srs/flashcard";
import { FLASHCARD_KEYS } from "./flashcard-keys";
import type { StudyQuestion } from "./question-view";
import { visibleOptions } from "./selection";

/** The keys that rate a checked question: 1 Hard, 2 Medium, 3 Easy. */
export const RATINGS: { difficulty: Difficulty; key: string }[] = [
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

/**
 * Keyboard in a session: letters select, Enter checks, 1/2/3 rate after checking; a flashcard's back
 * shows on Space or Enter, then 1-4 rate it Again/Hard/Good/Easy. Subscribed before the browser
 * paints, so a key pressed as soon as a result shows meets the handler that knows about it.
 */
export function useStudyKeys(state: {
  /** The question shown, or null outside a session's question view. */
  current: StudyQuestion | null;
  isFlashcard: boolean;
  revealed: boolean;
  reveal: () => void;
  /** The flashcard's rating is given. */
  cardRated: boolean;
  rateFlashcard: (rating: FlashcardRating) => void;
  /** The question is checked. */
  checked: boolean;
  /** The checked question waits for its rating. */
  awaitsRating: boolean;
  canCheck: boolean;
  toggle: (letter: string) => void;
  check: () => void;
  rateAndAdvance: (difficulty: Difficulty) => void;
}) {
  const { current, isFlashcard, revealed, reveal, cardRated, rateFlashcard } = state;
  useLayoutEffect(() => {
    if (!current || !isFlashcard) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target)) return;
      if (!revealed) {
        if ((event.key === " " || event.key === "Enter") && !isOtherControl(event.target)) {
          event.preventDefault();
          reveal();
        }
        return;
      }
      const rating = FLASHCARD_KEYS[event.key];
      if (rating && !cardRated) {
        event.preventDefault();
        rateFlashcard(rating);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [current, isFlashcard, revealed, reveal, cardRated, rateFlashcard]);

  const { checked, awaitsRating, canCheck, toggle, check, rateAndAdvance } = state;
  useLayoutEffect(() => {
    if (!current || isFlashcard) return;
    const letters = new Set(visibleOptions(current.options).map(([l]) => l));
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target)) return;
      if (!checked) {
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
      if (rating && awaitsRating) {
        event.preventDefault();
        rateAndAdvance(rating.difficulty);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [current, isFlashcard, checked, awaitsRating, canCheck, check, toggle, rateAndAdvance]);
}
