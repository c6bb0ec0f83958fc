import { TRPCError } from "@trpc/server";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from "fastify";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { createCaller } from "../trpc/router";
import { errorMessage, requireAdmin, signInRequired } from "../trpc/init";
import type { Context } from "../trpc/context";
import type { HttpContextFactory } from "../http-context";
import { RestInputError } from "./input";

export type Caller = ReturnType<typeof createCaller>;

export interface RestOptions {
  /** The documented response carries `success`: failures answer `{success:false, message}`. */
  withSuccess?: boolean;
  /** Failures also carry `error` (explanation and AI paths, whose clients read it). */
  withError?: boolean;
  status?: number;
  bodyLimit?: number;
  /** Answers without a session (register, login): input it cannot parse is a 400 to anyone. */
  public?: true;
}

/**
 * The procedure checks the session, and an admin's procedure the role, before its input: so does the
 * adapter's own parse, whose failure answers what the procedure would have answered first.
 */
function accessBeforeInput(url: string, ctx: Context | undefined, inputError: RestInputError) {
  if (!ctx?.user || !ctx.session) return signInRequired();
  if (url.startsWith("/api/admin/")) {
    try {
      requireAdmin(ctx);
    } catch (refused) {
      return refused;
    }
  }
  return inputError;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Handler = (caller: Caller, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * Registers a documented REST path as a thin adapter over the same tRPC procedures
 * (through createCaller), so validation, authorization and errors are identical on every surface.
 */
export function restRoute(
  app: FastifyInstance,
  makeContext: HttpContextFactory,
  method: Method,
  url: string,
  handler: Handler,
  opts: RestOptions = {},
): void {
  const routeOpts: RouteShorthandOptions = opts.bodyLimit ? { bodyLimit: opts.bodyLimit } : {};
  app.route({
    method,
    url,
    ...routeOpts,
    handler: async (req, reply) => {
      let ctx: Context | undefined;
      try {
        ctx = await makeContext(req, reply, { returnToken: true });
        const result = await handler(createCaller(ctx), req, reply);
        if (reply.sent) return reply;
        return reply.status(opts.status ?? 200).send(result ?? { success: true });
      } catch (caught) {
        const err =
          caught instanceof RestInputError && !opts.public
            ? accessBeforeInput(url, ctx, caught)
            : caught;
        const status = err instanceof TRPCError ? getHTTPStatusCodeFromError(err) : 500;
        // A database restart is expected and already answered 503: one line, not a stack per request.
        if (status === 503) req.log.warn({ path: req.url }, errorMessage(err));
        else if (status >= 500) req.log.error({ err }, "REST handler failed");
        const message = errorMessage(err);
        const body: Record<string, unknown> = { message };
        if (opts.withSuccess) body.success = false;
        if (opts.withError) body.error = message;
        return reply.status(status).send(body);
      }
    },
  });
}
