import type { FastifyRequest } from "fastify";
import { SESSION_COOKIE } from "./cookies";
import { tokenFromHeaders } from "./request";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A state-changing request that rides on the session cookie must come from our own page
 * (or an allowed origin): this is what stops cross-site request forgery.
 * Token-authenticated requests are not forgeable by a browser and need no check.
 */
export function originAllowed(req: FastifyRequest, allowedOrigins: string[]): boolean {
  if (SAFE_METHODS.has(req.method)) return true;
  if (tokenFromHeaders(req)) return true;
  if (!req.cookies[SESSION_COOKIE]) return true;
  const origin = req.headers.origin ?? refererOrigin(req.headers.referer);
  if (!origin) return false;
  const own = `${req.protocol}://${req.host}`;
  return origin === own || allowedOrigins.includes(origin);
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
