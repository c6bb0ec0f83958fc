import { z } from "zod";
import {
  DIFFICULTY,
  DUE_PAGE,
  LIMITS,
  MAX_TIME_SPENT_MS,
  NUM_CORRECT_ANSWERS_MAX,
  SYNC,
  type Difficulty,
} from "../constants";
import { FLASHCARD_RATINGS } from "../srs/flashcard";
import { CATCH_UP_DAYS } from "../srs/catch-up";
import { LEECH_THRESHOLD, NEW_PER_DAY } from "../srs/daily";
import { ZOptionLetter } from "./common";

export const STUDY_MESSAGES = {
  DIFFICULTY: "Difficulty must be 0 (Hard), 1 (Medium) or 2 (Easy)",
  SELECTION_EMPTY: "Please select an answer",
  SELECTION_LONG: `At most ${NUM_CORRECT_ANSWERS_MAX} answers can be selected`,
  SELECTION_REPEATED: "Each answer can be selected only once",
  QUESTION_ID: "Question id must be a valid id",
  TIME_SPENT: "Time spent must be a whole number of milliseconds from 0",
  FLASHCARD_RATING: "Rating must be again, hard, good or easy",
} as const;

/** PATCH /questions/{id}/study (docs/product/rest-api.md): Hard 0, Medium 1, Easy 2, and nothing else. */
export const ZDifficulty = z.union(
  [z.literal(DIFFICULTY.HARD), z.literal(DIFFICULTY.MEDIUM), z.literal(DIFFICULTY.EASY)],
  { error: STUDY_MESSAGES.DIFFICULTY },
);
export type TDifficulty = Difficulty;

export const ZQuestionId = z.uuid({ error: STUDY_MESSAGES.QUESTION_ID });

export const ZRateInput = z.object({ questionId: ZQuestionId, difficulty: ZDifficulty });
export type TRateInput = z.output<typeof ZRateInput>;

/** A flashcard's self-rating (issue 17, decision 235). */
export const ZFlashcardRating = z.enum(FLASHCARD_RATINGS, {
  error: STUDY_MESSAGES.FLASHCARD_RATING,
});

// Capped rather than refused: the answer itself is worth keeping when a tab was left open.
const ZTimeSpent = z
  .number({ error: STUDY_MESSAGES.TIME_SPENT })
  .int(STUDY_MESSAGES.TIME_SPENT)
  .min(0, STUDY_MESSAGES.TIME_SPENT)
  .transform((ms) => Math.min(ms, MAX_TIME_SPENT_MS));

const ZSelection = z
  .array(ZOptionLetter, { error: STUDY_MESSAGES.SELECTION_EMPTY })
  .max(NUM_CORRECT_ANSWERS_MAX, STUDY_MESSAGES.SELECTION_LONG)
  .refine((letters) => new Set(letters).size === letters.length, STUDY_MESSAGES.SELECTION_REPEATED);

/** A flashcard rated after its back was revealed: the review itself (no answer to check). */
export const ZRateFlashcardInput = z.object({
  questionId: ZQuestionId,
  rating: ZFlashcardRating,
  timeSpentMs: ZTimeSpent.default(0),
});
export type TRateFlashcardInput = z.output<typeof ZRateFlashcardInput>;

/**
 * One answer. Correctness is decided by the server from the stored answers (docs/product/product-decisions.md), so the client
 * sends only what was selected.
 */
export const ZAnswerInput = z.object({
  questionId: ZQuestionId,
  selected: ZSelection.min(1, STUDY_MESSAGES.SELECTION_EMPTY),
  timeSpentMs: ZTimeSpent,
});
export type TAnswerInput = z.output<typeof ZAnswerInput>;

export const SYNC_MESSAGES = {
  REVIEW_ID: "Each answer needs a valid id",
  REVIEWED_AT: "Each answer needs the time it was given",
  EMPTY: "There are no answers to sync",
  TOO_MANY: `At most ${SYNC.BATCH} answers can be synced at once`,
  // Reasons a single answer is refused (the rest of the batch still syncs); the app shows them.
  FUTURE: "This answer's time is in the future. Check the date and time on your device.",
  TOO_OLD: `This answer was given more than ${SYNC.MAX_AGE_DAYS} days ago and can no longer be synced.`,
  QUESTION_GONE: "This question was deleted or is no longer shared with you.",
} as const;

/**
 * One answer given offline (issue 18), with the id the device gave it and the time it was given. A
 * right answer carries its rating when the resident gave one; correctness is decided by the server.
 * A flashcard's review (issue 17) carries its `rating` instead of a selection.
 */
export const ZSyncReview = z
  .object({
    id: z.uuid({ error: SYNC_MESSAGES.REVIEW_ID }),
    questionId: ZQuestionId,
    selected: ZSelection.default([]),
    timeSpentMs: ZTimeSpent,
    reviewedAt: z.iso.datetime({ offset: true, error: SYNC_MESSAGES.REVIEWED_AT }),
    difficulty: ZDifficulty.nullable().default(null),
    rating: ZFlashcardRating.optional(),
  })
  .superRefine((review, ctx) => {
    if (review.rating === undefined && review.selected.length === 0) {
      ctx.addIssue({ code: "custom", path: ["selected"], message: STUDY_MESSAGES.SELECTION_EMPTY });
    }
  });
export type TSyncReview = z.output<typeof ZSyncReview>;

export const ZSyncInput = z.object({
  reviews: z.array(ZSyncReview).min(1, SYNC_MESSAGES.EMPTY).max(SYNC.BATCH, SYNC_MESSAGES.TOO_MANY),
});
export type TSyncInput = z.output<typeof ZSyncInput>;

/** What became of one synced answer: stored now, stored by an earlier sync, or refused for `reason`. */
export type SyncStatus = "applied" | "duplicate" | "refused";

/** The due list's page (docs/product/product-decisions.md: default 50, at most 500) and optional category. */
export const ZDueQuery = z.object({
  category: z.string().trim().max(LIMITS.CATEGORY).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(DUE_PAGE.MAX, `At most ${DUE_PAGE.MAX} questions per page`)
    .default(DUE_PAGE.DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
});
export type TDueQuery = z.output<typeof ZDueQuery>;

export const SCHEDULER_MESSAGES = {
  SCHEDULER: "Scheduler must be SM-2 or FSRS",
  RETENTION: "Desired retention must be between 0.70 and 0.97",
  MAX_INTERVAL: "Maximum interval must be a whole number of days from 1 to 36500",
} as const;

/** Settings > Study (issue 19): each field optional, so one can change without the others. */
export const ZSchedulerInput = z.object({
  scheduler: z.enum(["sm2", "fsrs"], { error: SCHEDULER_MESSAGES.SCHEDULER }).optional(),
  desiredRetention: z
    .number({ error: SCHEDULER_MESSAGES.RETENTION })
    .min(0.7, SCHEDULER_MESSAGES.RETENTION)
    .max(0.97, SCHEDULER_MESSAGES.RETENTION)
    .optional(),
  maximumInterval: z
    .number({ error: SCHEDULER_MESSAGES.MAX_INTERVAL })
    .int(SCHEDULER_MESSAGES.MAX_INTERVAL)
    .min(1, SCHEDULER_MESSAGES.MAX_INTERVAL)
    .max(36_500, SCHEDULER_MESSAGES.MAX_INTERVAL)
    .optional(),
});
export type TSchedulerInput = z.output<typeof ZSchedulerInput>;

/** Settings › Study's daily limits (issue 34, docs/product/study-plan.md). */
export const ZDailyLimits = z
  .object({
    newPerDay: z
      .number({ error: "New questions per day must be a whole number from 0 to 500" })
      .int({ error: "New questions per day must be a whole number from 0 to 500" })
      .min(NEW_PER_DAY.MIN, { error: "New questions per day must be a whole number from 0 to 500" })
      .max(NEW_PER_DAY.MAX, { error: "New questions per day must be a whole number from 0 to 500" })
      .optional(),
    leechThreshold: z
      .number({ error: "The leech threshold must be a whole number from 1 to 99" })
      .int({ error: "The leech threshold must be a whole number from 1 to 99" })
      .min(LEECH_THRESHOLD.MIN, {
        error: "The leech threshold must be a whole number from 1 to 99",
      })
      .max(LEECH_THRESHOLD.MAX, {
        error: "The leech threshold must be a whole number from 1 to 99",
      })
      .optional(),
  })
  .strict();
export type TDailyLimits = z.infer<typeof ZDailyLimits>;

export const ZCatchUpInput = z.object({
  days: z
    .number({ error: "Choose from 2 to 30 days for the catch-up" })
    .int({ error: "Choose from 2 to 30 days for the catch-up" })
    .min(CATCH_UP_DAYS.MIN, { error: "Choose from 2 to 30 days for the catch-up" })
    .max(CATCH_UP_DAYS.MAX, { error: "Choose from 2 to 30 days for the catch-up" }),
});

/** Resetting a leech to new is explicit: the client sends confirm: true after asking. */
export const ZResetLeechInput = z.object({
  questionId: ZQuestionId,
  confirm: z.literal(true, { error: "Confirm the reset: the question goes back to new" }),
});

export const ZReportLeechInput = z.object({
  questionId: ZQuestionId,
  note: z.string().trim().max(1000, { error: "Keep the note under 1,000 characters" }).default(""),
});
