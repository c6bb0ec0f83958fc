import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { Context } from "./context";
import { isDatabaseUnavailable, unavailableError } from "../db/unavailable";

/** The product's words for an error: a zod issue's own message rather than a JSON dump of issues. */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCError && error.cause instanceof ZodError) {
    return error.cause.issues[0]?.message ?? "Invalid input";
  }
  if (error instanceof ZodError) return error.issues[0]?.message ?? "Invalid input";
  if (error instanceof TRPCError) {
    if (error.code === "INTERNAL_SERVER_ERROR" && isDatabaseUnavailable(error.cause)) {
      return unavailableError(error.cause).message;
    }
    if (error.code === "INTERNAL_SERVER_ERROR") return "Internal server error";
    return error.message;
  }
  return "Internal server error";
}

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    return {
      ...shape,
      message: errorMessage(error),
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/** A database that is down or restarting answers 503 (issue 9), not 500. */
const databaseAvailability = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isDatabaseUnavailable(result.error.cause ?? result.error)) {
    throw unavailableError(result.error.cause ?? result.error);
  }
  return result;
});

/**
 * A mutation may sign someone out, change a password or a role: the HTTP server's cached sessions
 * of its user (of everyone, when an admin or nobody signed in made it) are forgotten before the
 * answer leaves, so the client's next request is checked against the database
 * (docs/decisions/092-session-cache.md). Failed mutations too: one may have written before failing.
 */
const sessionCacheUpkeep = t.middleware(async ({ ctx, type, next }) => {
  if (type !== "mutation" || !ctx.sessionCache) return next();
  try {
    return await next();
  } finally {
    if (ctx.user && !ctx.user.isAdmin) ctx.sessionCache.forgetUser(ctx.user.id);
    else ctx.sessionCache.clear();
  }
});

export const publicProcedure = t.procedure.use(databaseAvailability).use(sessionCacheUpkeep);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user || !ctx.session) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Please sign in to continue" });
  }
  return next({ ctx: { ...ctx, user: ctx.user, session: ctx.session } });
});

export const adminProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (!ctx.user.isAdmin) {
    throw new TRPCError({
      code: "FORBIDDEN",
      message: "You do not have permission to access this page.",
    });
  }
  return next();
});
