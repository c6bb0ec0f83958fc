import { z } from "zod";
import { AUDIT_KINDS, auditMeta, listAudit } from "../audit/audit.service";
import { adminProcedure, router } from "../../trpc/init";
import { createAdminResetLink } from "../auth/password-reset.service";
import { adminStats, listAdminUsers, setUserRole } from "./admin.service";

const ZUsername = z
  .string({ error: "Please enter a username" })
  .trim()
  .min(1, "Please enter a username")
  .max(100);

export const ZResetLinkRequest = z.object({ username: ZUsername });

export const ZSetRoleRequest = z.object({
  username: ZUsername,
  isAdmin: z.boolean({ error: "isAdmin must be true or false" }),
});

export const ZAuditQuery = z.object({
  username: z.string().trim().max(100).optional(),
  kind: z.enum(AUDIT_KINDS).optional(),
  since: z.coerce.date({ error: "since must be a date" }).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(200).default(50),
});

/** The Admin Dashboard (docs/product/screens.md): admins only; users get 403, anonymous callers 401. */
export const adminRouter = router({
  users: adminProcedure.query(({ ctx }) => listAdminUsers(ctx.db)),
  /** Issue 33: the audit log, newest first, a page at a time (`prite audit`). */
  audit: adminProcedure.input(ZAuditQuery).query(({ ctx, input }) => listAudit(ctx.db, input)),
  stats: adminProcedure.query(({ ctx }) => adminStats(ctx.db, ctx.now())),
  /** `prite users promote|demote`: never leaves the site without an admin. */
  setRole: adminProcedure
    .input(ZSetRoleRequest)
    .mutation(({ ctx, input }) => setUserRole(ctx.db, ctx.user, input, auditMeta(ctx))),
  /** Issue 33: a one-time password reset link (24 h) to hand over; `prite users reset-link`. */
  resetLink: adminProcedure.input(ZResetLinkRequest).mutation(async ({ ctx, input }) => {
    const link = await createAdminResetLink(ctx.db, input.username, {
      now: ctx.now(),
      publicUrl: ctx.config.publicUrl,
      actor: ctx.user,
      origin: auditMeta(ctx).origin,
    });
    return { ...link, expiresAt: link.expiresAt.toISOString() };
  }),
});
