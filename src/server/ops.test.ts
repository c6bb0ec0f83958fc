import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "./app";
import { shippedMigrations } from "./db/migrate";
import { loadEnv } from "./env";
import { validQuestion } from "./features/questions/questions.fixtures";
import { bearerMatches, METRICS_REFUSED } from "./metrics";
import { createTestDb } from "./test/db";
import { createHarness, type Harness } from "./test/harness";

const TOKEN = "s3cret-metrics-token-0123456789";
const config = { throttle: { maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 }, aiModel: null };

let h: Harness;
let app: FastifyInstance;
let withToken: FastifyInstance;

beforeAll(async () => {
  h = await createHarness();
  app = await h.app();
  withToken = await buildApp({ handle: h.db, config, webDir: null, metricsToken: TOKEN });
});
afterAll(async () => {
  await withToken?.close();
  await h?.close();
});

const metricValue = (text: string, name: string, labels: string): number => {
  const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(" ").pop()) : 0;
};

describe(`GET /api/ready (${process.env.TEST_DATABASE_URL ? "postgres" : "pglite"})`, () => {
  it("answers 200 on a migrated database, and /api/health stays the liveness check", async () => {
    const res = await app.inject({ method: "GET", url: "/api/ready" });
    expect(res.statusCode).toBe(200);
    const n = shippedMigrations().length;
    expect(res.json()).toEqual({ status: "ready", migrations: { applied: n, shipped: n } });
    expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
  });

  it("answers 503 naming the migration the database lacks, and 503 once the database is closed", async () => {
    const db = await createTestDb();
    const last = shippedMigrations().at(-1)!;
    await db.db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at = ${last.when}`,
    );
    const other = await buildApp({ handle: db, config, webDir: null });
    try {
      const res = await other.inject({ method: "GET", url: "/api/ready" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: "unavailable",
        migrations: { missing: [last.tag] },
      });
      await db.close();
      const closed = await other.inject({ method: "GET", url: "/api/ready" });
      expect(closed.statusCode).toBe(503);
      expect(closed.json()).toEqual({
        status: "unavailable",
        reason: "The database does not answer.",
      });
    } finally {
      await other.close();
    }
  });
});

describe("GET /metrics", () => {
  it("is refused from another machine without METRICS_TOKEN, even through a trusted local proxy", async () => {
    const remote = await app.inject({ method: "GET", url: "/metrics", remoteAddress: "10.1.2.3" });
    expect(remote.statusCode).toBe(403);
    expect(remote.json()).toEqual({ message: METRICS_REFUSED });
    // A reverse proxy on this machine: the socket's peer is loopback, the client is not.
    for (const headers of [
      { "x-forwarded-for": "203.0.113.9" },
      { "x-forwarded-for": "127.0.0.1, 203.0.113.9" },
      { "x-real-ip": "203.0.113.9" },
      { "x-forwarded-proto": "https" },
    ]) {
      const proxied = await app.inject({ method: "GET", url: "/metrics", headers });
      expect(proxied.statusCode, JSON.stringify(headers)).toBe(403);
    }
    const proxiedApp = await buildApp({ handle: h.db, config, webDir: null, trustProxy: 1 });
    try {
      const res = await proxiedApp.inject({
        method: "GET",
        url: "/metrics",
        headers: { "x-forwarded-for": "127.0.0.1, 203.0.113.9" },
      });
      expect(res.statusCode).toBe(403);
    } finally {
      await proxiedApp.close();
    }
  });

  it("answers this machine without a token, and anyone with METRICS_TOKEN only with it", async () => {
    const local = await app.inject({ method: "GET", url: "/metrics" });
    expect(local.statusCode).toBe(200);
    const viaLocalProxy = await app.inject({
      method: "GET",
      url: "/metrics",
      headers: { "x-forwarded-for": "127.0.0.1" },
    });
    expect(viaLocalProxy.statusCode).toBe(200);

    const remote = { method: "GET" as const, url: "/metrics", remoteAddress: "10.1.2.3" };
    expect((await withToken.inject(remote)).statusCode).toBe(401);
    expect((await withToken.inject({ ...remote, remoteAddress: "127.0.0.1" })).statusCode).toBe(
      401,
    );
    const wrong = await withToken.inject({
      ...remote,
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(401);
    const res = await withToken.inject({
      ...remote,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      "prite_http_request_duration_seconds_bucket",
      "prite_trpc_procedure_duration_seconds",
      "prite_db_query_duration_seconds_bucket",
      "prite_answers_recorded_total",
      "nodejs_eventloop_lag_seconds",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
    ]) {
      expect(res.body).toContain(name);
    }
  });

  it("labels requests by route pattern, never the raw URL", async () => {
    const id = "5b0e8a34-6c2f-4d0a-9a55-0d5f6c1e2b7a";
    await app.inject({ method: "GET", url: `/api/questions/${id}?x=1` });
    await app.inject({ method: "GET", url: "/api/no-such-thing-4711" });
    const text = (await app.inject({ method: "GET", url: "/metrics" })).body;
    expect(text).toContain('route="/api/questions/:id"');
    expect(text).toContain('route="(unmatched)"');
    expect(text).not.toContain(id);
    expect(text).not.toContain("no-such-thing-4711");
  });

  it("counts a real answer, the procedure that recorded it and the queries it ran", async () => {
    const me = await h.user();
    const q = await me.caller.questions.create(validQuestion() as never);
    const before = (await app.inject({ method: "GET", url: "/metrics" })).body;
    const res = await app.inject({
      method: "POST",
      url: "/trpc/study.answer",
      headers: { ...me.headers, "content-type": "application/json" },
      payload: { questionId: q._id, selected: ["A"], timeSpentMs: 1200 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = (await app.inject({ method: "GET", url: "/metrics" })).body;
    const answers = 'kind="answer"';
    expect(metricValue(after, "prite_answers_recorded_total", answers)).toBe(
      metricValue(before, "prite_answers_recorded_total", answers) + 1,
    );
    const ok = 'procedure="study.answer",outcome="ok"';
    expect(metricValue(after, "prite_trpc_procedure_duration_seconds_count", ok)).toBe(
      metricValue(before, "prite_trpc_procedure_duration_seconds_count", ok) + 1,
    );
    const inserts = 'operation="insert",outcome="ok"';
    expect(metricValue(after, "prite_db_query_duration_seconds_count", inserts)).toBeGreaterThan(
      metricValue(before, "prite_db_query_duration_seconds_count", inserts),
    );
  });

  it("takes METRICS_TOKEN of 16 characters or more, without spaces", () => {
    expect(loadEnv({ METRICS_TOKEN: TOKEN }).METRICS_TOKEN).toBe(TOKEN);
    expect(loadEnv({}).METRICS_TOKEN).toBeUndefined();
    for (const bad of ["short", "sixteen chars ok"]) {
      expect(() => loadEnv({ METRICS_TOKEN: bad })).toThrow(
        "METRICS_TOKEN must be at least 16 characters, without spaces",
      );
    }
  });

  it("compares the bearer token exactly", () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN.slice(0, -1)}`, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });
});
