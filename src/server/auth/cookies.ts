import type { FastifyReply, FastifyRequest } from "fastify";

export const SESSION_COOKIE = "prite_session";

export function setSessionCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  token: string,
  expiresAt: Date,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    // Secure whenever the client reached us over HTTPS (directly or, with TRUST_PROXY, via the proxy).
    secure: req.protocol === "https",
    path: "/",
    expires: expiresAt,
  });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: "lax",
    secure: req.protocol === "https",
    path: "/",
  });
}
