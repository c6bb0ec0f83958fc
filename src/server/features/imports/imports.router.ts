import { protectedProcedure, router } from "../../trpc/init";
import { checkDuplicates, commitImport } from "./imports.service";
import { ZCheckDuplicatesRequest, ZCommitRequest, type TCommitRequest } from "./imports.types";

export const importsRouter = router({
  /** Each incoming question against everything the caller may see (SPEC §5 'Duplicate detection'). */
  checkDuplicates: protectedProcedure
    .input(ZCheckDuplicatesRequest)
    .mutation(({ ctx, input }) => checkDuplicates(ctx.db, ctx.user.id, input)),

  /** Creates, merges and skips in one transaction: all or nothing. */
  commit: protectedProcedure
    .input(ZCommitRequest)
    .mutation(({ ctx, input }) =>
      commitImport(ctx.db, ctx.user.id, input as TCommitRequest, ctx.now()),
    ),
});
