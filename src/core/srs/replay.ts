/**
 * A study state rebuilt from the review log: the same steps the live answer-then-rate flow takes
 * (decision 020), applied in the order the reviews were given. Offline sync (reviews arriving late or
 * from two devices) and a change of scheduler (issue 19) both need it; live scheduling and replay must
 * agree, so both go through `answerState` / `rateState` (schedule.ts) for the user's scheduler.
 */
import type { Difficulty } from "../constants";
import type { SchedulerSettings } from "./fsrs";
import { initialStudyState, type StudyState } from "./index";
import { answerState, rateState, SM2_SETTINGS } from "./schedule";

/** One row of the review log, as much of it as scheduling reads. */
export interface ReplayReview {
  isCorrect: boolean;
  /** The rating given after the answer; null while (or if) it was never rated. */
  difficulty: Difficulty | null;
  reviewedAt: Date;
}

/**
 * A wrong answer is a lapse (SM-2) or Again (FSRS) at its time (its later rating changes nothing); a
 * right one is scheduled by its rating, and one never rated changes what the live flow's answer step
 * changes. SM-2 unless `settings` says otherwise.
 */
export function applyReview(
  state: StudyState,
  review: ReplayReview,
  settings: SchedulerSettings = SM2_SETTINGS,
): StudyState {
  const answered = answerState(state, review.isCorrect, review.reviewedAt, settings);
  if (!review.isCorrect || review.difficulty === null) return answered;
  return rateState(state, review.difficulty, review.reviewedAt, settings);
}

/** Reviews in the order given (ties keep their log order); the state of a never-reviewed card when empty. */
export function replayReviews(
  reviews: readonly ReplayReview[],
  settings: SchedulerSettings = SM2_SETTINGS,
): StudyState {
  const ordered = reviews
    .map((review, index) => ({ review, index }))
    .sort(
      (a, b) => a.review.reviewedAt.getTime() - b.review.reviewedAt.getTime() || a.index - b.index,
    );
  let state = initialStudyState();
  for (const { review } of ordered) state = applyReview(state, review, settings);
  return state;
}
