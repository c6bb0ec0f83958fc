import { z } from "zod";
import { protectedProcedure, router } from "../../trpc/init";
import { directorProcedure, requireSameProgram } from "./program-access";
import {
  myClassPercentiles,
  myProgramView,
  programReport,
  setThresholds,
} from "./program-report.service";

const ZProgramId = z.uuid({ error: "Program id must be a valid id" });

/** The program dashboard (docs/product/program-dashboard.md): figures only, never an answer. */
export const programReportRouter = router({
  /** Directors: the whole dashboard of their program (the id, when given, must be theirs). */
  report: directorProcedure
    .input(z.object({ programId: ZProgramId.optional() }).optional())
    .query(({ ctx, input }) => {
      const programId = input?.programId ?? ctx.membership.programId;
      requireSameProgram(ctx.membership, programId);
      return programReport(ctx.db, { programId, now: ctx.now() });
    }),

  /** Directors set when the dashboard flags a resident. */
  setThresholds: directorProcedure
    .input(
      z.object({
        programId: ZProgramId.optional(),
        inactiveDays: z
          .number({ error: "Inactive days must be a number" })
          .int({ error: "Inactive days must be a whole number" })
          .min(1, { error: "Inactive days must be between 1 and 365" })
          .max(365, { error: "Inactive days must be between 1 and 365" }),
        accuracyFlag: z
          .number({ error: "Accuracy threshold must be a number" })
          .min(0, { error: "Accuracy threshold must be between 0% and 100%" })
          .max(1, { error: "Accuracy threshold must be between 0% and 100%" }),
      }),
    )
    .mutation(({ ctx, input }) => {
      const programId = input.programId ?? ctx.membership.programId;
      requireSameProgram(ctx.membership, programId);
      return setThresholds(ctx.db, {
        programId,
        inactiveDays: input.inactiveDays,
        accuracyFlag: input.accuracyFlag,
      });
    }),

  /** "What my program sees": the caller's own row of the dashboard; null outside a program. */
  mine: protectedProcedure.query(({ ctx }) =>
    myProgramView(ctx.db, { userId: ctx.user.id, now: ctx.now() }),
  ),

  /** The caller's percentile per category within their class; null when not available. */
  classPercentiles: protectedProcedure.query(({ ctx }) =>
    myClassPercentiles(ctx.db, { userId: ctx.user.id }),
  ),
});
