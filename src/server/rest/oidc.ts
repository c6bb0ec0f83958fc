import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { SSO_NOT_SET_UP, ssoMessage, type SsoOutcome } from "../../core/sso";
import { setSessionCookie } from "../auth/cookies";
import { createRelyingParty, type OidcFlow } from "../auth/oidc";
import { derivedKey, openValue, sealValue } from "../auth/signed-cookie";
import type { Db } from "../db/client";
import type { OidcSettings } from "../env";
import { AppError } from "../errors";
import {
  createSsoAccount,
  freeUsername,
  linkSsoAccount,
  resolveSsoSignIn,
  type PendingSso,
} from "../features/auth/sso.service";
import { loadUserJson } from "../features/users/user-json";
import { DEFAULT_THROTTLE, type ThrottleLimits } from "../auth/throttle";
import { errorMessage } from "../trpc/init";

/** The sign-in in flight (state, nonce, PKCE verifier) between the start and the callback. */
export const OIDC_FLOW_COOKIE = "prite_oidc_flow";
/** The provider's accepted identity, waiting for the completion or link screen. */
export const OIDC_PENDING_COOKIE = "prite_oidc_pending";
const COOKIE_PATH = "/api/auth/oidc";
const FLOW_MS = 10 * 60 * 1000;
const PENDING_MS = 15 * 60 * 1000;

export interface OidcRouteOptions {
  db: Db;
  settings: OidcSettings | null;
  throttle?: ThrottleLimits;
  now?: () => Date;
}

/**
 * Sign-in with the institution's account (issue 33, decisions 335-337): the redirect to the provider,
 * its callback, and the two screens a first sign-in may need. Off (404) without OIDC_* settings.
 */
export function registerOidcRoutes(app: FastifyInstance, opts: OidcRouteOptions): void {
  const { db, settings } = opts;
  const now = opts.now ?? (() => new Date());
  const limits = opts.throttle ?? DEFAULT_THROTTLE;
  const rp = settings ? createRelyingParty(settings) : null;
  const key = settings ? derivedKey(settings.clientSecret, "oidc-cookies") : Buffer.alloc(0);
  const name = settings?.name ?? "";

  const setCookie = (req: FastifyRequest, reply: FastifyReply, cookie: string, value: string) =>
    reply.setCookie(cookie, value, {
      httpOnly: true,
      // Lax: the provider's redirect back is a top-level GET from its site, which must carry it.
      sameSite: "lax",
      secure: req.protocol === "https",
      path: COOKIE_PATH,
    });
  const clearCookie = (req: FastifyRequest, reply: FastifyReply, cookie: string) =>
    reply.clearCookie(cookie, {
      httpOnly: true,
      sameSite: "lax",
      secure: req.protocol === "https",
      path: COOKIE_PATH,
    });
  const refuse = (reply: FastifyReply, outcome: SsoOutcome) =>
    reply.redirect(`/login?sso=${outcome}`, 302);
  const notSetUp = (reply: FastifyReply) => reply.status(404).send({ message: SSO_NOT_SET_UP });
  const pendingOf = (req: FastifyRequest) =>
    openValue<PendingSso>(key, req.cookies[OIDC_PENDING_COOKIE], now().getTime());
  const timeZoneOf = (req: FastifyRequest) => {
    const tz = req.headers["x-time-zone"];
    return typeof tz === "string" ? tz.slice(0, 64) : null;
  };
  const failed = (req: FastifyRequest, reply: FastifyReply, err: unknown) => {
    const status = err instanceof AppError ? getHTTPStatusCodeFromError(err) : 500;
    if (status >= 500) req.log.error({ err }, "OIDC request failed");
    return reply.status(status).send({ message: errorMessage(err) });
  };

  app.get(`${COOKIE_PATH}/start`, async (req, reply) => {
    if (!rp) return notSetUp(reply);
    let started: Awaited<ReturnType<typeof rp.start>>;
    try {
      started = await rp.start();
    } catch (err) {
      req.log.warn({ err }, "the OpenID provider could not be reached");
      return refuse(reply, "failed");
    }
    setCookie(
      req,
      reply,
      OIDC_FLOW_COOKIE,
      sealValue(key, started.flow, now().getTime() + FLOW_MS),
    );
    return reply.redirect(started.url.href, 302);
  });

  // Its URL carries the authorization code: the request lines (info) stay out of the log.
  app.get(`${COOKIE_PATH}/callback`, { logLevel: "warn" }, async (req, reply) => {
    if (!rp || !settings) return notSetUp(reply);
    const flow = openValue<OidcFlow>(key, req.cookies[OIDC_FLOW_COOKIE], now().getTime());
    // One flow, one callback: a second arrival (a replay, a reload) finds no flow to match.
    clearCookie(req, reply, OIDC_FLOW_COOKIE);
    if (!flow) return refuse(reply, "expired");
    const callbackUrl = new URL(settings.redirectUri);
    callbackUrl.search = new URL(req.url, "http://callback.invalid").search;
    let claims: Awaited<ReturnType<typeof rp.finish>>;
    try {
      claims = await rp.finish(callbackUrl, flow);
    } catch (err) {
      // The provider's words only: the URL (its code) stays out of the log.
      req.log.warn(
        { reason: err instanceof Error ? err.message : String(err) },
        "OIDC callback refused",
      );
      return refuse(reply, "failed");
    }
    const resolution = await resolveSsoSignIn(db, claims, settings.allowedDomains, {
      now: now(),
      userAgent: req.headers["user-agent"] ?? "",
      ip: req.ip,
    });
    if (resolution.kind === "refused") return refuse(reply, resolution.outcome);
    if (resolution.kind === "signed-in") {
      setSessionCookie(req, reply, resolution.token, resolution.expiresAt);
      return reply.redirect("/", 302);
    }
    const sealed = sealValue(key, resolution.pending, now().getTime() + PENDING_MS);
    setCookie(req, reply, OIDC_PENDING_COOKIE, sealed);
    return reply.redirect(
      resolution.pending.kind === "create" ? "/sso/complete" : "/sso/link",
      302,
    );
  });

  app.get(`${COOKIE_PATH}/pending`, async (req, reply) => {
    if (!settings) return notSetUp(reply);
    const pending = pendingOf(req);
    if (!pending) return reply.status(404).send({ message: ssoMessage("expired", name) });
    return {
      kind: pending.kind,
      email: pending.email,
      providerName: name,
      username: pending.kind === "create" ? await freeUsername(db, pending.email) : undefined,
    };
  });

  const finishWith =
    (
      act: (
        pending: PendingSso,
        body: Record<string, unknown>,
        meta: Parameters<typeof createSsoAccount>[3],
      ) => ReturnType<typeof linkSsoAccount>,
    ) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      if (!settings) return notSetUp(reply);
      const pending = pendingOf(req);
      if (!pending) return reply.status(404).send({ message: ssoMessage("expired", name) });
      try {
        const body = (req.body && typeof req.body === "object" ? req.body : {}) as Record<
          string,
          unknown
        >;
        const meta = {
          now: now(),
          timeZone: timeZoneOf(req),
          userAgent: req.headers["user-agent"] ?? "",
          ip: req.ip,
          limits,
          providerName: name,
        };
        const result = await act(pending, body, meta);
        clearCookie(req, reply, OIDC_PENDING_COOKIE);
        setSessionCookie(req, reply, result.token, result.expiresAt);
        return { user: await loadUserJson(db, result.user) };
      } catch (err) {
        return failed(req, reply, err);
      }
    };

  app.post(
    `${COOKIE_PATH}/complete`,
    finishWith((pending, body, meta) => createSsoAccount(db, pending, body, meta)),
  );
  app.post(
    `${COOKIE_PATH}/link`,
    finishWith((pending, body, meta) => linkSsoAccount(db, pending, body.password, meta)),
  );
}
