import { protectedProcedure } from "../../trpc/init";
import { questionHistory, restoreVersion } from "./history.service";
import { ZQuestionHistoryRequest, ZRestoreVersionRequest } from "./history.types";

/** A question's edit history (issue 36 item 4), merged into the questions router. */
export const historyProcedures = {
  /** Every version, newest first, with who, when and the differences (owner, directors, admins). */
  history: protectedProcedure
    .input(ZQuestionHistoryRequest)
    .query(({ ctx, input }) => questionHistory(ctx.db, ctx.user, input.id)),

  /** Brings back a version's content as a new version (owner; a director for a program question). */
  restoreVersion: protectedProcedure
    .input(ZRestoreVersionRequest)
    .mutation(({ ctx, input }) => restoreVersion(ctx.db, ctx.user, input, ctx.now())),
};
