import {
  ZCreateReport,
  ZReportQueueQuery,
  ZResolveReport,
  ZTakedownDecision,
} from "../../../core/reports";
import type { Context } from "../../trpc/context";
import { adminProcedure, protectedProcedure, router } from "../../trpc/init";
import { auditMeta } from "../audit/audit.service";
import type { Viewer } from "./report-access";
import { listMine, listQueue, openCount } from "./reports-queue.service";
import { createReport, decideTakedown, resolveReport } from "./reports.service";

const viewerOf = (ctx: Context & { user: NonNullable<Context["user"]> }): Viewer => ({
  id: ctx.user.id,
  username: ctx.user.username,
  isAdmin: ctx.user.isAdmin,
});

/** Reports on questions (issue 36, docs/product/reports.md, decisions 380-384). */
export const reportsRouter = router({
  /** Report a problem with a question the caller can see. */
  create: protectedProcedure
    .input(ZCreateReport)
    .mutation(({ ctx, input }) => createReport(ctx.db, viewerOf(ctx), input, auditMeta(ctx))),
  /** The review queue: reports on the questions the caller handles. */
  queue: protectedProcedure
    .input(ZReportQueueQuery)
    .query(({ ctx, input }) => listQueue(ctx.db, viewerOf(ctx), input)),
  /** Open reports the caller handles (the Reports entry's badge). */
  openCount: protectedProcedure.query(async ({ ctx }) => ({
    open: await openCount(ctx.db, viewerOf(ctx)),
  })),
  /** The caller's own reports and their answers. */
  mine: protectedProcedure.query(({ ctx }) => listMine(ctx.db, ctx.user.id)),
  /** Close a report as answered, fixed or dismissed, with a note to the reporter. */
  resolve: protectedProcedure
    .input(ZResolveReport)
    .mutation(({ ctx, input }) => resolveReport(ctx.db, viewerOf(ctx), input, ctx.now())),
  /** An admin's decision on a question taken down for copyright: restore or keep. */
  decideTakedown: adminProcedure
    .input(ZTakedownDecision)
    .mutation(({ ctx, input }) => decideTakedown(ctx.db, viewerOf(ctx), input, auditMeta(ctx))),
});
