import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginAttempts, sessions } from "../db/schema";
import { createHarness, type Harness } from "../test/harness";
import { sessionIdFromToken } from "./session";

/** Issue 9 item 2: what the sign-in and session rules promise, read from the outside. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe("session tokens", () => {
  it("carry at least 120 bits of randomness and only their hash is stored", async () => {
    await h.user({ username: "entropy", password: "a long password" });
    const tokens = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await h.signIn("entropy", "a long password");
      expect(res.statusCode).toBe(200);
      tokens.add(res.json().token as string);
    }
    // A new session at every sign-in.
    expect(tokens.size).toBe(5);
    const stored = await h.db.db.select({ id: sessions.id }).from(sessions);
    const storedIds = new Set(stored.map((s) => s.id));
    for (const token of tokens) {
      // base32: 5 bits per character.
      expect(token.length * 5).toBeGreaterThanOrEqual(120);
      expect(storedIds.has(token)).toBe(false);
      expect(storedIds.has(sessionIdFromToken(token))).toBe(true);
      expect(JSON.stringify(stored)).not.toContain(token);
    }
    // Every one of them works on its own.
    const app = await h.app();
    for (const token of tokens) {
      const me = await app.inject({
        method: "GET",
        url: "/api/auth/me",
        headers: { "x-auth-token": token },
      });
      expect(me.statusCode).toBe(200);
    }
  });

  it("stop working when the account is deleted", async () => {
    const me = await h.user({ username: "leaving", password: "a long password" });
    const second = (await h.signIn("leaving", "a long password")).json().token as string;
    const app = await h.app();
    const deleted = await app.inject({
      method: "DELETE",
      url: "/api/users/account",
      headers: me.headers,
    });
    expect(deleted.statusCode).toBe(200);
    for (const token of [me.token, second]) {
      const res = await app.inject({
        method: "GET",
        url: "/api/auth/me",
        headers: { "x-auth-token": token },
      });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe("sign-in throttling", () => {
  it("lets the user in again once the window has passed", async () => {
    await h.user({ username: "patient", password: "the right one" });
    for (let i = 0; i < 10; i++)
      expect((await h.signIn("patient", `wrong ${i}`)).statusCode).toBe(401);
    expect((await h.signIn("patient", "the right one")).statusCode).toBe(429);
    // Eleven minutes later (the window is ten).
    await h.db.db
      .update(loginAttempts)
      .set({ attemptedAt: sql`${loginAttempts.attemptedAt} - interval '11 minutes'` })
      .where(eq(loginAttempts.usernameKey, "patient"));
    expect((await h.signIn("patient", "the right one")).statusCode).toBe(200);
  });

  it("takes about as long for an unknown user as for a wrong password", async () => {
    await h.user({ username: "timing", password: "the right one" });
    const time = async (username: string) => {
      const start = performance.now();
      const res = await h.signIn(username, "not the password");
      expect(res.statusCode).toBe(401);
      return performance.now() - start;
    };
    await time("timing"); // warm-up
    await time("nobody-here");
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      known.push(await time("timing"));
      unknown.push(await time(`nobody-${i}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const ratio = median(unknown) / median(known);
    // Both verify an argon2id hash; without the dummy hash an unknown user answers ~50x faster.
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});
