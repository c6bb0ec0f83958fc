import { ZMediaRequest } from "../../../core/schemas/media";
import { protectedProcedure, router } from "../../trpc/init";
import { getMedia } from "./media.service";

export const mediaRouter = router({
  /**
   * An image's type and bytes, for those who can see a question showing it. Served to browsers as
   * `GET /api/media/:sha256` (rest/media.ts); over tRPC the bytes would travel as JSON, so the SPA uses
   * the REST path (an <img> src) and this procedure is for that route and local callers.
   */
  get: protectedProcedure
    .input(ZMediaRequest)
    .query(({ ctx, input }) => getMedia(ctx.db, ctx.user.id, input.sha256)),
});
