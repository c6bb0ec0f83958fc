import { z } from "zod";
import { protectedProcedure, router } from "../../trpc/init";
import { studyTimeZone } from "../study/study.service";
import { comparativeStats, sessionStats, studySummary } from "./stats.service";

export const statsRouter = router({
  /** Dashboard and Study numbers, computed from the review log in the user's time zone. */
  summary: protectedProcedure.query(async ({ ctx }) => {
    const timeZone = await studyTimeZone(ctx.db, ctx.user, ctx.timeZone);
    return studySummary(ctx.db, { userId: ctx.user.id, timeZone, now: ctx.now() });
  }),

  session: protectedProcedure
    .input(z.object({ sessionId: z.uuid({ error: "Study session id must be a valid id" }) }))
    .query(({ ctx, input }) =>
      sessionStats(ctx.db, { userId: ctx.user.id, sessionId: input.sessionId }),
    ),

  comparative: protectedProcedure.query(({ ctx }) =>
    comparativeStats(ctx.db, {
      userId: ctx.user.id,
      pgyLevel: ctx.user.pgyLevel,
      now: ctx.now(),
    }),
  ),
});
