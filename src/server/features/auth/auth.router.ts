import {
  ZChangePasswordInput,
  ZForgotPasswordInput,
  ZLoginInput,
  ZRegisterInput,
  ZResetPasswordInput,
} from "../../../core/schemas";
import { auditMeta } from "../audit/audit.service";
import { LOCAL_CALLER_IP } from "../../trpc/context";
import { protectedProcedure, publicProcedure, router } from "../../trpc/init";
import { loadUserJson } from "../users/user-json";
import { changePassword, loginUser, logoutSession, registerUser } from "./auth.service";
import {
  listSessions,
  requestPasswordReset,
  resetPassword,
  signOutOtherSessions,
} from "./password-reset.service";
import { refusePasswordSignIn } from "./sso.service";

export const authRouter = router({
  register: publicProcedure.input(ZRegisterInput).mutation(async ({ ctx, input }) => {
    if (!ctx.user?.isAdmin) refusePasswordSignIn(ctx);
    const result = await registerUser(ctx.db, input, {
      now: ctx.now(),
      timeZone: ctx.timeZone,
      // Limited per address, except an admin adding an account (`prite users add`) and in-process
      // callers (the CLI's local mode).
      ip: ctx.user?.isAdmin || ctx.ip === LOCAL_CALLER_IP ? undefined : ctx.ip,
      limits: ctx.config.throttle,
      userAgent: ctx.userAgent,
    });
    ctx.setSessionCookie(result.token, result.expiresAt);
    return {
      user: await loadUserJson(ctx.db, result.user),
      token: ctx.returnToken ? result.token : undefined,
    };
  }),

  login: publicProcedure.input(ZLoginInput).mutation(async ({ ctx, input }) => {
    refusePasswordSignIn(ctx);
    const result = await loginUser(ctx.db, input, {
      now: ctx.now(),
      ip: ctx.ip,
      timeZone: ctx.timeZone,
      limits: ctx.config.throttle,
      userAgent: ctx.userAgent,
    });
    ctx.setSessionCookie(result.token, result.expiresAt);
    return {
      user: await loadUserJson(ctx.db, result.user),
      token: ctx.returnToken ? result.token : undefined,
    };
  }),

  logout: protectedProcedure.mutation(async ({ ctx }) => {
    await logoutSession(ctx.db, ctx.session.id);
    ctx.clearSessionCookie();
    return { success: true };
  }),

  // What Sign In and Register offer (issue 33): passwords, an institution's account, or both.
  signInOptions: publicProcedure.query(({ ctx }) => ctx.config.signIn),

  me: protectedProcedure.query(({ ctx }) => loadUserJson(ctx.db, ctx.user)),

  changePassword: protectedProcedure
    .input(ZChangePasswordInput)
    .mutation(async ({ ctx, input }) => {
      await changePassword(ctx.db, ctx.user, ctx.session.id, input, {
        now: ctx.now(),
        ip: ctx.ip,
        limits: ctx.config.throttle,
      });
      return { success: true, message: "Password changed successfully" };
    }),

  // Issue 33: password recovery (docs/decisions/325-password-recovery.md).
  forgotPassword: publicProcedure.input(ZForgotPasswordInput).mutation(({ ctx, input }) =>
    requestPasswordReset(ctx.db, input.email, {
      now: ctx.now(),
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      limits: ctx.config.throttle,
      mailer: ctx.config.mailer,
      publicUrl: ctx.config.publicUrl,
      onMailError: (err) =>
        console.error("Password reset email failed:", err instanceof Error ? err.message : err),
    }),
  ),

  resetPassword: publicProcedure
    .input(ZResetPasswordInput)
    .mutation(({ ctx, input }) => resetPassword(ctx.db, input, auditMeta(ctx))),

  sessions: protectedProcedure.query(({ ctx }) =>
    listSessions(ctx.db, ctx.user.id, ctx.session.id, ctx.now()),
  ),

  signOutOthers: protectedProcedure.mutation(({ ctx }) =>
    signOutOtherSessions(ctx.db, ctx.user.id, ctx.session.id),
  ),
});
