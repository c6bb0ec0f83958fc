/**
 * What the study writer's two paths share (study-writer.service.ts and its live path,
 * study-writer-live.ts): the user's columns every state change starts from and the settings made of
 * them, and a stored state as the scheduler's.
 */
import { initialStudyState, type StudyState } from "../../../core/srs";
import type { SchedulerSettings } from "../../../core/srs/fsrs";
import { startOfLocalDay } from "../../../core/srs/exam-plan";
import { resolveTimeZone } from "../../../core/stats/days";
import type { users, StudyStateRow } from "../../db/schema";
import type { WriterProgram } from "../programs/assignment-progress";
import type { QuestionJson, StoredQuestion } from "../questions/question-json";
import type { SchedulerName } from "../../../core/srs/fsrs";
import { nextIntervals, type NextIntervals } from "../../../core/srs/schedule";

export interface WriterContext {
  settings: SchedulerSettings;
  program: WriterProgram | null;
}

/** The user row's columns every state change starts from, of `users` or an alias of it. */
export function writerUserFields(u: typeof users) {
  return {
    scheduler: u.scheduler,
    desiredRetention: u.desiredRetention,
    maximumInterval: u.maximumInterval,
    parameters: u.fsrsParameters,
    programId: u.programId,
    programRole: u.programRole,
    pgyLevel: u.pgyLevel,
    examDate: u.examDate,
    examTargetRetention: u.examTargetRetention,
    timeZone: u.timeZone,
    loadBalance: u.loadBalance,
    easyDays: u.easyDays,
  };
}

type UserRow = typeof users.$inferSelect;
type WriterUserRow = { parameters: UserRow["fsrsParameters"] } & Pick<
  UserRow,
  | "scheduler"
  | "desiredRetention"
  | "maximumInterval"
  | "programId"
  | "programRole"
  | "pgyLevel"
  | "examDate"
  | "examTargetRetention"
  | "timeZone"
  | "loadBalance"
  | "easyDays"
>;

/** The scheduler settings and the resident's program, from the columns of writerUserFields. */
export function writerContextOf(row: WriterUserRow): WriterContext {
  return {
    settings: {
      scheduler: row.scheduler === "fsrs" ? "fsrs" : "sm2",
      desiredRetention: row.desiredRetention,
      maximumInterval: row.maximumInterval,
      parameters: row.parameters ?? null,
      // The exam plan (issue 34, decision 375): the exam day's first instant in the resident's zone.
      exam: row.examDate
        ? {
            at: startOfLocalDay(row.examDate, row.timeZone),
            targetRetention: row.examTargetRetention,
          }
        : null,
      placement: {
        loadBalance: row.loadBalance,
        easyDays: [...row.easyDays],
        timeZone: resolveTimeZone(row.timeZone),
      },
    },
    program:
      row.programId && row.programRole === "resident"
        ? { programId: row.programId, pgyLevel: row.pgyLevel }
        : null,
  };
}

export function toState(row: StudyStateRow | undefined): StudyState {
  if (!row) return initialStudyState();
  return {
    easeFactor: row.easeFactor,
    intervalDays: row.intervalDays,
    repetitions: row.repetitions,
    lapses: row.lapses,
    dueAt: row.dueAt,
    lastReviewedAt: row.lastReviewedAt,
    stability: row.stability,
    fsrsDifficulty: row.fsrsDifficulty,
  };
}

export interface AnswerResult {
  isCorrect: boolean;
  selected: string[];
  correctAnswer: string;
  correctAnswers: string[];
  explanation: string;
  generatedExplanation: string;
  category: string;
  reviewId: number;
  /** The question with the caller's study entry after this answer. */
  question: QuestionJson;
  /** The caller's scheduler, and the days until the card comes back for each rating (issue 19). */
  scheduler: SchedulerName;
  nextIntervals: NextIntervals;
}

/**
 * The letters chosen, upper case, once each, in order; null when one is not an option of the question.
 * Both writer paths judge the same selection this way.
 */
export function normalizedSelection(question: StoredQuestion, chosen: string[]): string[] | null {
  const optionLetters = new Set(Object.keys(question.options));
  const selected = [...new Set(chosen.map((l) => l.toUpperCase()))].sort();
  return selected.some((l) => !optionLetters.has(l)) ? null : selected;
}

/** What an answer returns, from either writer path. */
export function answerResultOf(
  question: StoredQuestion,
  answer: {
    isCorrect: boolean;
    selected: string[];
    key: string[];
    reviewId: number;
    json: QuestionJson;
    before: StudyState;
    now: Date;
    settings: SchedulerSettings;
  },
): AnswerResult {
  return {
    isCorrect: answer.isCorrect,
    selected: answer.selected,
    correctAnswer: question.correctAnswer,
    correctAnswers: answer.key,
    explanation: question.explanation,
    generatedExplanation: question.generatedExplanation,
    category: question.category,
    reviewId: answer.reviewId,
    question: answer.json,
    scheduler: answer.settings.scheduler,
    nextIntervals: nextIntervals(answer.before, answer.now, answer.settings),
  };
}
