/**
 * Every /trpc and /api answer says how long the server took over it (`Server-Timing: app;dur=<ms>`,
 * decision 424): tRPC's own handler, the lean mutation path (decision 407), REST routes, their errors;
 * the page itself and its files do not carry it. On PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverTiming } from "./app";
import { addQuestion } from "./features/study/test-fixtures";
import { createHarness, type Harness, type TestUser } from "./test/harness";
import { leanCalls } from "./trpc/lean-mutations";

let h: Harness;
let app: FastifyInstance;
let user: TestUser;
beforeAll(async () => {
  h = await createHarness();
  app = await h.app();
  user = await h.user();
});
afterAll(async () => {
  await h.close();
});

const FORMAT = /^app;dur=(\d+\.\d)$/;

/** The request as sent, the server's duration from its header, and the time it took as seen here. */
async function timed(
  opts: InjectOptions,
): Promise<{ res: LightMyRequestResponse; dur: number; seenMs: number }> {
  const started = performance.now();
  const res = await app.inject(opts);
  const seenMs = performance.now() - started;
  const header = res.headers["server-timing"];
  expect(header, `${String(opts.method)} ${String(opts.url)}`).toMatch(FORMAT);
  return { res, dur: Number(FORMAT.exec(String(header))![1]), seenMs };
}

describe("Server-Timing", () => {
  it("writes the duration in milliseconds to 0.1 ms", () => {
    expect(serverTiming(12.345)).toBe("app;dur=12.3");
    expect(serverTiming(0.04)).toBe("app;dur=0.0");
  });

  it("is on the first Study page's tRPC batch, within the time the call took", async () => {
    const { res, dur, seenMs } = await timed({
      method: "GET",
      url: `/trpc/stats.summary,auth.me?batch=1&input=${encodeURIComponent("{}")}`,
      headers: user.headers,
    });
    expect(res.statusCode).toBe(200);
    // The batch read the database: some time, never more than the caller waited.
    expect(dur).toBeGreaterThan(0);
    expect(dur).toBeLessThanOrEqual(seenMs + 0.05);
  });

  it("is on a tRPC mutation answered by tRPC's handler and on one answered by the lean path", async () => {
    const q = await addQuestion(h.db.db, user.user.id);
    const body = JSON.stringify({ 0: { questionId: q.id, selected: ["B"], timeSpentMs: 1 } });
    for (const contentType of ["application/json; charset=utf-8", "application/json"]) {
      const before = leanCalls.count;
      const { res, dur, seenMs } = await timed({
        method: "POST",
        url: "/trpc/study.answer?batch=1",
        payload: body,
        headers: { ...user.headers, "content-type": contentType },
      });
      expect(res.statusCode).toBe(200);
      expect(leanCalls.count).toBe(contentType === "application/json" ? before + 1 : before);
      expect(dur).toBeGreaterThan(0);
      expect(dur).toBeLessThanOrEqual(seenMs + 0.05);
    }
  });

  it("is on REST answers and on API errors", async () => {
    const me = await timed({ method: "GET", url: "/api/auth/me", headers: user.headers });
    expect(me.res.statusCode).toBe(200);
    expect(me.dur).toBeGreaterThan(0);
    expect(me.dur).toBeLessThanOrEqual(me.seenMs + 0.05);
    const cases: [string, string, Record<string, string>, number][] = [
      ["GET", "/api/questions", user.headers, 200],
      ["GET", "/api/auth/me", {}, 401],
      ["GET", "/trpc/auth.me", {}, 401],
      ["GET", "/api/no-such-route", {}, 404],
    ];
    for (const [method, url, headers, status] of cases) {
      const { res } = await timed({ method: method as "GET", url, headers });
      expect(res.statusCode, url).toBe(status);
    }
  });

  it("is not on anything else, nor on a URL fastify refuses before any hook", async () => {
    const page = await app.inject({ method: "GET", url: "/study" });
    expect(page.headers["server-timing"]).toBeUndefined();
    const badUrl = await app.inject({ method: "GET", url: "/api/%E0%A4%A" });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.headers["server-timing"]).toBeUndefined();
  });
});
