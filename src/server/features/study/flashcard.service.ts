/**
 * Studying a flashcard (issue 17, decision 235): the resident reveals the back and rates it Again,
 * Hard, Good or Easy. The rating is the review: one row of the review log (Again incorrect, the others
 * correct with their difficulty) and the card rescheduled by the user's scheduler in the same
 * transaction, through the same `applyReview` step the replay of the log takes.
 */
import { and, eq } from "drizzle-orm";
import { FLASHCARD } from "../../../core/constants";
import type { TRateFlashcardInput } from "../../../core/schemas/study";
import { flashcardReview, type FlashcardRating } from "../../../core/srs/flashcard";
import type { SchedulerName } from "../../../core/srs/fsrs";
import { applyReview } from "../../../core/srs/replay";
import { nextIntervals, type NextIntervals } from "../../../core/srs/schedule";
import type { Db } from "../../db/client";
import { studyStates } from "../../db/schema";
import { badRequest } from "../../errors";
import type { QuestionJson } from "../questions/question-json";
import { questionJsonFor, requireVisibleQuestion } from "../questions/question-access";
import { placeLive } from "./review-placement";
import {
  logReview,
  requireOwnSession,
  saveState,
  schedulerSettings,
  toState,
} from "./study-writer.service";

export const NOT_A_FLASHCARD =
  "Only a flashcard is rated Again, Hard, Good or Easy: choose an answer to this question instead.";

export interface FlashcardRatingResult {
  rating: FlashcardRating;
  /** Again counts as incorrect in the statistics, the others as correct. */
  isCorrect: boolean;
  reviewId: number;
  /** The flashcard with the caller's study entry after this rating. */
  question: QuestionJson;
  scheduler: SchedulerName;
  /** The intervals the four buttons offered (from the state before this rating). */
  nextIntervals: NextIntervals;
}

export async function rateFlashcard(
  db: Db,
  opts: {
    userId: string;
    now: Date;
    input: TRateFlashcardInput & { sessionId?: string };
  },
): Promise<FlashcardRatingResult> {
  const { userId, now, input } = opts;
  return db.transaction(async (tx) => {
    const question = await requireVisibleQuestion(tx, userId, input.questionId);
    if (question.questionType !== FLASHCARD) throw badRequest(NOT_A_FLASHCARD);
    if (input.sessionId) await requireOwnSession(tx, userId, input.sessionId);
    const review = flashcardReview(input.rating);
    const logged = await logReview(tx, {
      userId,
      question,
      sessionId: input.sessionId,
      review: { ...review, selected: [], timeSpentMs: input.timeSpentMs },
      now,
    });
    const { before, settings } = logged;
    const scheduled = applyReview(before, { ...review, reviewedAt: now }, settings);
    const after = await placeLive(tx, userId, question.id, before, scheduled, now, settings);
    // Nothing waits for a rating afterwards: the rating was the review.
    const state = await saveState(tx, { userId, questionId: question.id }, after, null, now);
    const [json] = await questionJsonFor(tx, userId, [question], new Map([[question.id, state]]));
    return {
      rating: input.rating,
      isCorrect: review.isCorrect,
      reviewId: logged.review.id,
      question: json!,
      scheduler: settings.scheduler,
      nextIntervals: nextIntervals(before, now, settings),
    };
  });
}

/**
 * The days until a question comes back for each rating, from the caller's state now: what the
 * flashcard's four buttons show before the resident rates it.
 */
export async function previewIntervals(
  db: Db,
  opts: { userId: string; now: Date; questionId: string },
): Promise<{ scheduler: SchedulerName; nextIntervals: NextIntervals }> {
  const question = await requireVisibleQuestion(db, opts.userId, opts.questionId);
  const [current] = await db
    .select()
    .from(studyStates)
    .where(and(eq(studyStates.userId, opts.userId), eq(studyStates.questionId, question.id)));
  const settings = await schedulerSettings(db, opts.userId);
  return {
    scheduler: settings.scheduler,
    nextIntervals: nextIntervals(toState(current), opts.now, settings),
  };
}
