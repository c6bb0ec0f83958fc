import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users } from "../../db/schema";
import { createCaller } from "../../trpc/router";
import { createContextInner } from "../../trpc/context";
import { createHarness, type Harness } from "../../test/harness";
import { sessionIdFromToken, SESSION_LIFETIME_MS } from "../../auth/session";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const register = (username: string, extra: Record<string, unknown> = {}) => ({
  username,
  email: `${username}@example.test`,
  password: "long enough pw",
  confirmPassword: "long enough pw",
  pgyLevel: "3",
  ...extra,
});

async function rest(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const app = await h.app();
  return app.inject({ method: method as "GET", url, payload: body as object, headers });
}

describe("registration", () => {
  it("makes the first account admin and later ones regular users", async () => {
    const first = await rest("POST", "/api/auth/register", register("Founder"));
    expect(first.statusCode).toBe(201);
    const body = first.json();
    expect(body.token).toMatch(/^[a-z2-7]{32}$/);
    expect(body.user).toMatchObject({ username: "Founder", isAdmin: true, pgyLevel: "3" });
    expect(JSON.stringify(body)).not.toMatch(/password|argon2/i);

    const second = await rest("POST", "/api/auth/register", register("Second"));
    expect(second.json().user.isAdmin).toBe(false);
  });

  it("refuses a username that differs only in case", async () => {
    const res = await rest(
      "POST",
      "/api/auth/register",
      register("FOUNDER", { email: "other@example.test" }),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: "Username is already taken" });
  });

  it("refuses an email already in use", async () => {
    const res = await rest(
      "POST",
      "/api/auth/register",
      register("brandnew", { email: "founder@EXAMPLE.test" }),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe("An account with this email already exists");
  });

  it.each([
    [{ username: "" }, "Please enter all required fields"],
    [{ pgyLevel: "" }, "Please enter all required fields"],
    [{ password: "short", confirmPassword: "short" }, "Password must be at least 8 characters"],
    [{ confirmPassword: "something else" }, "Passwords do not match"],
  ])("validates %o", async (override, message) => {
    const before = await h.db.db.select({ n: sql<number>`count(*)::int` }).from(users);
    const res = await rest("POST", "/api/auth/register", register("valid_name", override));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    const after = await h.db.db.select({ n: sql<number>`count(*)::int` }).from(users);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("rejects an invalid email", async () => {
    const res = await rest(
      "POST",
      "/api/auth/register",
      register("mailless", { email: "not-an-email" }),
    );
    expect(res.statusCode).toBe(400);
  });
});

describe("sign-in and sessions", () => {
  it("signs in by username, stores only the token's hash, and serves /api/auth/me", async () => {
    const res = await rest("POST", "/api/auth/login", {
      username: "founder",
      password: "long enough pw",
    });
    expect(res.statusCode).toBe(200);
    const { token, user } = res.json();
    expect(user.username).toBe("Founder");
    const rows = await h.db.db.select().from(sessions).where(eq(sessions.userId, user._id));
    expect(rows.some((r) => r.id === token)).toBe(false);
    expect(rows.some((r) => r.id === sessionIdFromToken(token))).toBe(true);

    const me = await rest("GET", "/api/auth/me", undefined, { "x-auth-token": token });
    expect(me.statusCode).toBe(200);
    expect(me.json().username).toBe("Founder");
    const bearer = await rest("GET", "/api/auth/me", undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(bearer.json()._id).toBe(user._id);
  });

  it("answers 401 with a message without a valid token", async () => {
    const res = await rest("GET", "/api/auth/me", undefined, { "x-auth-token": "a".repeat(32) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBeTypeOf("string");
  });

  it("gives one message for an unknown user and a wrong password", async () => {
    const unknown = await rest("POST", "/api/auth/login", {
      username: "nobody-here",
      password: "whatever123",
    });
    const wrong = await rest("POST", "/api/auth/login", {
      username: "Second",
      password: "wrong password",
    });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: "Invalid username or password" });
    expect(wrong.json()).toEqual({ message: "Invalid username or password" });
  });

  it("requires both fields", async () => {
    const res = await rest("POST", "/api/auth/login", { username: "Second" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("Please enter all fields");
  });

  it("throttles the 11th wrong password with 429", async () => {
    await h.user({ username: "target", password: "right password" });
    for (let i = 0; i < 10; i++) {
      const res = await rest("POST", "/api/auth/login", {
        username: "target",
        password: `wrong ${i}`,
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await rest("POST", "/api/auth/login", {
      username: "target",
      password: "right password",
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(
      /^Too many sign-in attempts\. Please try again in \d+ minutes?\.$/,
    );
  });

  it("logout ends the session: the old token answers 401", async () => {
    const { token } = (
      await rest("POST", "/api/auth/login", { username: "Second", password: "long enough pw" })
    ).json();
    const out = await rest("POST", "/api/auth/logout", {}, { "x-auth-token": token });
    expect(out.statusCode).toBe(200);
    const me = await rest("GET", "/api/auth/me", undefined, { "x-auth-token": token });
    expect(me.statusCode).toBe(401);
  });

  it("renews a session with less than 15 days left and deletes an expired one", async () => {
    const { token } = (
      await rest("POST", "/api/auth/login", { username: "Second", password: "long enough pw" })
    ).json();
    const id = sessionIdFromToken(token);
    const soon = new Date(Date.now() + 5 * 24 * 3600 * 1000);
    await h.db.db.update(sessions).set({ expiresAt: soon }).where(eq(sessions.id, id));
    expect(
      (await rest("GET", "/api/auth/me", undefined, { "x-auth-token": token })).statusCode,
    ).toBe(200);
    const [renewed] = await h.db.db.select().from(sessions).where(eq(sessions.id, id));
    expect(renewed!.expiresAt.getTime()).toBeGreaterThan(Date.now() + SESSION_LIFETIME_MS - 60_000);

    await h.db.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, id));
    expect(
      (await rest("GET", "/api/auth/me", undefined, { "x-auth-token": token })).statusCode,
    ).toBe(401);
    expect(await h.db.db.select().from(sessions).where(eq(sessions.id, id))).toHaveLength(0);
  });

  it("changing the password ends every other session", async () => {
    const u = await h.user({ username: "changer", password: "first password" });
    const other = (
      await rest("POST", "/api/auth/login", { username: "changer", password: "first password" })
    ).json().token;
    const current = (
      await rest("POST", "/api/auth/login", { username: "changer", password: "first password" })
    ).json().token;
    const [session] = await h.db.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdFromToken(current)));
    const caller = createCaller(createContextInner({ db: h.db.db, user: u.user, session }));
    await expect(
      caller.auth.changePassword({
        currentPassword: "nope nope",
        newPassword: "second password",
        confirmPassword: "second password",
      }),
    ).rejects.toThrow("Current password is incorrect");
    await caller.auth.changePassword({
      currentPassword: "first password",
      newPassword: "second password",
      confirmPassword: "second password",
    });
    expect(
      (await rest("GET", "/api/auth/me", undefined, { "x-auth-token": other })).statusCode,
    ).toBe(401);
    expect(
      (await rest("GET", "/api/auth/me", undefined, { "x-auth-token": current })).statusCode,
    ).toBe(200);
    const login = await rest("POST", "/api/auth/login", {
      username: "changer",
      password: "second password",
    });
    expect(login.statusCode).toBe(200);
  });
});

describe("cookie sessions over tRPC", () => {
  it("sets an HttpOnly SameSite=Lax cookie and never returns the token to the SPA", async () => {
    const app = await h.app();
    const res = await app.inject({
      method: "POST",
      url: "/trpc/auth.login",
      payload: { username: "Second", password: "long enough pw" },
      headers: { origin: "http://localhost:80", host: "localhost:80" },
    });
    expect(res.statusCode).toBe(200);
    const cookie = String(res.headers["set-cookie"]);
    expect(cookie).toMatch(/prite_session=[a-z2-7]{32}/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    expect(res.json().result.data.token).toBeUndefined();
  });

  it("refuses a cookie-authenticated mutation from another origin (403) and allows our own", async () => {
    const app = await h.app();
    const login = await app.inject({
      method: "POST",
      url: "/trpc/auth.login",
      payload: { username: "Second", password: "long enough pw" },
    });
    const token = /prite_session=([a-z2-7]+)/.exec(String(login.headers["set-cookie"]))![1]!;
    const cookie = `prite_session=${token}`;
    const forged = await app.inject({
      method: "POST",
      url: "/trpc/auth.logout",
      headers: { cookie, origin: "https://evil.example", host: "localhost" },
    });
    expect(forged.statusCode).toBe(403);
    const noOrigin = await app.inject({
      method: "POST",
      url: "/trpc/auth.logout",
      headers: { cookie, host: "localhost" },
    });
    expect(noOrigin.statusCode).toBe(403);
    const me = await app.inject({
      method: "GET",
      url: "/trpc/auth.me",
      headers: { cookie, host: "localhost" },
    });
    expect(me.statusCode).toBe(200);
    const ok = await app.inject({
      method: "POST",
      url: "/trpc/auth.logout",
      payload: {},
      headers: { cookie, origin: "http://localhost", host: "localhost" },
    });
    expect(ok.statusCode).toBe(200);
  });

  it("marks the cookie Secure behind an HTTPS proxy when TRUST_PROXY is on", async () => {
    const { buildApp } = await import("../../app");
    const app = await buildApp({
      handle: h.db,
      config: { throttle: { maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 }, aiModel: null },
      trustProxy: true,
      webDir: null,
    });
    const res = await app.inject({
      method: "POST",
      url: "/trpc/auth.login",
      payload: { username: "Second", password: "long enough pw" },
      headers: { "x-forwarded-proto": "https" },
    });
    expect(String(res.headers["set-cookie"])).toMatch(/Secure/);
    expect(res.headers["strict-transport-security"]).toMatch(/max-age=/);
    await app.close();
  });
});

describe("first admin under concurrency", () => {
  it("two simultaneous first sign-ups cannot both be admin", async () => {
    const fresh = await createHarness();
    try {
      const caller = fresh.anonymous;
      await Promise.all([
        caller.auth.register(register("racer_one")),
        caller.auth.register(register("racer_two")),
      ]);
      const admins = await fresh.db.db.select().from(users).where(eq(users.isAdmin, true));
      expect(admins).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });
});
