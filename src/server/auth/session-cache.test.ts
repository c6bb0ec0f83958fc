import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app";
import { sessions, users, type SessionRow, type UserRow } from "../db/schema";
import { createHarness, type Harness } from "../test/harness";
import { sessionIdFromToken } from "./session";
import { SessionCache } from "./session-cache";

function auth(userId: string): { session: SessionRow; user: UserRow } {
  return {
    session: {
      id: `s-${userId}`,
      userId,
      expiresAt: new Date(0),
      createdAt: new Date(0),
      userAgent: "",
      lastUsedAt: null,
    },
    user: { id: userId, username: userId } as UserRow,
  };
}

describe("SessionCache", () => {
  it("answers within its lifetime only", () => {
    const cache = new SessionCache(1000);
    cache.store("s1", auth("u1"), cache.epoch, 10_000);
    expect(cache.get("s1", 10_999)?.user.id).toBe("u1");
    expect(cache.get("s1", 11_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("refuses a lookup that raced a change, since it may have read the old row", () => {
    const cache = new SessionCache(1000);
    const epoch = cache.epoch;
    cache.forgetUser("someone else");
    cache.store("s1", auth("u1"), epoch, 0);
    expect(cache.get("s1", 1)).toBeUndefined();
  });

  it("forgets every session of a user, and only theirs", () => {
    const cache = new SessionCache(1000);
    cache.store("a1", auth("a"), cache.epoch, 0);
    cache.store("a2", auth("a"), cache.epoch, 0);
    cache.store("b1", auth("b"), cache.epoch, 0);
    cache.forgetUser("a");
    expect(cache.get("a1", 1)).toBeUndefined();
    expect(cache.get("a2", 1)).toBeUndefined();
    expect(cache.get("b1", 1)?.user.id).toBe("b");
    cache.clear();
    expect(cache.get("b1", 1)).toBeUndefined();
  });

  it("holds at most its size, dropping the oldest", () => {
    const cache = new SessionCache(1000, 2);
    cache.store("s1", auth("u1"), cache.epoch, 0);
    cache.store("s2", auth("u2"), cache.epoch, 1);
    cache.store("s3", auth("u3"), cache.epoch, 2);
    expect(cache.size).toBe(2);
    expect(cache.get("s1", 3)).toBeUndefined();
    expect(cache.get("s3", 3)?.user.id).toBe("u3");
  });

  it("hands out frozen rows, so one request cannot change what the next one sees", () => {
    const cache = new SessionCache(1000);
    cache.store("s1", auth("u1"), cache.epoch, 0);
    const user = cache.get("s1", 1)!.user as UserRow;
    expect(() => {
      user.isAdmin = true;
    }).toThrow(TypeError);
  });
});

/**
 * Through HTTP with the cache on, as `npm start` runs (SESSION_CACHE_SECONDS): whatever signs a session
 * out or changes a user takes effect on the next request, including changes made by another process
 * (the CLI, psql), which PostgreSQL announces on 'auth_changed'.
 */
describe("the HTTP server with the session cache on", () => {
  let h: Harness;
  let app: FastifyInstance;
  const LIFETIME_MS = 60_000;

  const appCaching = (sessionCacheMs: number) =>
    buildApp({
      handle: h.db,
      config: { throttle: { maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 }, aiModel: null },
      webDir: null,
      sessionCacheMs,
    });

  beforeAll(async () => {
    h = await createHarness();
    app = await appCaching(LIFETIME_MS);
  });
  afterAll(async () => {
    await app.close();
    await h.close();
  });

  const me = (token: string) =>
    app.inject({ method: "GET", url: "/api/auth/me", headers: { "x-auth-token": token } });

  /** Polls until `check` holds; the announcement arrives asynchronously, in milliseconds. */
  async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return check();
  }

  async function signIn(username: string): Promise<string> {
    const res = await app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username, password: "correct horse battery" },
    });
    expect(res.statusCode).toBe(200);
    return res.json().token as string;
  }

  it("answers from memory: a session deleted unannounced still works until the cache lets go", async () => {
    // Long enough that a loaded CI machine's ALTER TABLE and DELETE on PostgreSQL fit inside it (300 ms
    // did not, once, nor 2 s with six other test runs on two cores), short enough to wait out.
    const short = await appCaching(4_000);
    const { user } = await h.user({ username: "cached_reader" });
    const token = await signIn(user.username);
    const ask = () =>
      short.inject({ method: "GET", url: "/api/auth/me", headers: { "x-auth-token": token } });
    try {
      expect((await ask()).statusCode).toBe(200);
      await h.db.db.execute(sql`alter table sessions disable trigger sessions_auth_changed`);
      await h.db.db.delete(sessions).where(eq(sessions.id, sessionIdFromToken(token)));
      expect((await ask()).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 4_100));
      expect((await ask()).statusCode).toBe(401);
    } finally {
      await h.db.db.execute(sql`alter table sessions enable trigger sessions_auth_changed`);
      await short.close();
    }
  });

  it("signing out ends the session on the very next request", async () => {
    const { user } = await h.user({ username: "leaver" });
    const token = await signIn(user.username);
    expect((await me(token)).statusCode).toBe(200);
    const out = await app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { "x-auth-token": token },
    });
    expect(out.statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
  });

  it("a password change signs the user's other sessions out on their next request", async () => {
    const { user } = await h.user({ username: "changer" });
    const kept = await signIn(user.username);
    const other = await signIn(user.username);
    expect((await me(other)).statusCode).toBe(200);
    const change = await app.inject({
      method: "POST",
      url: "/trpc/auth.changePassword",
      headers: { "x-auth-token": kept },
      payload: { currentPassword: "correct horse battery", newPassword: "a brand new password" },
    });
    expect(change.statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(kept)).statusCode).toBe(200);
  });

  it("a profile change shows on the next request", async () => {
    const { user } = await h.user({ username: "renamer" });
    const token = await signIn(user.username);
    expect((await me(token)).json().pgyLevel).toBe("2");
    const res = await app.inject({
      method: "POST",
      url: "/trpc/users.updateProfile",
      headers: { "x-auth-token": token },
      payload: { pgyLevel: "4" },
    });
    expect(res.statusCode).toBe(200);
    expect((await me(token)).json().pgyLevel).toBe("4");
  });

  it("a demotion made by another process is honoured within moments", async () => {
    const { user } = await h.user({ username: "former_admin", isAdmin: true });
    const token = await signIn(user.username);
    const adminPage = () =>
      app.inject({ method: "GET", url: "/api/admin/users", headers: { "x-auth-token": token } });
    expect((await adminPage()).statusCode).toBe(200);
    // Written straight to the table, as `prite users demote` on the same PostgreSQL does.
    await h.db.db.update(users).set({ isAdmin: false }).where(eq(users.id, user.id));
    expect(await within(2000, async () => (await adminPage()).statusCode === 403)).toBe(true);
  });

  it("a session deleted by another process is refused within moments", async () => {
    const { user } = await h.user({ username: "revoked_elsewhere" });
    const token = await signIn(user.username);
    expect((await me(token)).statusCode).toBe(200);
    await h.db.db.delete(sessions).where(eq(sessions.id, sessionIdFromToken(token)));
    expect(await within(2000, async () => (await me(token)).statusCode === 401)).toBe(true);
  });
});
