import { ZForgotPasswordInput, ZResetPasswordInput } from "../../core/schemas";
import { ZResetLinkRequest } from "../features/admin/admin.router";
import { bodyInput } from "./input";
import type { RestRegistrar } from "./route";

/** Issue 33: password recovery and the account's sessions, over the same tRPC procedures. */
export const registerPasswordResetRoutes: RestRegistrar = (route) => {
  // Their answers carry `success`, so failures carry `success: false` too.
  const withSuccess = { withSuccess: true };
  // Called before there is a session: a bad body answers 400, not 401.
  const beforeSignIn = { withSuccess: true, public: true } as const;
  route(
    "POST",
    "/api/auth/forgot-password",
    (caller, req) => caller.auth.forgotPassword(bodyInput(ZForgotPasswordInput, req.body)),
    beforeSignIn,
  );
  route(
    "POST",
    "/api/auth/reset-password",
    (caller, req) => caller.auth.resetPassword(bodyInput(ZResetPasswordInput, req.body)),
    beforeSignIn,
  );
  route("GET", "/api/auth/sessions", (caller) => caller.auth.sessions());
  route(
    "POST",
    "/api/auth/sessions/sign-out-others",
    (caller) => caller.auth.signOutOthers(),
    withSuccess,
  );
  route("POST", "/api/admin/users/reset-link", (caller, req) =>
    caller.admin.resetLink(bodyInput(ZResetLinkRequest, req.body)),
  );
};
