import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appWithCapturedLogs } from "./test/logged-app";
import { createHarness, type Harness } from "./test/harness";

/** Issue 2: structured logs that never contain passwords or tokens, at the most verbose level. */
let h: Harness;
let app: FastifyInstance;
let lines: string[] = [];

beforeAll(async () => {
  h = await createHarness();
  ({ app, lines } = await appWithCapturedLogs(h, "trace"));
});
afterAll(async () => {
  await app?.close();
  await h?.close();
});

describe("the server's logs", () => {
  it("carry no password, token or session cookie of any request", async () => {
    const password = "Secret-Pass-Phrase-4711";
    const { token } = await h.user({ username: "logged", password });
    const secrets = [password, token];

    const rest = await app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: "logged", password },
    });
    expect(rest.statusCode).toBe(200);
    secrets.push(rest.json().token);

    const spa = await app.inject({
      method: "POST",
      url: "/trpc/auth.login",
      payload: { username: "logged", password },
    });
    const cookieToken = /prite_session=([a-z2-7]+)/.exec(String(spa.headers["set-cookie"]))![1]!;
    secrets.push(cookieToken);

    const wrong = "Wrong-Pass-Phrase-0815";
    secrets.push(wrong);
    expect(
      (
        await app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { username: "logged", password: wrong },
        })
      ).statusCode,
    ).toBe(401);
    const newPassword = "Brand-New-Phrase-1234";
    secrets.push(newPassword);
    expect(
      (
        await app.inject({
          method: "POST",
          url: "/trpc/auth.changePassword",
          headers: { authorization: `Bearer ${rest.json().token}` },
          payload: { currentPassword: "not it at all", newPassword, confirmPassword: newPassword },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await app.inject({
          method: "GET",
          url: "/api/auth/me",
          headers: { "x-auth-token": token },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await app.inject({
          method: "GET",
          url: "/trpc/auth.me",
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(200);
    // Refused for its origin: the warning about TRUST_PROXY is logged, the cookie is not.
    expect(
      (
        await app.inject({
          method: "POST",
          url: "/trpc/auth.logout",
          headers: {
            cookie: `prite_session=${cookieToken}`,
            origin: "https://localhost:80",
            host: "localhost:80",
          },
        })
      ).statusCode,
    ).toBe(403);
    // Malformed and oversized bodies are logged as errors of their own.
    await app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: `{"username":"logged","password":"${password}"`,
      headers: { "content-type": "application/json", "x-auth-token": token },
    });

    // Were a request's headers or a body ever logged, redaction still hides them.
    app.log.info(
      {
        req: {
          headers: { authorization: `Bearer ${token}`, cookie: `prite_session=${cookieToken}` },
        },
        headers: { "x-auth-token": token },
        body: { username: "logged", password },
        input: { json: { currentPassword: password, newPassword } },
      },
      "a careless log line",
    );

    const log = lines.join("\n");
    // The logs are really there: every request and its completion, and the proxy hint.
    expect(lines.filter((l) => l.includes('"msg":"incoming request"')).length).toBeGreaterThan(7);
    expect(log).toContain("TRUST_PROXY=1");
    expect(log).toContain('"msg":"a careless log line"');
    expect(log).toContain("[redacted]");
    for (const secret of secrets) expect(log).not.toContain(secret);
  });

  it("carry no password reset token of a link's URL (issue 33)", async () => {
    const token = "ResetTokenThatMustNotBeLogged_0123456789ab";
    lines.length = 0;
    await app.inject({ method: "GET", url: `/reset-password?token=${token}&x=1` });
    await app.inject({ method: "GET", url: `/api/health?TOKEN=${token}` });
    const log = lines.join("\n");
    expect(log).toContain("/reset-password?token=[not logged]&x=1");
    expect(log).not.toContain(token);
  });
});
