import type { FastifyReply, FastifyRequest } from "fastify";
import { clearSessionCookie, setSessionCookie } from "./auth/cookies";
import { resolveRequestAuth } from "./auth/request";
import type { SessionCache } from "./auth/session-cache";
import type { Db } from "./db/client";
import { isDatabaseUnavailable, unavailableError } from "./db/unavailable";
import { createContextInner, type AppConfig, type Context } from "./trpc/context";

export type HttpContextFactory = (
  req: FastifyRequest,
  reply: FastifyReply,
  opts?: { returnToken?: boolean },
) => Promise<Context>;

/** The thin HTTP wrapper around createContextInner: session from cookie or token header. */
export function httpContextFactory(
  db: Db,
  config: AppConfig,
  sessionCache?: SessionCache,
  clock: () => Date = () => new Date(),
): HttpContextFactory {
  return async (req, reply, opts = {}) => {
    const now = clock();
    let auth: Awaited<ReturnType<typeof resolveRequestAuth>>;
    try {
      auth = await resolveRequestAuth(db, req, reply, now, sessionCache);
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw unavailableError(err);
      throw err;
    }
    const tzHeader = req.headers["x-time-zone"];
    const wantsToken = opts.returnToken || req.headers["x-prite-client"] === "cli";
    return createContextInner({
      db,
      user: auth.user,
      session: auth.session,
      config,
      sessionCache,
      ip: req.ip,
      userAgent: req.headers["user-agent"] ?? "",
      timeZone: typeof tzHeader === "string" ? tzHeader.slice(0, 64) : null,
      returnToken: wantsToken,
      // Clients holding a token never get a cookie: the token is their session.
      setSessionCookie: wantsToken
        ? undefined
        : (token, expiresAt) => setSessionCookie(req, reply, token, expiresAt),
      clearSessionCookie: () => clearSessionCookie(req, reply),
      now: () => now,
    });
  };
}
