import { adminProcedure, router } from "../../trpc/init";
import { adminStats, listAdminUsers } from "./admin.service";

/** The Admin Dashboard (SPEC §2): admins only; users get 403, anonymous callers 401. */
export const adminRouter = router({
  users: adminProcedure.query(({ ctx }) => listAdminUsers(ctx.db)),
  stats: adminProcedure.query(({ ctx }) => adminStats(ctx.db, ctx.now())),
});
