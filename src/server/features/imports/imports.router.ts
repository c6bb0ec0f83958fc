import { protectedProcedure, router } from "../../trpc/init";
import { auditMeta } from "../audit/audit.service";
import { checkDuplicates, commitImport } from "./imports.service";
import { storeMedia } from "../media/media.service";
import {
  ZCheckDuplicatesRequest,
  ZCommitRequest,
  ZUploadMediaRequest,
  type TCommitRequest,
} from "./imports.types";

export const importsRouter = router({
  /** Each incoming question against everything the caller may see (docs/product/validation.md 'Duplicate detection'). */
  checkDuplicates: protectedProcedure
    .input(ZCheckDuplicatesRequest)
    .mutation(({ ctx, input }) => checkDuplicates(ctx.db, ctx.user.id, input)),

  /**
   * An image a deck's questions show, stored before the commit (type read from the bytes, at most
   * 5 MB); answers its SHA-256, which the commit's items then name. An image no question ends up
   * showing is visible to nobody.
   */
  uploadMedia: protectedProcedure.input(ZUploadMediaRequest).mutation(({ ctx, input }) =>
    storeMedia(ctx.db, {
      bytes: new Uint8Array(Buffer.from(input.data, "base64")),
      uploadedBy: ctx.user.id,
    }),
  ),

  /** Creates, merges and skips in one transaction: all or nothing. */
  commit: protectedProcedure
    .input(ZCommitRequest)
    .mutation(({ ctx, input }) =>
      commitImport(ctx.db, ctx.user, input as TCommitRequest, auditMeta(ctx)),
    ),
});
