import { protectedProcedure, router } from "../../trpc/init";
import { generateExplanation, saveExplanation } from "./explanations.service";
import { ZGenerateExplanationRequest, ZSaveExplanationRequest } from "./explanations.types";

export const explanationsRouter = router({
  /** Whether the server has a model: the panel says so instead of offering a button that fails. */
  status: protectedProcedure.query(({ ctx }) => ({ configured: ctx.config.aiModel !== null })),

  generate: protectedProcedure
    .input(ZGenerateExplanationRequest)
    .mutation(({ ctx, input }) =>
      generateExplanation(ctx.config.aiModel, input, { userId: ctx.user.id, now: ctx.now() }),
    ),

  save: protectedProcedure
    .input(ZSaveExplanationRequest)
    .mutation(({ ctx, input }) => saveExplanation(ctx.db, ctx.user.id, input, ctx.now())),
});
