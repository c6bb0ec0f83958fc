import type { FastifyRequest } from "fastify";
import { SESSION_COOKIE } from "./cookies";
import { tokenFromHeaders } from "./request";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const ORIGIN_REFUSED = "Request origin not allowed";

/** Told to the operator (in the log) when the refusal looks like a missing TRUST_PROXY. */
export const TRUST_PROXY_HINT =
  "A cookie request from an https:// page was refused because this server sees plain http://. " +
  "Behind an HTTPS proxy, set TRUST_PROXY=1 (the number of proxies in front) so the server knows the address the browser used.";

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

/**
 * True when a refused request came from an https:// page of this very host while the server sees
 * http:// — the signature of an HTTPS proxy in front of a server without TRUST_PROXY.
 */
export function looksLikeUntrustedProxy(req: FastifyRequest): boolean {
  const origin = req.headers.origin ?? refererOrigin(req.headers.referer);
  return req.protocol === "http" && origin === `https://${req.host}`;
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
