/**
 * FSRS scheduling over ts-fsrs (issue 19). Pure and isomorphic: the server, the browser and the CLI
 * compute the same thing. The caller passes the clock.
 *
 * Ratings (COORDINATION "Ratings"): a wrong answer is Again; after a right answer the difficulty
 * buttons Hard / Good (Medium) / Easy are FSRS's Hard / Good / Easy.
 *
 * The FSRS state lives beside the SM-2 one (decision 130): stability and difficulty are FSRS's memory
 * state, intervalDays / dueAt are the schedule, and the ease keeps following the SM-2 ease rule under
 * both schedulers, so "mastered" (ease > 2.5) and the due queue (dueAt ≤ now) mean the same thing
 * whichever scheduler made the schedule.
 */
import {
  CLAMP_PARAMETERS,
  createEmptyCard,
  default_w,
  fsrs,
  generatorParameters,
  Rating,
  State,
  W17_W18_Ceiling,
  type Card,
  type FSRS,
  type Grade,
} from "ts-fsrs";
import { DIFFICULTY, MAX_INTERVAL_DAYS, MIN_EASE, type Difficulty } from "../constants";
import {
  GRADE_BY_DIFFICULTY,
  initialStudyState,
  LAPSE_EASE_PENALTY,
  nextEase,
  type StudyState,
} from "./index";

export type SchedulerName = "sm2" | "fsrs";
export const SCHEDULERS: readonly SchedulerName[] = ["sm2", "fsrs"];

export const DEFAULT_RETENTION = 0.9;
export const MIN_RETENTION = 0.7;
export const MAX_RETENTION = 0.97;
export const FSRS_PARAMETER_COUNT = 21;
/** FSRS-6 defaults (ts-fsrs 5.4). */
export const DEFAULT_FSRS_PARAMETERS: readonly number[] = [...default_w];

export interface FsrsSettings {
  /** Probability of recall aimed for when a card comes due (0.70-0.97). */
  desiredRetention: number;
  /** Longest interval, in days. */
  maximumInterval: number;
  /** 21 FSRS-6 weights; null = the defaults. */
  parameters: readonly number[] | null;
}

/** The exam as the scheduler sees it (issue 34): the start of the exam day, and the recall wanted then. */
export interface ExamTarget {
  /** Epoch milliseconds of the first instant of the exam day in the resident's time zone. */
  at: number;
  targetRetention: number;
}

export interface SchedulerSettings extends FsrsSettings {
  scheduler: SchedulerName;
  /** The exam date's rule (exam-plan.ts `cutForExam`); absent or null without a date. */
  exam?: ExamTarget | null;
  /** Where a live review lands among its allowed days (exam-plan.ts `placeReview`); absent = exact. */
  placement?: {
    loadBalance: boolean;
    /** Light weekdays, 0 = Sunday … 6 = Saturday. */
    easyDays: readonly number[];
    timeZone: string;
  } | null;
}

export const DEFAULT_FSRS_SETTINGS: FsrsSettings = {
  desiredRetention: DEFAULT_RETENTION,
  maximumInterval: MAX_INTERVAL_DAYS,
  parameters: null,
};

export const INVALID_PARAMETERS =
  "These FSRS parameters are not valid: 21 numbers, each within FSRS's allowed range, are needed.";

/**
 * Null when the parameter set can be used, else why not. FSRS-6 only (21 weights); each within the
 * range ts-fsrs clamps to (long-term scheduling, no short-term steps).
 */
export function parameterProblem(parameters: readonly number[]): string | null {
  if (parameters.length !== FSRS_PARAMETER_COUNT) return INVALID_PARAMETERS;
  const ranges = CLAMP_PARAMETERS(W17_W18_Ceiling, false);
  for (let i = 0; i < parameters.length; i++) {
    const value = parameters[i]!;
    const [lo, hi] = ranges[i]!;
    if (!Number.isFinite(value) || value < lo! || value > hi!) return INVALID_PARAMETERS;
  }
  return null;
}

export function isValidParameters(parameters: readonly number[]): boolean {
  return parameterProblem(parameters) === null;
}

const DAY_MS = 86_400_000;

const schedulerCache = new Map<string, FSRS>();

/** A ts-fsrs scheduler for these settings: no fuzz (replay must be deterministic), no short-term steps. */
export function fsrsScheduler(settings: FsrsSettings): FSRS {
  const w = settings.parameters ?? DEFAULT_FSRS_PARAMETERS;
  const key = `${settings.desiredRetention}|${settings.maximumInterval}|${w.join(",")}`;
  let scheduler = schedulerCache.get(key);
  if (!scheduler) {
    scheduler = fsrs(
      generatorParameters({
        request_retention: settings.desiredRetention,
        maximum_interval: settings.maximumInterval,
        w: [...w],
        enable_fuzz: false,
        enable_short_term: false,
      }),
    );
    if (schedulerCache.size > 64) schedulerCache.clear();
    schedulerCache.set(key, scheduler);
  }
  return scheduler;
}

const RATING_BY_DIFFICULTY: Readonly<Record<Difficulty, Grade>> = {
  [DIFFICULTY.HARD]: Rating.Hard,
  [DIFFICULTY.MEDIUM]: Rating.Good,
  [DIFFICULTY.EASY]: Rating.Easy,
};

/** The FSRS grade of a review: Again when wrong, else the rating's. */
export function fsrsGrade(isCorrect: boolean, difficulty: Difficulty): Grade {
  return isCorrect ? RATING_BY_DIFFICULTY[difficulty] : Rating.Again;
}

/**
 * A studied card with no FSRS memory state yet (written under SM-2 by a path that did not replay, such as
 * a seed or an import): its SM-2 interval is taken as the stability (recall 0.9 when due) and its ease
 * mapped onto FSRS difficulty (ease 1.3 → 9, 3.0 → 3), so it is never treated as new (decision 131).
 */
export function memoryFromSm2(state: StudyState): { stability: number; difficulty: number } {
  const difficulty = 9 - ((state.easeFactor - 1.3) / 1.7) * 6;
  return {
    stability: Math.max(0.5, state.intervalDays),
    difficulty: Math.min(10, Math.max(1, difficulty)),
  };
}

function toCard(state: StudyState, now: Date): Card {
  if (state.lastReviewedAt == null) return createEmptyCard(now);
  const memory =
    state.stability != null && state.fsrsDifficulty != null
      ? { stability: state.stability, difficulty: state.fsrsDifficulty }
      : memoryFromSm2(state);
  return {
    ...createEmptyCard(now),
    due: state.dueAt ?? now,
    stability: memory.stability,
    difficulty: memory.difficulty,
    scheduled_days: state.intervalDays,
    reps: state.repetitions,
    lapses: state.lapses,
    state: State.Review,
    last_review: state.lastReviewedAt,
  };
}

/** The FSRS step for one graded review; ease, repetitions and lapses follow the SM-2 rules (decision 130). */
export function fsrsReview(
  state: StudyState,
  grade: Grade,
  now: Date,
  settings: FsrsSettings,
): StudyState {
  const { card } = fsrsScheduler(settings).next(toCard(state, now), now, grade);
  const intervalDays = Math.min(
    settings.maximumInterval,
    Math.max(1, Math.round((card.due.getTime() - now.getTime()) / DAY_MS)),
  );
  const again = grade === Rating.Again;
  const difficulty = (grade - 2) as Difficulty;
  return {
    easeFactor: again
      ? Math.max(MIN_EASE, Math.round((state.easeFactor - LAPSE_EASE_PENALTY) * 100) / 100)
      : nextEase(state.easeFactor, GRADE_BY_DIFFICULTY[difficulty]),
    intervalDays,
    repetitions: again ? 0 : Math.max(0, state.repetitions) + 1,
    lapses: state.lapses + (again ? 1 : 0),
    dueAt: new Date(now.getTime() + intervalDays * DAY_MS),
    lastReviewedAt: now,
    stability: card.stability,
    fsrsDifficulty: card.difficulty,
  };
}

/** FSRS-6's forgetting curve R(t) = (1 + factor·t/S)^(−decay), with 0.9 at t = S. */
function curve(parameters: readonly number[]): { decay: number; factor: number } {
  const decay = -parameters[20]!;
  return { decay, factor: Math.pow(0.9, 1 / decay) - 1 };
}

/** Probability of recall of a card `elapsedDays` after its last review, by FSRS's forgetting curve. */
export function retrievability(
  stability: number,
  elapsedDays: number,
  parameters: readonly number[] = DEFAULT_FSRS_PARAMETERS,
): number {
  const { decay, factor } = curve(parameters);
  return Math.pow(1 + (factor * Math.max(0, elapsedDays)) / stability, decay);
}

/** The interval FSRS gives a stability at a desired retention, before the maximum (whole days ≥ 1). */
export function intervalForStability(
  stability: number,
  desiredRetention: number,
  parameters: readonly number[] = DEFAULT_FSRS_PARAMETERS,
): number {
  const { decay, factor } = curve(parameters);
  return Math.max(
    1,
    Math.round((stability / factor) * (Math.pow(desiredRetention, 1 / decay) - 1)),
  );
}

export interface PredictionMetrics {
  /** Mean binary cross-entropy of the predicted recall against the outcome (lower is better). */
  logLoss: number;
  /** RMSE between predicted and observed recall over 20 bins of prediction, weighted by count. */
  rmse: number;
  /** How many reviews were predicted (those at least a day after the card's previous review). */
  count: number;
}

export interface GradedReview {
  isCorrect: boolean;
  difficulty: Difficulty | null;
  reviewedAt: Date;
}

/**
 * How well FSRS with `parameters` predicts a review log: each card's reviews in order, each one a
 * day or more after the previous predicted from the memory state the app itself would hold.
 * A right answer never rated is not a grade and is skipped, as by the optimizer.
 */
export function evaluateLog(
  cards: readonly (readonly GradedReview[])[],
  parameters: readonly number[] | null,
  /** Only reviews at or after this time are scored (a held-out tail); all earlier ones still count for the state. */
  scoreFrom: Date | null = null,
): PredictionMetrics {
  const settings: FsrsSettings = { ...DEFAULT_FSRS_SETTINGS, parameters };
  const w = parameters ?? DEFAULT_FSRS_PARAMETERS;
  const bins = Array.from({ length: 20 }, () => ({ n: 0, p: 0, y: 0 }));
  let loss = 0;
  let count = 0;
  for (const card of cards) {
    let state: StudyState = initialStudyState();
    const ordered = [...card].sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
    for (const r of ordered) {
      if (r.isCorrect && r.difficulty === null) continue;
      if (state.stability != null && state.lastReviewedAt) {
        const elapsed = Math.floor(
          (r.reviewedAt.getTime() - state.lastReviewedAt.getTime()) / DAY_MS,
        );
        if (elapsed >= 1 && (scoreFrom === null || r.reviewedAt >= scoreFrom)) {
          const p = Math.min(1 - 1e-6, Math.max(1e-6, retrievability(state.stability, elapsed, w)));
          const y = r.isCorrect ? 1 : 0;
          loss += -(y * Math.log(p) + (1 - y) * Math.log(1 - p));
          const bin = bins[Math.min(19, Math.floor(p * 20))]!;
          bin.n += 1;
          bin.p += p;
          bin.y += y;
          count += 1;
        }
      }
      state = fsrsReview(state, fsrsGrade(r.isCorrect, r.difficulty ?? 1), r.reviewedAt, settings);
    }
  }
  if (count === 0) return { logLoss: 0, rmse: 0, count: 0 };
  let se = 0;
  for (const b of bins) if (b.n > 0) se += b.n * ((b.p - b.y) / b.n) ** 2;
  return { logLoss: loss / count, rmse: Math.sqrt(se / count), count };
}
