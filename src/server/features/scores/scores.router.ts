import { protectedProcedure, router } from "../../trpc/init";
import { createScore, deleteScore, getScore, listScores, updateScore } from "./scores.service";
import {
  SCORE_MESSAGES,
  ZCreateScoreRequest,
  ZScoreIdRequest,
  ZUpdateScoreRequest,
} from "./scores.types";

/** The caller's own PRITE score records (docs/product/rest-api.md /users/prite-scores); nobody sees another's. */
export const scoresRouter = router({
  list: protectedProcedure.query(({ ctx }) => listScores(ctx.db, ctx.user.id)),

  get: protectedProcedure
    .input(ZScoreIdRequest)
    .query(({ ctx, input }) => getScore(ctx.db, ctx.user.id, input.id)),

  create: protectedProcedure
    .input(ZCreateScoreRequest)
    .mutation(({ ctx, input }) => createScore(ctx.db, ctx.user.id, input, ctx.now())),

  update: protectedProcedure.input(ZUpdateScoreRequest).mutation(({ ctx, input }) => {
    const { id, ...score } = input;
    return updateScore(ctx.db, ctx.user.id, id, score, ctx.now());
  }),

  delete: protectedProcedure.input(ZScoreIdRequest).mutation(async ({ ctx, input }) => {
    await deleteScore(ctx.db, ctx.user.id, input.id);
    return { message: SCORE_MESSAGES.DELETED };
  }),
});
