import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { Context } from "./context";
import { isDatabaseUnavailable, unavailableError } from "../db/unavailable";
import { containsNul, withoutNul } from "../../core/text";
import { recordProcedure } from "../metrics";

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

export const NUL_MESSAGE = "Text cannot contain the NUL character (U+0000)";

/** Procedures that take pasted text or a file's contents: NUL is dropped there rather than refused. */
const NUL_DROPPING_PROCEDURES = new Set([
  "ai.process",
  "parser.questions",
  "answerKeys.importText",
  "imports.checkDuplicates",
  "imports.commit",
  "questions.bulkCreate",
]);

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

/**
 * Mutations that write only an exam's own rows (exam_answers, and exams when one is submitted for
 * being overdue), never users or sessions: they leave the session cache as it is. A resident saves an
 * answer every few seconds, and forgetting their session each time made every next request look it
 * up again (docs/decisions/212-exam-answer-path.md). Were one of them ever to write users or
 * sessions, migration 0015's trigger would still announce it to every server.
 */
export const SESSION_NEUTRAL_MUTATIONS: ReadonlySet<string> = new Set([
  "exams.answer",
  "exams.flag",
  "exams.eliminate",
  // An answer and its rating write reviews and study states (and a resident's study-set progress),
  // never users or sessions: the study loop (issue 35, docs/decisions/399-study-loop-session.md).
  "study.answer",
  "study.rate",
]);

/**
 * Around every procedure, in one middleware (each tRPC middleware copies the call's options and
 * context, which the due page's profile showed):
 * - a database that is down or restarting answers 503 (issue 9), not 500;
 * - a mutation may sign someone out, change a password or a role: the HTTP server's cached sessions of
 *   its user (of everyone, when an admin or nobody signed in made it) are forgotten before the answer
 *   leaves, so the client's next request is checked against the database
 *   (docs/decisions/092-session-cache.md). Failed mutations too: one may have written before failing.
 *   The exam-taking mutations are the exception (SESSION_NEUTRAL_MUTATIONS).
 */
const procedureUpkeep = t.middleware(async ({ ctx, type, path, getRawInput, next }) => {
  const started = performance.now();
  // PostgreSQL cannot store U+0000 in text: refused with a clear 400 on every input, so no schema
  // can forget it; pasted text and file contents drop it instead (issue 24).
  // A body that does not parse is left to the procedure: one without input never reads it (a CLI
  // mutation with an empty body), one with input answers the parse error itself.
  const raw = await getRawInput().catch(() => undefined);
  let cleaned: { input: unknown } | null = null;
  if (containsNul(raw)) {
    if (!NUL_DROPPING_PROCEDURES.has(path)) {
      throw new TRPCError({ code: "BAD_REQUEST", message: NUL_MESSAGE });
    }
    cleaned = { input: withoutNul(raw) };
  }
  let result;
  try {
    result = cleaned ? await next({ getRawInput: async () => cleaned.input }) : await next();
  } finally {
    if (type === "mutation" && ctx.sessionCache && !SESSION_NEUTRAL_MUTATIONS.has(path)) {
      if (ctx.user && !ctx.user.isAdmin) ctx.sessionCache.forgetUser(ctx.user.id);
      else ctx.sessionCache.clear();
    }
    recordProcedure(path, result, started);
  }
  if (!result.ok && isDatabaseUnavailable(result.error.cause ?? result.error)) {
    throw unavailableError(result.error.cause ?? result.error);
  }
  return result;
});

export const publicProcedure = t.procedure.use(procedureUpkeep);

/** What a procedure that needs a session answers without one (REST answers it the same: rest/adapter.ts). */
export const signInRequired = () =>
  new TRPCError({ code: "UNAUTHORIZED", message: "Please sign in to continue" });

/** What admin procedures check, for the one admin route that is not a procedure (a streamed backup). */
export function requireAdmin(ctx: Pick<Context, "user" | "session">): void {
  if (!ctx.user || !ctx.session) {
    throw signInRequired();
  }
  if (!ctx.user.isAdmin) {
    throw new TRPCError({
      code: "FORBIDDEN",
      message: "You do not have permission to access this page.",
    });
  }
}

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user || !ctx.session) {
    throw signInRequired();
  }
  // tRPC merges this into the context; only the narrowed fields need naming.
  return next({ ctx: { user: ctx.user, session: ctx.session } });
});

export const adminProcedure = protectedProcedure.use(({ ctx, next }) => {
  requireAdmin(ctx);
  return next();
});
