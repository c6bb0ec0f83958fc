import { z } from "zod";
import { LIMITS, MAX_TIME_SPENT_MS, NUM_CORRECT_ANSWERS_MAX } from "../constants";
import {
  EXAM_LIMITS,
  EXAM_MODES,
  EXAM_PARTS,
  EXAM_POOLS,
  JOIN_CODE_ALPHABET,
  JOIN_CODE_LENGTH,
  normalizeJoinCode,
  REVIEW_FILTERS,
} from "../exams/settings";
import { ZOptionLetter } from "./common";
import { STUDY_MESSAGES, ZQuestionId } from "./study";

export const EXAM_MESSAGES = {
  SIZE: `Number of questions must be a whole number from ${EXAM_LIMITS.SIZE_MIN} to ${EXAM_LIMITS.SIZE_MAX}`,
  SECONDS: `Seconds per question must be a whole number from ${EXAM_LIMITS.SECONDS_MIN} to ${EXAM_LIMITS.SECONDS_MAX}`,
  PART: "Part must be 1, 2 or both",
  POOL: "Pool must be unused, incorrect, flagged or all",
  MODE: "Mode must be tutor or timed",
  CATEGORIES: "Categories must be a list of category names",
  FILTER: "Filter must be all, incorrect, flagged or unanswered",
  EXAM_ID: "Exam id must be a valid id",
  JOIN_CODE: `Join code must be ${JOIN_CODE_LENGTH} letters and digits`,
  SELECTION_LONG: STUDY_MESSAGES.SELECTION_LONG,
  SELECTION_REPEATED: STUDY_MESSAGES.SELECTION_REPEATED,
} as const;

/** Numbers from a form or a query string arrive as text: whole numbers in range, else the message. */
const wholeNumber = (min: number, max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
    z.number({ error: message }).int(message).min(min, message).max(max, message),
  );

export const ZExamId = z.uuid({ error: EXAM_MESSAGES.EXAM_ID });

export const ZCreateExamRequest = z.object({
  size: wholeNumber(EXAM_LIMITS.SIZE_MIN, EXAM_LIMITS.SIZE_MAX, EXAM_MESSAGES.SIZE).default(
    EXAM_LIMITS.SIZE_DEFAULT,
  ),
  part: z.enum(EXAM_PARTS, { error: EXAM_MESSAGES.PART }).default("both"),
  /** Absent or empty: every category. */
  categories: z
    .array(z.string({ error: EXAM_MESSAGES.CATEGORIES }).trim().max(LIMITS.CATEGORY), {
      error: EXAM_MESSAGES.CATEGORIES,
    })
    .max(EXAM_LIMITS.CATEGORIES_MAX, EXAM_MESSAGES.CATEGORIES)
    .default([]),
  pool: z.enum(EXAM_POOLS, { error: EXAM_MESSAGES.POOL }).default("all"),
  mode: z.enum(EXAM_MODES, { error: EXAM_MESSAGES.MODE }).default("timed"),
  secondsPerQuestion: wholeNumber(
    EXAM_LIMITS.SECONDS_MIN,
    EXAM_LIMITS.SECONDS_MAX,
    EXAM_MESSAGES.SECONDS,
  ).default(EXAM_LIMITS.SECONDS_DEFAULT),
});
export type TCreateExamRequest = z.output<typeof ZCreateExamRequest>;

export const ZExamIdInput = z.object({ examId: ZExamId });

const ZLetters = z
  .array(ZOptionLetter)
  .max(NUM_CORRECT_ANSWERS_MAX, EXAM_MESSAGES.SELECTION_LONG)
  .refine((l) => new Set(l).size === l.length, EXAM_MESSAGES.SELECTION_REPEATED);

/** One answer, saved as it is given; an empty selection clears it (timed mode). */
export const ZExamAnswerRequest = z.object({
  examId: ZExamId,
  questionId: ZQuestionId,
  selected: ZLetters,
  /** The time spent on this question so far, measured by the client; capped, never refused. */
  timeSpentMs: z
    .number({ error: STUDY_MESSAGES.TIME_SPENT })
    .int(STUDY_MESSAGES.TIME_SPENT)
    .min(0, STUDY_MESSAGES.TIME_SPENT)
    .transform((ms) => Math.min(ms, MAX_TIME_SPENT_MS))
    .default(0),
});
export type TExamAnswerRequest = z.output<typeof ZExamAnswerRequest>;

export const ZExamFlagRequest = z.object({
  examId: ZExamId,
  questionId: ZQuestionId,
  flagged: z.boolean({ error: "Flagged must be true or false" }),
});

/** The options struck out on a question, the whole list each time. */
export const ZExamEliminateRequest = z.object({
  examId: ZExamId,
  questionId: ZQuestionId,
  eliminated: ZLetters,
});

export const ZExamReviewRequest = z.object({
  examId: ZExamId,
  filter: z.enum(REVIEW_FILTERS, { error: EXAM_MESSAGES.FILTER }).default("all"),
});

const codePattern = new RegExp(`^[${JOIN_CODE_ALPHABET}]{${JOIN_CODE_LENGTH}}$`);

export const ZJoinCode = z
  .string({ error: EXAM_MESSAGES.JOIN_CODE })
  .transform(normalizeJoinCode)
  .pipe(z.string().regex(codePattern, EXAM_MESSAGES.JOIN_CODE));

export const ZJoinCodeInput = z.object({ code: ZJoinCode });
