import crypto from "node:crypto";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validQuestion } from "./features/questions/questions.fixtures";
import { adminUrl, templateDbName } from "./test/golden";
import {
  freePort,
  ROOT,
  spawnServer,
  waitHealthy,
  type ServerProcess,
} from "./test/server-process";

/**
 * Issue 20 item 5: several server processes on one PostgreSQL serve the same users correctly. Real
 * processes (`src/server/main.ts`), each with its session cache on for 300 s, so that only PostgreSQL's
 * NOTIFY (docs/decisions/092-session-cache.md, 211-several-server-processes.md) can make a change
 * written through one reach the other in time.
 */
const url = process.env.TEST_DATABASE_URL;
const started: ServerProcess[] = [];

async function startServer(
  databaseUrl: string,
  extra: NodeJS.ProcessEnv = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const server = spawnServer(port, {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    WEB_DIST_DIR: path.join(ROOT, "no-web-for-this-test"),
    SESSION_CACHE_SECONDS: "300",
    LOG_LEVEL: "info",
    ...extra,
  });
  started.push(server);
  await waitHealthy(server);
  return server;
}

/** The pids of the worker processes that said they listen, from the JSON log lines. */
function workerPids(output: string): number[] {
  return output
    .split("\n")
    .filter((line) => line.includes("server process listening"))
    .map((line) => (JSON.parse(line) as { pid: number }).pid);
}

async function call(
  server: ServerProcess,
  method: string,
  route: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (token) headers["x-auth-token"] = token;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${server.base}${route}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function register(server: ServerProcess, username: string): Promise<string> {
  const res = await call(server, "POST", "/api/auth/register", undefined, {
    username,
    email: `${username}@example.test`,
    pgyLevel: "2",
    password: "a long password",
    confirmPassword: "a long password",
  });
  expect(res.status).toBe(201);
  return res.body.token as string;
}

/** Polls `check` until it holds; answers the milliseconds it took, or fails after `withinMs`. */
async function within(withinMs: number, check: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await check()) return performance.now() - start;
    if (performance.now() - start > withinMs) throw new Error(`not seen within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let databaseUrl: string;
let dbName: string;

describe.skipIf(!url)("several server processes on one PostgreSQL", () => {
  beforeAll(async () => {
    dbName = `prite_w_${crypto.randomBytes(6).toString("hex")}`;
    const admin = postgres(adminUrl(url!), { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database "${dbName}" template "${templateDbName()}"`);
    } finally {
      await admin.end();
    }
    databaseUrl = adminUrl(url!, dbName);
  });

  afterAll(async () => {
    for (const s of started) s.child.kill("SIGKILL");
    await Promise.all(started.map((s) => s.exited));
    const admin = postgres(adminUrl(url!), { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    } finally {
      await admin.end();
    }
  });

  it("a change written through one process is read through the other within 1 s (the dashboard at once)", async () => {
    const [a, b] = await Promise.all([startServer(databaseUrl), startServer(databaseUrl)]);
    const token = await register(a, "twoprocs");

    // B validates the session and keeps it (and the user row) in its cache.
    const before = await call(b, "GET", "/api/auth/me", token);
    expect(before.status).toBe(200);
    expect(before.body.institution).toBe("");

    // A profile change through A: B's cached user row must not be what it answers a second later.
    const changed = await call(a, "PUT", "/api/users/profile", token, {
      institution: "Two Process General",
    });
    expect(changed.status).toBe(200);
    const seenMs = await within(1000, async () => {
      const me = await call(b, "GET", "/api/auth/me", token);
      return me.status === 200 && me.body.institution === "Two Process General";
    });
    expect(seenMs).toBeLessThan(1000);

    // The dashboard (decision 260): B keeps the summary it computed; a question saved through A is in
    // B's very next answer, with no waiting (B reads the user's version from PostgreSQL each time).
    const ownQuestions = async () => {
      const res = await call(
        b,
        "GET",
        `/trpc/stats.summary?input=${encodeURIComponent("{}")}`,
        token,
      );
      expect(res.status).toBe(200);
      return (res.body as { result: { data: { ownQuestions: number } } }).result.data.ownQuestions;
    };
    expect(await ownQuestions()).toBe(0);
    expect(await ownQuestions()).toBe(0);
    expect((await call(a, "POST", "/api/questions", token, validQuestion())).status).toBe(201);
    expect(await ownQuestions()).toBe(1);

    // Signing out through A: B refuses the token within 1 s though it held the session for 300 s.
    expect((await call(a, "POST", "/api/auth/logout", token)).status).toBe(200);
    await within(1000, async () => (await call(b, "GET", "/api/auth/me", token)).status === 401);
    expect((await call(a, "GET", "/api/auth/me", token)).status).toBe(401);

    for (const s of [a, b]) s.child.kill("SIGTERM");
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
  }, 180_000);

  it("DATABASE_POOL_SIZE caps a process's connections to PostgreSQL; requests beyond it wait their turn (decision 436)", async () => {
    const server = await startServer(databaseUrl, { DATABASE_POOL_SIZE: "2" });
    const token = await register(server, "pooled");
    const answers = await Promise.all(
      Array.from({ length: 24 }, () => call(server, "GET", "/api/questions/due?limit=1", token)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(24).fill(200));
    const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const [row] = await admin<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
        where datname = ${dbName} and backend_type = 'client backend' and pid <> pg_backend_pid()`;
      // The pool's two, and the connection that listens for session changes (decision 092).
      expect(row!.n).toBeLessThanOrEqual(3);
      expect(row!.n).toBeGreaterThanOrEqual(2);
    } finally {
      await admin.end();
    }
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 180_000);

  it("WORKERS=2 serves one port from two processes and closes them all on SIGTERM", async () => {
    const cluster = await startServer(databaseUrl, { WORKERS: "2" });
    await within(60_000, async () => cluster.output().includes("with 2 server processes"));
    const pids = workerPids(cluster.output());
    expect(new Set(pids).size).toBe(2);
    expect(pids).not.toContain(cluster.child.pid);

    const token = await register(cluster, "clustered");
    // Requests in parallel open several connections, which the primary hands to either process.
    const signedIn = await Promise.all(
      Array.from({ length: 10 }, () => call(cluster, "GET", "/api/auth/me", token)),
    );
    expect(signedIn.map((r) => r.status)).toEqual(Array(10).fill(200));
    // Either worker answers /metrics for both (decision 320): the 10 requests are all counted.
    const metrics = await (await fetch(`${cluster.base}/metrics`)).text();
    expect(metrics).toContain(
      'prite_http_request_duration_seconds_count{method="GET",route="/api/auth/me",status_code="200"} 10',
    );
    expect((await call(cluster, "POST", "/api/auth/logout", token)).status).toBe(200);
    await within(1000, async () => {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => call(cluster, "GET", "/api/auth/me", token)),
      );
      return answers.every((r) => r.status === 401);
    });

    cluster.child.kill("SIGTERM");
    expect(await cluster.exited).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  }, 180_000);
});
