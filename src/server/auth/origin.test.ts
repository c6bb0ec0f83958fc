import { eq } from "drizzle-orm";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app";
import { sessions } from "../db/schema";
import { databaseSnapshot } from "../test/db-snapshot";
import { createHarness, type Harness, type TestUser } from "../test/harness";
import { appRouter } from "../trpc/router";
import { ORIGIN_REFUSED } from "./origin";
import { createSession, SESSION_LIFETIME_MS, sessionIdFromToken } from "./session";
import { DEFAULT_THROTTLE } from "./throttle";

/**
 * Issue 9 item 2: every cookie-authenticated mutation — each tRPC mutation, read from the router, and
 * each state-changing REST route, read from the server — is refused without an Origin or with a foreign
 * one, writing nothing, and allowed from the app's own origin. And the cookie is renewed in time.
 */
const HOST = "prite.test";
const OWN = `http://${HOST}`;
const ALLOWED = "https://companion.example";

let h: Harness;
let app: FastifyInstance;
let member: TestUser;

beforeAll(async () => {
  h = await createHarness();
  await h.user(); // the admin
  member = await h.user();
  app = await buildApp({
    handle: h.db,
    config: { aiModel: null, throttle: DEFAULT_THROTTLE },
    allowedOrigins: [ALLOWED],
    webDir: null,
  });
});
afterAll(async () => {
  await app?.close();
  await h?.close();
});

/** A fresh cookie session of the member's (a mutation may end it: logout). */
async function cookieOf(user: TestUser = member): Promise<string> {
  const { token } = await createSession(h.db.db, user.user.id, new Date());
  return `prite_session=${token}`;
}

const mutations = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>,
)
  .filter(([, p]) => p._def.type === "mutation")
  .map(([path]) => path)
  .sort();

async function restMutations(): Promise<{ method: string; url: string }[]> {
  return app.routeTable
    .filter(
      (r) => r.url.startsWith("/api/") && ["POST", "PUT", "PATCH", "DELETE"].includes(r.method),
    )
    .map((r) => ({
      method: r.method,
      url: r.url
        .replace(":part", "1")
        .replace(":year", "2024")
        .replace(":id", "00000000-0000-4000-8000-000000000000"),
    }));
}

type OriginHeaders = { origin?: string; referer?: string };
type Send = (origin: OriginHeaders, cookie: string) => Promise<LightMyRequestResponse>;

function senders(all: { method: string; url: string }[]): [string, Send][] {
  return all.map(({ method, url }) => [
    `${method} ${url}`,
    (origin, cookie) =>
      app.inject({
        method: method as "POST",
        url,
        payload: method === "DELETE" ? undefined : {},
        headers: { host: HOST, cookie, ...(origin as Record<string, string>) },
      }),
  ]);
}

async function everyMutation(): Promise<[string, Send][]> {
  return [
    ...senders(mutations.map((path) => ({ method: "POST", url: `/trpc/${path}` }))),
    ...senders(await restMutations()),
  ];
}

describe("the Origin check on cookie-authenticated mutations", () => {
  it("covers every mutation of the router and every state-changing REST route", async () => {
    expect(mutations.length).toBeGreaterThan(25);
    expect((await restMutations()).length).toBeGreaterThan(15);
  });

  it("refuses each without an Origin and with a foreign one (403), writing nothing", async () => {
    const cookie = await cookieOf();
    const before = await databaseSnapshot(h.db.db);
    for (const [name, send] of await everyMutation()) {
      for (const origin of [
        {},
        { origin: "https://evil.example" },
        // Same host name, other scheme or port: another origin.
        { origin: `https://${HOST}` },
        { origin: `http://${HOST}:8080` },
        { referer: "https://evil.example/page" },
        { origin: "null" },
      ]) {
        const res = await send(origin, cookie);
        expect([name, origin, res.statusCode, res.json()]).toEqual([
          name,
          origin,
          403,
          { message: ORIGIN_REFUSED },
        ]);
      }
    }
    expect(await databaseSnapshot(h.db.db)).toBe(before);
  });

  it("lets each through from the app's own origin (or its page as Referer) and from ALLOWED_ORIGINS", async () => {
    for (const [name, send] of await everyMutation()) {
      // Deleting the account, or signing out its other sessions (issue 33), must not take the member
      // away from the calls after it.
      const deletes = /deleteAccount|\/account$|signOutOthers|sign-out-others/.test(name);
      for (const origin of [{ origin: OWN }, { referer: `${OWN}/settings` }, { origin: ALLOWED }]) {
        const res = await send(origin, await cookieOf(deletes ? await h.user() : member));
        // Whatever the procedure answers to an empty input, it is not the Origin refusal.
        expect([name, origin, res.json()?.message === ORIGIN_REFUSED]).toEqual([
          name,
          origin,
          false,
        ]);
        expect([name, origin, res.statusCode]).not.toEqual([name, origin, 401]);
      }
    }
  });

  it("does not apply to token-authenticated clients, which a browser cannot forge", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/api/users/prite-scores",
      payload: { year: 2024, overallPercentile: 40 },
      headers: { host: HOST, "x-auth-token": member.token, origin: "https://evil.example" },
    });
    expect(res.statusCode).toBe(201);
  });
});

describe("behind an HTTPS proxy", () => {
  it("accepts the browser's https:// Origin with TRUST_PROXY, and only then", async () => {
    const proxied = await buildApp({
      handle: h.db,
      config: { aiModel: null, throttle: DEFAULT_THROTTLE },
      trustProxy: true,
      webDir: null,
    });
    try {
      const send = async (target: FastifyInstance) =>
        target.inject({
          method: "POST",
          url: "/trpc/users.markScoresOnboardingOffered",
          payload: {},
          headers: {
            host: HOST,
            "x-forwarded-proto": "https",
            origin: `https://${HOST}`,
            cookie: await cookieOf(),
          },
        });
      expect((await send(proxied)).statusCode).toBe(200);
      // Without TRUST_PROXY the server sees http:// and cannot tell the proxy's word from a client's.
      const direct = await send(app);
      expect(direct.statusCode).toBe(403);
      expect(direct.json()).toEqual({ message: ORIGIN_REFUSED });
    } finally {
      await proxied.close();
    }
  });
});

describe("the session cookie", () => {
  const expiresIn = async (days: number) => {
    const cookie = await cookieOf();
    const token = cookie.split("=")[1]!;
    await h.db.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + days * 24 * 3600 * 1000) })
      .where(eq(sessions.id, sessionIdFromToken(token)));
    return { cookie, token };
  };
  const me = (headers: Record<string, string>) =>
    app.inject({ method: "GET", url: "/trpc/auth.me", headers: { host: HOST, ...headers } });

  it("is re-sent with 30 more days when under 15 days remain", async () => {
    const { cookie, token } = await expiresIn(5);
    const res = await me({ cookie });
    expect(res.statusCode).toBe(200);
    const setCookie = String(res.headers["set-cookie"]);
    expect(setCookie).toContain(`prite_session=${token}`);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const expires = new Date(/Expires=([^;]+)/.exec(setCookie)![1]!).getTime();
    expect(expires).toBeGreaterThan(Date.now() + SESSION_LIFETIME_MS - 60_000);
    const [row] = await h.db.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdFromToken(token)));
    expect(Math.abs(row!.expiresAt.getTime() - expires)).toBeLessThan(1000);
  });

  it("is not re-sent while more than 15 days remain", async () => {
    const { cookie } = await expiresIn(20);
    const res = await me({ cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("is never sent to a client that authenticates with the token header", async () => {
    const { token } = await expiresIn(5);
    const res = await me({ "x-auth-token": token });
    expect(res.statusCode).toBe(200);
    expect(res.headers["set-cookie"]).toBeUndefined();
    // The session itself was renewed all the same.
    const [row] = await h.db.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdFromToken(token)));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + SESSION_LIFETIME_MS - 60_000);
  });
});
