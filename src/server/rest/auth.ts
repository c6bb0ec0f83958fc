import { ZLoginInput, ZRegisterInput } from "../../core/schemas";
import { bodyInput } from "./input";
import type { RestRegistrar } from "./route";

export const registerAuthRoutes: RestRegistrar = (route) => {
  route(
    "POST",
    "/api/auth/register",
    (caller, req) => caller.auth.register(bodyInput(ZRegisterInput, req.body)),
    { status: 201, public: true },
  );
  route(
    "POST",
    "/api/auth/login",
    (caller, req) => caller.auth.login(bodyInput(ZLoginInput, req.body)),
    { public: true },
  );
  // docs/product/rest-api.md `GET /auth/me`: the body is the user itself (decision 150).
  route("GET", "/api/auth/me", (caller) => caller.auth.me());
  // Answers `{success}`, so failures carry `success: false` like every such path (docs/product/rest-api.md).
  route("POST", "/api/auth/logout", (caller) => caller.auth.logout(), { withSuccess: true });
};
