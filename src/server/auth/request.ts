import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db/client";
import type { SessionRow, UserRow } from "../db/schema";
import { SESSION_COOKIE, setSessionCookie } from "./cookies";
import { validateSessionToken } from "./session";
import type { SessionCache } from "./session-cache";

export interface RequestAuth {
  user: UserRow | null;
  session: SessionRow | null;
  via: "cookie" | "token" | null;
}

export function tokenFromHeaders(req: FastifyRequest): string | null {
  const header = req.headers["x-auth-token"];
  if (typeof header === "string" && header) return header.trim();
  const authz = req.headers.authorization;
  if (authz && /^Bearer\s+/i.test(authz)) return authz.replace(/^Bearer\s+/i, "").trim();
  return null;
}

/** Header tokens (REST, CLI) win over the cookie (SPA); a renewed cookie session gets a fresh cookie. */
export async function resolveRequestAuth(
  db: Db,
  req: FastifyRequest,
  reply: FastifyReply,
  now: Date,
  cache?: SessionCache,
): Promise<RequestAuth> {
  const headerToken = tokenFromHeaders(req);
  const cookieToken = req.cookies[SESSION_COOKIE];
  const token = headerToken ?? cookieToken ?? null;
  if (!token) return { user: null, session: null, via: null };
  const result = await validateSessionToken(db, token, now, cache);
  if (!result) return { user: null, session: null, via: headerToken ? "token" : "cookie" };
  if (!headerToken && result.renewed) setSessionCookie(req, reply, token, result.session.expiresAt);
  return { user: result.user, session: result.session, via: headerToken ? "token" : "cookie" };
}
