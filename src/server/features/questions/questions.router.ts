import { ZQuestionInput } from "../../../core/schemas";
import { ZFlashcardInput } from "../../../core/schemas/flashcard";
import { protectedProcedure, router } from "../../trpc/init";
import { historyProcedures } from "../history/history.router";
import { categoryStats } from "../stats/category-stats.service";
import {
  bulkCreateQuestions,
  createFlashcard,
  createQuestion,
  deleteQuestion,
  getQuestion,
  updateQuestion,
} from "./question-edits.service";
import { getItemStats } from "./item-stats.service";
import {
  listQuestions,
  presentCategories,
  presentSources,
  searchQuestions,
} from "./questions.service";
import {
  ZBulkCreateRequest,
  ZListQuestionsRequest,
  ZQuestionIdRequest,
  ZSearchQuestionsRequest,
  ZUpdateQuestionRequest,
} from "./questions.types";

export const questionsRouter = router({
  /** The caller's own questions and all public ones, newest first, one page at a time. */
  list: protectedProcedure
    .input(ZListQuestionsRequest)
    .query(({ ctx, input }) => listQuestions(ctx.db, ctx.user.id, input ?? {})),

  search: protectedProcedure
    .input(ZSearchQuestionsRequest)
    .query(({ ctx, input }) => searchQuestions(ctx.db, ctx.user.id, input)),

  /** Categories present among the questions the caller may see (the Browse filter). */
  categories: protectedProcedure.query(({ ctx }) => presentCategories(ctx.db, ctx.user.id)),

  /** Sources (Anki deck names) among the questions the caller may see (the Browse filter). */
  sources: protectedProcedure.query(({ ctx }) => presentSources(ctx.db, ctx.user.id)),

  categoryStats: protectedProcedure.query(({ ctx }) =>
    categoryStats(ctx.db, ctx.user.id, ctx.now()),
  ),

  get: protectedProcedure
    .input(ZQuestionIdRequest)
    .query(({ ctx, input }) => getQuestion(ctx.db, ctx.user.id, input.id)),

  /**
   * Issue 36 item 5: the question's item statistics, for its owner, its program's directors (program
   * questions) and admins (public questions); GET /api/questions/:id/stats.
   */
  itemStats: protectedProcedure
    .input(ZQuestionIdRequest)
    .query(({ ctx, input }) => getItemStats(ctx.db, ctx.user.id, input.id)),

  create: protectedProcedure
    .input(ZQuestionInput)
    .mutation(({ ctx, input }) => createQuestion(ctx.db, ctx.user.id, input, ctx.now())),

  /** A flashcard (issue 17): front and back as HTML, sanitized; images by stored hash. */
  createFlashcard: protectedProcedure
    .input(ZFlashcardInput)
    .mutation(({ ctx, input }) => createFlashcard(ctx.db, ctx.user.id, input, ctx.now())),

  /** Either kind: a flashcard's edit takes its own fields (front/back/category/part/year/source). */
  update: protectedProcedure
    .input(ZUpdateQuestionRequest)
    .mutation(({ ctx, input }) =>
      updateQuestion(ctx.db, ctx.user.id, input.id, input.data, ctx.now()),
    ),

  delete: protectedProcedure
    .input(ZQuestionIdRequest)
    .mutation(({ ctx, input }) => deleteQuestion(ctx.db, ctx.user.id, input.id)),

  /** POST /questions/bulk; named for app.ts, which allows this procedure the 25 MB body limit. */
  bulkCreate: protectedProcedure
    .input(ZBulkCreateRequest)
    .mutation(({ ctx, input }) => bulkCreateQuestions(ctx.db, ctx.user.id, input, ctx.now())),

  /** Issue 36 item 4: `history` and `restoreVersion`. */
  ...historyProcedures,
});
