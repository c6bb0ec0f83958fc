import { z } from "zod";
import { LIMITS, OFFLINE_COPY_SIZE } from "../../../core/constants";
import {
  ZAnswerInput,
  ZCatchUpInput,
  ZDailyLimits,
  ZDueQuery,
  ZQuestionId,
  ZRateFlashcardInput,
  ZRateInput,
  ZReportLeechInput,
  ZResetLeechInput,
  ZSchedulerInput,
  ZSyncInput,
} from "../../../core/schemas/study";
import { protectedProcedure, router } from "../../trpc/init";
import {
  dayPlan,
  endCatchUp,
  listLeeches,
  ownerLeechCounts,
  reportLeech,
  resetLeech,
  setDailyLimits,
  startCatchUp,
} from "./daily-plan.service";
import { previewIntervals, rateFlashcard } from "./flashcard.service";
import { getScheduler, optimizeForUser, updateScheduler } from "./scheduler.service";
import { listDueQuestions } from "./due-page.service";
import { finishSession, startSession, studyTimeZone } from "./study.service";
import { rateQuestion, recordAnswer } from "./study-writer.service";
import { offlineCopy, syncReviews } from "./sync.service";
import { getPlan, setPlan } from "./plan.service";
import { ZPlanInput } from "../../../core/schemas/plan";

const ZSessionId = z.uuid({ error: "Study session id must be a valid id" });

export const ZStartSessionRequest = z
  .object({ category: z.string().trim().max(LIMITS.CATEGORY).optional() })
  .optional();

export const ZAnswerRequest = ZAnswerInput.extend({ sessionId: ZSessionId.optional() });

export const ZRateFlashcardRequest = ZRateFlashcardInput.extend({
  sessionId: ZSessionId.optional(),
});

export const studyRouter = router({
  /** docs/product/product-decisions.md study pool, one page plus the full count. */
  due: protectedProcedure.input(ZDueQuery.optional()).query(({ ctx, input }) =>
    listDueQuestions(ctx.db, {
      userId: ctx.user.id,
      now: ctx.now(),
      category: input?.category,
      limit: input?.limit,
      offset: input?.offset,
      user: ctx.user,
    }),
  ),

  startSession: protectedProcedure.input(ZStartSessionRequest).mutation(async ({ ctx, input }) => {
    await studyTimeZone(ctx.db, ctx.user, ctx.timeZone);
    return startSession(ctx.db, {
      userId: ctx.user.id,
      now: ctx.now(),
      category: input?.category,
      user: ctx.user,
    });
  }),

  finishSession: protectedProcedure
    .input(z.object({ sessionId: ZSessionId }))
    .mutation(({ ctx, input }) =>
      finishSession(ctx.db, { userId: ctx.user.id, sessionId: input.sessionId, now: ctx.now() }),
    ),

  answer: protectedProcedure
    .input(ZAnswerRequest)
    .mutation(({ ctx, input }) =>
      recordAnswer(ctx.db, { userId: ctx.user.id, now: ctx.now(), input }),
    ),

  rate: protectedProcedure.input(ZRateInput).mutation(({ ctx, input }) =>
    rateQuestion(ctx.db, {
      userId: ctx.user.id,
      now: ctx.now(),
      questionId: input.questionId,
      difficulty: input.difficulty,
    }),
  ),

  /** A flashcard rated Again/Hard/Good/Easy (issue 17): its review, scheduled at once. */
  rateFlashcard: protectedProcedure
    .input(ZRateFlashcardRequest)
    .mutation(({ ctx, input }) =>
      rateFlashcard(ctx.db, { userId: ctx.user.id, now: ctx.now(), input }),
    ),

  /** The days each rating would give a question now (the flashcard's buttons show them). */
  nextIntervals: protectedProcedure
    .input(z.object({ questionId: ZQuestionId }))
    .query(({ ctx, input }) =>
      previewIntervals(ctx.db, {
        userId: ctx.user.id,
        now: ctx.now(),
        questionId: input.questionId,
      }),
    ),

  /** Answers given offline (issue 18): each stored once by its id, cards replayed in answer order. */
  sync: protectedProcedure
    .input(ZSyncInput)
    .mutation(({ ctx, input }) =>
      syncReviews(ctx.db, { userId: ctx.user.id, now: ctx.now(), reviews: input.reviews }),
    ),

  /** The next due questions with their full states and the scheduler, kept by the app for offline study. */
  offlineCopy: protectedProcedure.query(({ ctx }) =>
    offlineCopy(ctx.db, {
      userId: ctx.user.id,
      now: ctx.now(),
      limit: OFFLINE_COPY_SIZE,
      user: ctx.user,
    }),
  ),

  /** Settings > Study (issue 19): scheduler, desired retention, maximum interval, review count. */
  scheduler: protectedProcedure.query(({ ctx }) => getScheduler(ctx.db, ctx.user.id)),

  /** Changing any of them reschedules every studied card from the review log (one transaction). */
  updateScheduler: protectedProcedure
    .input(ZSchedulerInput)
    .mutation(({ ctx, input }) => updateScheduler(ctx.db, ctx.user.id, input)),

  /** Fits FSRS parameters to the caller's reviews (from 400), off the request thread. */
  optimize: protectedProcedure.mutation(({ ctx }) => optimizeForUser(ctx.db, ctx.user.id)),

  /** Study's and the Dashboard's New and Review counts, the limits, and the catch-up offer (issue 34). */
  dayPlan: protectedProcedure.query(({ ctx }) => dayPlan(ctx.db, ctx.user.id, ctx.now())),

  /** Settings › Study: new questions per day and the leech threshold. */
  setDailyLimits: protectedProcedure
    .input(ZDailyLimits)
    .mutation(({ ctx, input }) => setDailyLimits(ctx.db, ctx.user.id, input)),

  /** Spreads the overdue reviews over `days` days, most at risk first; new questions pause. */
  startCatchUp: protectedProcedure
    .input(ZCatchUpInput)
    .mutation(({ ctx, input }) => startCatchUp(ctx.db, ctx.user.id, input.days, ctx.now())),

  endCatchUp: protectedProcedure.mutation(({ ctx }) => endCatchUp(ctx.db, ctx.user.id)),

  /** Browse › Leeches: the caller's leeches with their answer history. */
  leeches: protectedProcedure.query(({ ctx }) => listLeeches(ctx.db, ctx.user.id)),

  resetLeech: protectedProcedure
    .input(ZResetLeechInput)
    .mutation(({ ctx, input }) => resetLeech(ctx.db, ctx.user.id, input.questionId, ctx.now())),

  reportLeech: protectedProcedure
    .input(ZReportLeechInput)
    .mutation(({ ctx, input }) => reportLeech(ctx.db, ctx.user.id, input, ctx.now())),

  /** For an owner: residents who found each of their questions a leech. */
  ownerLeechCounts: protectedProcedure.query(({ ctx }) => ownerLeechCounts(ctx.db, ctx.user.id)),
  /** The exam plan (issue 34): settings, new-question pace, forecast and recall per category. */
  plan: protectedProcedure.query(({ ctx }) => getPlan(ctx.db, ctx.user.id, ctx.now())),

  /** Settings > Study's plan fields; only what is given changes, nothing already scheduled moves. */
  setPlan: protectedProcedure
    .input(ZPlanInput)
    .mutation(({ ctx, input }) => setPlan(ctx.db, ctx.user.id, input, ctx.now())),
});
