/**
 * Issue 24 items 3, 4, 5 and 7: every password check is throttled, the client's address is the one
 * the nearest proxy saw (a forged left part of X-Forwarded-For changes nothing), another address's
 * failures never lock an owner out, and accounts created per address are limited.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app";
import type { ThrottleLimits } from "./throttle";
import { createHarness, type Harness } from "../test/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const PROXY = "10.0.0.5";

/** An app behind one reverse proxy at PROXY (TRUST_PROXY=1), with the given limits. */
async function appBehindOneProxy(throttle: ThrottleLimits): Promise<FastifyInstance> {
  return buildApp({
    handle: h.db,
    config: { aiModel: null, throttle },
    trustProxy: 1,
    webDir: null,
  });
}

/** A sign-in as the proxy forwards it: the client's own X-Forwarded-For, then the address it saw. */
function signInVia(
  app: FastifyInstance,
  client: string,
  username: string,
  password: string,
  forged?: string,
) {
  return app.inject({
    method: "POST",
    url: "/api/auth/login",
    remoteAddress: PROXY,
    headers: { "x-forwarded-for": forged ? `${forged}, ${client}` : client },
    payload: { username, password },
  });
}

describe("behind one proxy (TRUST_PROXY=1)", () => {
  it("limits a client by its real address, whatever it writes in X-Forwarded-For", async () => {
    const app = await appBehindOneProxy({ maxPerUser: 100, maxPerIp: 5, windowMinutes: 10 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await signInVia(app, "198.51.100.20", `nobody-${i}`, "wrong", `192.0.2.${i}`);
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      // Another real address is not limited.
      expect((await signInVia(app, "198.51.100.21", "nobody-x", "wrong")).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});

describe("no targeted lockout", () => {
  it("one address's failures do not lock the owner out from another address", async () => {
    await h.user({ username: "targeted", password: "the owner's own passphrase" });
    const app = await appBehindOneProxy({ maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 });
    try {
      for (let i = 0; i < 15; i++) await signInVia(app, "203.0.113.66", "targeted", `guess ${i}`);
      // The attacker's address is limited for this account…
      expect((await signInVia(app, "203.0.113.66", "targeted", "guess 16")).statusCode).toBe(429);
      // …the owner, from their own address, signs in.
      const owner = await signInVia(app, "198.51.100.9", "targeted", "the owner's own passphrase");
      expect(owner.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("keeps a ceiling per account across addresses, which one address cannot reach alone", async () => {
    await h.user({ username: "distributed", password: "the owner's own passphrase" });
    const limits = { maxPerUser: 2, maxPerIp: 100, maxPerAccount: 6, windowMinutes: 10 };
    const app = await appBehindOneProxy(limits);
    try {
      for (let i = 0; i < 10; i++)
        await signInVia(app, "203.0.113.70", "distributed", `guess ${i}`);
      expect(
        (await signInVia(app, "198.51.100.10", "distributed", "the owner's own passphrase"))
          .statusCode,
      ).toBe(200);
      for (const address of ["203.0.113.71", "203.0.113.72", "203.0.113.73"]) {
        for (let i = 0; i < 2; i++) await signInVia(app, address, "distributed", `guess ${i}`);
      }
      // Eight failures from four addresses passed the ceiling of six: distributed guessing stops.
      const res = await signInVia(
        app,
        "198.51.100.11",
        "distributed",
        "the owner's own passphrase",
      );
      expect(res.statusCode).toBe(429);
      expect(res.json().message).toMatch(
        /^Too many sign-in attempts\. Please try again in \d+ minutes?\.$/,
      );
    } finally {
      await app.close();
    }
  });
});

describe("the current password of a password change", () => {
  it("is counted with sign-ins: past the limit, 429 with the minutes to wait, even for the right one", async () => {
    const { user } = await h.user({ username: "stolen", password: "the owner's own passphrase" });
    const caller = await h.callerFor(user, { ip: "198.51.100.30" });
    const change = (currentPassword: string) =>
      caller.auth.changePassword({
        currentPassword,
        newPassword: "an entirely new passphrase",
        confirmPassword: "an entirely new passphrase",
      } as never);
    for (let i = 0; i < 10; i++) {
      await expect(change(`guess ${i}`)).rejects.toMatchObject({
        message: "Current password is incorrect",
      });
    }
    await expect(change("guess 11")).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: "Too many wrong passwords. Please try again in 10 minutes.",
    });
    await expect(change("the owner's own passphrase")).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
    });
  });
});

describe("registration per address", () => {
  const register = (app: FastifyInstance, address: string, i: number) =>
    app.inject({
      method: "POST",
      url: "/api/auth/register",
      remoteAddress: PROXY,
      headers: { "x-forwarded-for": address },
      payload: {
        username: `newcomer${i}_${address.replaceAll(".", "")}`,
        email: `newcomer${i}_${address.replaceAll(".", "")}@example.test`,
        password: "a long and unusual passphrase",
        confirmPassword: "a long and unusual passphrase",
        pgyLevel: "1",
      },
    });

  it("allows the configured number of accounts per hour, then 429 with the minutes to wait", async () => {
    const app = await appBehindOneProxy({
      maxPerUser: 10,
      maxPerIp: 100,
      windowMinutes: 10,
      registrationsPerHour: 3,
    });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await register(app, "203.0.113.90", i)).statusCode);
      expect(statuses).toEqual([201, 201, 201, 429, 429]);
      const refused = await register(app, "203.0.113.90", 9);
      expect(refused.json()).toEqual({
        message: "Too many accounts created from this address. Please try again in 60 minutes.",
      });
      expect((await register(app, "203.0.113.91", 0)).statusCode).toBe(201);
    } finally {
      await app.close();
    }
  });

  it("does not limit an in-process caller (the CLI's `prite users add`)", async () => {
    for (let i = 0; i < 12; i++) {
      await h.anonymous.auth.register({
        username: `cli_added_${i}`,
        email: `cli_added_${i}@example.test`,
        password: "a long and unusual passphrase",
        confirmPassword: "a long and unusual passphrase",
        pgyLevel: "1",
      } as never);
    }
  });
});
