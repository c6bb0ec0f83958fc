import { INITIAL_EASE, MAX_INTERVAL_DAYS, MIN_EASE } from "../../constants";
import type { StudyState } from "../../srs";
import type { AnkiProgress } from "./convert";

const DAY_MS = 86_400_000;
/** Anki lets ease grow without bound; SM-2 here never meets more than this in practice. */
const MAX_IMPORTED_EASE = 5;

/**
 * "Keep my Anki progress" (decision 241): an Anki card's scheduling as the importer's study state,
 * the same row under SM-2 and FSRS. Ease = Anki's factor (2500 → 2.5, within 1.3-5), interval and
 * due as Anki had them, lapses as counted by Anki; repetitions = Anki's reviews for a card in review
 * (SM-2 then grows the interval by the ease, as Anki does for a graduated card) and 0 for a card in
 * (re)learning (its next success gives 1 day, like the end of Anki's steps). The last review is
 * taken as due − interval (never after `now`), so FSRS sees an already studied card and bridges it
 * from these SM-2 fields (decision 131); the FSRS memory state is left empty for that bridge.
 */
export function studyStateFromAnki(progress: AnkiProgress, now: Date): StudyState {
  const intervalDays = Math.min(MAX_INTERVAL_DAYS, Math.max(0, Math.round(progress.intervalDays)));
  const ease = progress.easeFactor ?? INITIAL_EASE;
  const easeFactor = Math.round(Math.min(MAX_IMPORTED_EASE, Math.max(MIN_EASE, ease)) * 100) / 100;
  const dueAt = new Date(progress.dueAt ?? now.getTime());
  const review = progress.state === "review";
  const last = Math.min(now.getTime(), dueAt.getTime() - (review ? intervalDays * DAY_MS : 0));
  return {
    easeFactor,
    intervalDays,
    repetitions: review ? Math.max(1, progress.reps) : 0,
    lapses: Math.max(0, progress.lapses),
    dueAt,
    lastReviewedAt: new Date(last),
    stability: null,
    fsrsDifficulty: null,
  };
}
