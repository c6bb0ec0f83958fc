/**
 * SM-2 scheduling (docs/product/scheduling.md). Pure: the caller passes the clock.
 */
import {
  DIFFICULTY,
  INITIAL_EASE,
  MASTERED_EASE,
  MAX_INTERVAL_DAYS,
  MIN_EASE,
  type Difficulty,
} from "../constants";

export interface StudyState {
  easeFactor: number;
  intervalDays: number;
  repetitions: number;
  lapses: number;
  /** Null until the first review: never studied counts as due. */
  dueAt: Date | null;
  lastReviewedAt: Date | null;
  /** FSRS memory state (issue 19): stability in days; null/absent while SM-2 schedules. */
  stability?: number | null;
  /** FSRS difficulty (1-10), not the rating buttons' difficulty; null/absent while SM-2 schedules. */
  fsrsDifficulty?: number | null;
}

const DAY_MS = 86_400_000;

/** SM-2 quality grade for each rating button: Hard 3, Medium 4, Easy 5 (all passing grades). */
export const GRADE_BY_DIFFICULTY: Readonly<Record<Difficulty, number>> = {
  [DIFFICULTY.HARD]: 3,
  [DIFFICULTY.MEDIUM]: 4,
  [DIFFICULTY.EASY]: 5,
};

export const LAPSE_EASE_PENALTY = 0.2;

export function initialStudyState(): StudyState {
  return {
    easeFactor: INITIAL_EASE,
    intervalDays: 0,
    repetitions: 0,
    lapses: 0,
    dueAt: null,
    lastReviewedAt: null,
  };
}

/** Two decimals, so repeated ±0.14 steps do not drift (2.36 stays 2.36, not 2.3600000000000003). */
function roundEase(ease: number): number {
  return Math.round(ease * 100) / 100;
}

function addDays(now: Date, days: number): Date {
  // Whole 24-hour days from the moment of review: "due" compares instants, not calendar days.
  return new Date(now.getTime() + days * DAY_MS);
}

/** SM-2 ease change for grade q: EF' = EF + (0.1 − (5−q)·(0.08 + (5−q)·0.02)), floored at 1.3. */
export function nextEase(ease: number, grade: number): number {
  const miss = 5 - grade;
  return Math.max(MIN_EASE, roundEase(ease + 0.1 - miss * (0.08 + miss * 0.02)));
}

/**
 * A passing review rated Hard, Medium or Easy.
 *
 * Interval: 1 day after the first success, 6 after the second, then round(previous interval × ease),
 * at most MAX_INTERVAL_DAYS.
 * The ease used is the one held BEFORE this review changes it, as in SuperMemo's own description of
 * SM-2 (the interval is computed from the current E-Factor, which is then updated from the grade), so
 * the rating affects the growth of the following interval, not of this one.
 */
export function rate(state: StudyState, difficulty: Difficulty, now: Date): StudyState {
  const grade = GRADE_BY_DIFFICULTY[difficulty];
  let intervalDays: number;
  if (state.repetitions <= 0) intervalDays = 1;
  else if (state.repetitions === 1) intervalDays = 6;
  // A damaged row with interval 0 must still move forward, or the card would be due forever.
  else intervalDays = Math.max(1, Math.round(state.intervalDays * state.easeFactor));
  intervalDays = Math.min(intervalDays, MAX_INTERVAL_DAYS);
  return {
    easeFactor: nextEase(state.easeFactor, grade),
    intervalDays,
    repetitions: Math.max(0, state.repetitions) + 1,
    lapses: state.lapses,
    dueAt: addDays(now, intervalDays),
    lastReviewedAt: now,
  };
}

/**
 * A wrong answer (our addition to SM-2, docs/product/scheduling.md): the card starts over tomorrow and gets harder to
 * grow, since SM-2's own failing grades would leave the ease untouched.
 */
export function lapse(state: StudyState, now: Date): StudyState {
  return {
    easeFactor: Math.max(MIN_EASE, roundEase(state.easeFactor - LAPSE_EASE_PENALTY)),
    intervalDays: 1,
    repetitions: 0,
    lapses: state.lapses + 1,
    dueAt: addDays(now, 1),
    lastReviewedAt: now,
  };
}

/** docs/product/constants.md: mastered when the ease exceeds 2.5, i.e. after more Easy than Hard ratings. */
export function isMastered(state: Pick<StudyState, "easeFactor"> | null | undefined): boolean {
  return state != null && state.easeFactor > MASTERED_EASE;
}

/** Due when never studied or when the due date has come (inclusive). */
export function isDue(state: Pick<StudyState, "dueAt"> | null | undefined, now: Date): boolean {
  return state == null || state.dueAt === null || state.dueAt.getTime() <= now.getTime();
}
