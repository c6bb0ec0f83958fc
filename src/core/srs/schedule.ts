/**
 * The one place that picks SM-2 or FSRS for a state change (issue 19). The study service, replay and
 * every other writer go through these, so the user's scheduler applies everywhere.
 */
import { Rating } from "ts-fsrs";
import { DIFFICULTY, type Difficulty } from "../constants";
import { cutForExam } from "./exam-plan";
import { fsrsGrade, fsrsReview, type SchedulerSettings } from "./fsrs";
import { lapse, rate, type StudyState } from "./index";

export const SM2_SETTINGS: SchedulerSettings = {
  scheduler: "sm2",
  desiredRetention: 0.9,
  maximumInterval: 36_500,
  parameters: null,
};

/**
 * An answer, before its rating. Wrong: a lapse now (SM-2) or Again now (FSRS). Right: the schedule
 * waits for the rating; SM-2 marks the review time, FSRS leaves the state untouched so the rating
 * measures the time elapsed since the previous review (decision 131).
 */
export function answerState(
  state: StudyState,
  isCorrect: boolean,
  now: Date,
  settings: SchedulerSettings,
): StudyState {
  if (settings.scheduler === "fsrs") {
    return isCorrect
      ? state
      : cutForExam(fsrsReview(state, Rating.Again, now, settings), now, settings);
  }
  return isCorrect ? { ...state, lastReviewedAt: now } : lapse(state, now);
}

/** The rating of a right answer (or a rating with no answer waiting): schedules the card. */
export function rateState(
  state: StudyState,
  difficulty: Difficulty,
  now: Date,
  settings: SchedulerSettings,
): StudyState {
  if (settings.scheduler === "fsrs") {
    return cutForExam(fsrsReview(state, fsrsGrade(true, difficulty), now, settings), now, settings);
  }
  // The maximum interval applies to SM-2 too (Settings › Study says so for both schedulers).
  const next = rate(state, difficulty, now);
  if (next.intervalDays <= settings.maximumInterval) return next;
  return {
    ...next,
    intervalDays: settings.maximumInterval,
    dueAt: new Date(now.getTime() + settings.maximumInterval * 86_400_000),
  };
}

export interface NextIntervals {
  again: number;
  hard: number;
  good: number;
  easy: number;
}

/** Days until the card comes back for each of the four ratings, from `state` as it is before the answer. */
export function nextIntervals(
  state: StudyState,
  now: Date,
  settings: SchedulerSettings,
): NextIntervals {
  return {
    again: answerState(state, false, now, settings).intervalDays,
    hard: rateState(state, DIFFICULTY.HARD, now, settings).intervalDays,
    good: rateState(state, DIFFICULTY.MEDIUM, now, settings).intervalDays,
    easy: rateState(state, DIFFICULTY.EASY, now, settings).intervalDays,
  };
}
