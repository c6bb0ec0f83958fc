import { parseQuestionsText } from "../../../core/parsing";
import { protectedProcedure, router } from "../../trpc/init";
import { processWithAi } from "./ai.service";
import { ZAiProcessRequest, ZParserQuestionsRequest } from "./ai.types";

export const aiRouter = router({
  /** Whether a model is configured; the screens work the same either way. */
  status: protectedProcedure.query(({ ctx }) => ({ configured: ctx.config.aiModel !== null })),

  process: protectedProcedure.input(ZAiProcessRequest).mutation(({ ctx, input }) =>
    processWithAi(ctx.config.aiModel, input, {
      userId: ctx.user.id,
      now: ctx.now(),
      log: (msg, err) => console.warn(msg, err instanceof Error ? err.message : err),
    }),
  ),
});

/** docs/product/rest-api.md `POST /parser/questions`: the deterministic parser for REST clients. */
export const parserRouter = router({
  questions: protectedProcedure.input(ZParserQuestionsRequest).mutation(({ ctx, input }) => ({
    questions: parseQuestionsText(input.ocrText, {
      part: input.part,
      year: input.year ?? ctx.now().getFullYear(),
    }),
  })),
});
