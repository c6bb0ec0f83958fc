import type { RestRegistrar } from "./route";

/** SPEC §7 `GET /stats/comparative` → `{success, data: {overall, pgyLevel, timeBasedRanking}}`. */
export const registerStatsRoutes: RestRegistrar = (route) => {
  route(
    "GET",
    "/api/stats/comparative",
    async (caller) => ({ success: true, data: await caller.stats.comparative() }),
    { withSuccess: true },
  );
};
