import type { RestRegistrar } from "./index";

export const registerAuthRoutes: RestRegistrar = (route) => {
  route("POST", "/api/auth/register", (caller, req) => caller.auth.register(req.body as never), {
    status: 201,
  });
  route("POST", "/api/auth/login", (caller, req) => caller.auth.login(req.body as never));
  route("GET", "/api/auth/me", async (caller) => ({ user: await caller.auth.me() }));
  route("POST", "/api/auth/logout", (caller) => caller.auth.logout());
};
