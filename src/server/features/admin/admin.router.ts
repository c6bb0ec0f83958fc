import { z } from "zod";
import { adminProcedure, router } from "../../trpc/init";
import { adminStats, listAdminUsers, setUserRole } from "./admin.service";

export const ZSetRoleRequest = z.object({
  username: z
    .string({ error: "Please enter a username" })
    .trim()
    .min(1, "Please enter a username")
    .max(100),
  isAdmin: z.boolean({ error: "isAdmin must be true or false" }),
});

/** The Admin Dashboard (docs/product/screens.md): admins only; users get 403, anonymous callers 401. */
export const adminRouter = router({
  users: adminProcedure.query(({ ctx }) => listAdminUsers(ctx.db)),
  stats: adminProcedure.query(({ ctx }) => adminStats(ctx.db, ctx.now())),
  /** `prite users promote|demote`: never leaves the site without an admin. */
  setRole: adminProcedure
    .input(ZSetRoleRequest)
    .mutation(({ ctx, input }) => setUserRole(ctx.db, ctx.user.id, input)),
});
