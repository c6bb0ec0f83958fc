import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app";
import { loginAttempts } from "../db/schema";
import { createHarness, type Harness } from "../test/harness";

/** Sign-in throttling under concurrency, and the wait it reports (docs/product/product-decisions.md, decision 060). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

/** Moves every recorded attempt matching `where` back in time. */
async function age(where: ReturnType<typeof eq>, minutes: number, seconds = 0) {
  await h.db.db
    .update(loginAttempts)
    .set({
      attemptedAt: sql`${loginAttempts.attemptedAt} - make_interval(mins => ${minutes}, secs => ${seconds})`,
    })
    .where(where);
}

describe("sign-in throttling under concurrency", () => {
  it("lets at most 10 of 24 parallel wrong passwords be checked; the rest answer 429", async () => {
    await h.user({ username: "besieged", password: "the right password" });
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => h.signIn("besieged", `guess number ${i}`)),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    for (const res of results.filter((r) => r.statusCode === 429)) {
      expect(res.json()).toEqual({
        message: "Too many sign-in attempts. Please try again in 10 minutes.",
      });
    }
    // Exactly the checked passwords were counted.
    const rows = await h.db.db
      .select()
      .from(loginAttempts)
      .where(eq(loginAttempts.usernameKey, "besieged"));
    expect(rows).toHaveLength(statuses.filter((s) => s === 401).length);
    // The right password is refused too while the block lasts…
    expect((await h.signIn("besieged", "the right password")).statusCode).toBe(429);
    // …and works once the window has passed, which also forgets the failures.
    await age(eq(loginAttempts.usernameKey, "besieged"), 11);
    expect((await h.signIn("besieged", "the right password")).statusCode).toBe(200);
    expect(
      await h.db.db.select().from(loginAttempts).where(eq(loginAttempts.usernameKey, "besieged")),
    ).toEqual([]);
  });

  it("counts a sign-in attempt against the username in any letter case", async () => {
    await h.user({ username: "CaseyJones", password: "the right password" });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        h.signIn(i % 2 ? "caseyjones" : "CASEYJONES", `guess number ${i}`),
      ),
    );
    expect((await h.signIn("CaseyJones", "the right password")).statusCode).toBe(429);
  });
});

describe("the wait the message reports", () => {
  it("says how long is really left, in the singular for one minute", async () => {
    await h.user({ username: "waiter", password: "the right password" });
    for (let i = 0; i < 10; i++)
      expect((await h.signIn("waiter", `wrong ${i}`)).statusCode).toBe(401);
    const fresh = await h.signIn("waiter", "the right password");
    expect(fresh.json()).toEqual({
      message: "Too many sign-in attempts. Please try again in 10 minutes.",
    });
    await age(eq(loginAttempts.usernameKey, "waiter"), 6, 30);
    expect((await h.signIn("waiter", "the right password")).json()).toEqual({
      message: "Too many sign-in attempts. Please try again in 4 minutes.",
    });
    await age(eq(loginAttempts.usernameKey, "waiter"), 3);
    expect((await h.signIn("waiter", "the right password")).json()).toEqual({
      message: "Too many sign-in attempts. Please try again in 1 minute.",
    });
  });

  it("reports the real remaining time of an IP block, not the whole window", async () => {
    const app = await buildApp({
      handle: h.db,
      config: { aiModel: null, throttle: { maxPerUser: 10, maxPerIp: 3, windowMinutes: 10 } },
      trustProxy: true,
      webDir: null,
    });
    try {
      const from = (ip: string, username: string) =>
        app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { username, password: "not the password" },
          headers: { "x-forwarded-for": ip },
        });
      for (const name of ["ip-one", "ip-two", "ip-three"])
        expect((await from("203.0.113.7", name)).statusCode).toBe(401);
      await age(eq(loginAttempts.ip, "203.0.113.7"), 7);
      const blocked = await from("203.0.113.7", "ip-four");
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({
        message: "Too many sign-in attempts. Please try again in 3 minutes.",
      });
      // Another address is not affected.
      expect((await from("203.0.113.8", "ip-four")).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});
