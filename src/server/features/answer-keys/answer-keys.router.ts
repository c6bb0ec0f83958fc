import { protectedProcedure, router } from "../../trpc/init";
import {
  applyAnswerKey,
  deleteAnswerKey,
  getAnswerKey,
  importAnswerKeyText,
  listAnswerKeys,
  saveAnswerKey,
} from "./answer-keys.service";
import {
  ANSWER_KEY_MESSAGES,
  ZApplyAnswerKeyRequest,
  ZImportAnswerKeyRequest,
  ZPartYear,
  ZSaveAnswerKeyRequest,
} from "./answer-keys.types";

/** The caller's own answer keys, one per part and year (docs/product/product-decisions.md replaces the browser store). */
export const answerKeysRouter = router({
  list: protectedProcedure.query(({ ctx }) => listAnswerKeys(ctx.db, ctx.user.id)),

  get: protectedProcedure
    .input(ZPartYear)
    .query(({ ctx, input }) => getAnswerKey(ctx.db, ctx.user.id, input.part, input.year)),

  save: protectedProcedure
    .input(ZSaveAnswerKeyRequest)
    .mutation(({ ctx, input }) => saveAnswerKey(ctx.db, ctx.user.id, input, ctx.now())),

  importText: protectedProcedure
    .input(ZImportAnswerKeyRequest)
    .mutation(({ ctx, input }) => importAnswerKeyText(ctx.db, ctx.user.id, input, ctx.now())),

  delete: protectedProcedure.input(ZPartYear).mutation(async ({ ctx, input }) => {
    await deleteAnswerKey(ctx.db, ctx.user.id, input.part, input.year);
    return { message: ANSWER_KEY_MESSAGES.DELETED };
  }),

  // `apply` is reserved by tRPC routers.
  applyToQuestions: protectedProcedure
    .input(ZApplyAnswerKeyRequest)
    .mutation(({ ctx, input }) => applyAnswerKey(ctx.db, ctx.user.id, input, ctx.now())),
});
