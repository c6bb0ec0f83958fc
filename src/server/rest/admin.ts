import type { RestRegistrar } from "./route";

/** docs/product/rest-api.md `GET /admin/users`, plus the dashboard's figures for REST clients. */
export const registerAdminRoutes: RestRegistrar = (route) => {
  route("GET", "/api/admin/users", (caller) => caller.admin.users());
  route("GET", "/api/admin/stats", (caller) => caller.admin.stats());
};
