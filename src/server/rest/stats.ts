import type { RestRegistrar } from "./route";

/** docs/product/rest-api.md `GET /stats/comparative` → `{success, data: {overall, pgyLevel, timeBasedRanking}}`. */
export const registerStatsRoutes: RestRegistrar = (route) => {
  route(
    "GET",
    "/api/stats/comparative",
    async (caller) => ({ success: true, data: await caller.stats.comparative() }),
    { withSuccess: true },
  );
};
