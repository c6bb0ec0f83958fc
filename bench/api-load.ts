/**
 * API under load (issue 8 item 2): the built server on a real port against PostgreSQL holding the
 * synthetic bank (1,000 users, 50,000 questions, 500,000 reviews), driven by wrk (Debian's `wrk`)
 * with 50 connections for 30 s per endpoint after a warm-up, load generator on the same machine.
 * Baseline in the same run: `GET /api/health`. RSS of the server after warm-up and after the load
 * (item 6). Appends the figures to bench/RESULTS.md. Issue 19: the same writes by a user on FSRS;
 * `--writes-only` runs just the baseline and the SM-2 / FSRS writes. Issue 16: saving exam answers
 * (tRPC exams.answer over 50 timed exams of another user). Issue 20 item 1 (decision 270): the due page
 * is measured as served (a repeated page is kept) and, last, with DUE_PAGE_CACHE=0 (every page read
 * from the database, as after the user's own write); `--sequential` reads every page.
 *
 *   npx tsx bench/api-load.ts [--url postgres://…/postgres] [--duration 30] [--fresh] [--no-record]
 *   npx tsx bench/api-load.ts --pglite [--duration 30] [--fresh]    (the embedded database, issue 20)
 *   npx tsx bench/api-load.ts --questions 500000 [--seed-only]      (a larger bank, issue 20 item 6)
 *
 * With `--processes` (issue 20 item 5, issue 16 item 8) it instead runs health, the due page
 * (limit=20) and saving exam answers against the server with WORKERS=1 and then WORKERS=2 (Node's
 * cluster, one port), and records the two side by side; `--baseline DIR` first runs the built server
 * of another checkout (the code before a change) with one process, as the same-run baseline.
 *
 * With `--soak SECONDS` (issue 9: 600) it instead runs one long mixed load (due page, search, dashboard,
 * health) at 50 connections, samples the server's RSS every 30 s, and records errors and memory;
 * with `--pglite` (issue 20 item 4) on the embedded database's synthetic bank instead of PostgreSQL.
 *
 *   npx tsx bench/api-load.ts [--pglite] --soak 600
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { createSession } from "../src/server/auth/session";
import { createDb } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import { seedSynthetic } from "../src/server/features/seed/synthetic";
import { queryRows } from "../src/server/db/raw";
import { sql } from "drizzle-orm";
import { runWrk, type WrkResult as WrkReport } from "./wrk";
import { npmStartFlags } from "./npm-start-flags";

const { values: args } = parseArgs({
  options: {
    url: { type: "string", default: "postgres://postgres@127.0.0.1:5432/postgres" },
    duration: { type: "string", default: "30" },
    connections: { type: "string", default: "50" },
    fresh: { type: "boolean", default: false },
    port: { type: "string", default: "3987" },
    soak: { type: "string" },
    processes: { type: "boolean", default: false },
    // With --processes: a checkout whose built server (dist/server/main.js) runs first as the same-run
    // baseline of the code before the change, with one process.
    baseline: { type: "string" },
    "no-record": { type: "boolean", default: false },
    // Issue 19: only the baseline and the answer+rate writes under SM-2 and under FSRS (a short check).
    "writes-only": { type: "boolean", default: false },
    // Issue 20 item 6: the bank's size. Users and reviews grow with it (1 user per 50 questions, 10
    // reviews per question), so each user's own share stays the same and only the whole grows.
    questions: { type: "string", default: "50000" },
    // Seed (when needed), vacuum and stop: to prepare a large bank ahead of the measured runs.
    "seed-only": { type: "boolean", default: false },
    // Issue 20 item 6: one request at a time (no queueing behind wrk), p50/p99 of each read and of an
    // exam answer, to compare bank sizes on a machine whose load moves the figures under wrk.
    sequential: { type: "string" },
    // Issue 20: the server on the embedded database (PGlite) holding the same synthetic bank, in a data
    // folder seeded once by the code behind `prite seed --synthetic` and kept for later runs.
    pglite: { type: "boolean", default: false },
  },
});
const QUESTIONS = Number(args.questions);
const USERS = Math.round(QUESTIONS / 50);
const REVIEWS = QUESTIONS * 10;
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
// PRITE_BENCH_DB: another database name, so parallel branches do not migrate one shared bench database.
const DB_NAME =
  (process.env.PRITE_BENCH_DB ?? "prite_bench_api") + (QUESTIONS === 50_000 ? "" : `_${QUESTIONS}`);
const PORT = Number(args.port);
const BASE = `http://127.0.0.1:${PORT}`;

function dbUrl(name: string): string {
  const u = new URL(args.url!);
  u.pathname = `/${name}`;
  return u.toString();
}

async function prepareDatabase() {
  const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
  if (args.fresh) await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
  const exists = await admin`select 1 from pg_database where datname = ${DB_NAME}`;
  if (exists.length === 0) await admin.unsafe(`create database ${DB_NAME}`);
  await admin.end();
  const handle = await createDb({ databaseUrl: dbUrl(DB_NAME), maxConnections: 4 });
  await runMigrations(handle);
  const [{ n }] = (await handle.db.execute(
    "select count(*)::int as n from questions" as never,
  )) as unknown as [{ n: number }];
  if (n < QUESTIONS) await seedBank(handle.db);
  // A bank in steady state, as a running service's autovacuum leaves it: visibility maps set (so
  // index-only scans stay index-only) and statistics fresh. Right after seeding this halves the due page.
  await handle.db.execute("vacuum analyze" as never);
  // …and its dirty pages written: otherwise the checkpoint after a fresh seed runs during the first rows.
  await handle.db.execute("checkpoint" as never);
  // A user with a mix of due reviews, own new questions and public new ones (the issue's case).
  const [user] = (await queryRows<{ id: string; username: string; due: number; own: number }>(
    handle.db,
    MEASURED_USER,
  )) as [{ id: string; username: string; due: number; own: number }];
  const { token } = await createSession(handle.db, user.id, new Date());
  // Answering and rating reschedules questions: another user does it, so every run (and every later
  // run on the same database) reads the same due list for the user above.
  const [writer, fsrsWriter] = (await handle.db.execute(
    `select id from users where username like 'load\\_%' and id <> '${user.id}' order by username limit 2` as never,
  )) as unknown as [{ id: string }, { id: string }];
  const { token: writerToken } = await createSession(handle.db, writer.id, new Date());
  // Issue 19: a second writer schedules with FSRS (the first stays on SM-2, as seeded accounts are).
  await handle.db.execute(
    `update users set scheduler = 'sm2' where id = '${writer.id}'; update users set scheduler = 'fsrs' where id = '${fsrsWriter.id}'` as never,
  );
  const { token: fsrsToken } = await createSession(handle.db, fsrsWriter.id, new Date());
  await handle.close();
  return { user, token, writerToken, fsrsToken };
}

/** The synthetic bank of --questions' size, as `prite seed --synthetic` makes it. */
async function seedBank(db: Parameters<typeof seedSynthetic>[0]) {
  const started = performance.now();
  console.log(`seeding ${USERS} users, ${QUESTIONS} questions, ${REVIEWS} reviews …`);
  await seedSynthetic(db, {
    users: USERS,
    questions: QUESTIONS,
    reviews: REVIEWS,
    now: new Date(),
    prefix: "load",
  });
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The PGlite data folder of this bank size, seeded on first use (or with --fresh). */
async function preparePglite() {
  const dataDir = path.join(ROOT, ".tmp", `bench-pglite-${QUESTIONS}`);
  if (args.fresh) fs.rmSync(dataDir, { recursive: true, force: true });
  const handle = await createDb({ dataDir });
  try {
    await runMigrations(handle);
    const [count] = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from questions`,
    );
    if (count!.n < QUESTIONS) {
      await seedBank(handle.db);
      await handle.db.execute(sql`vacuum analyze`);
    }
    const [user] = await queryRows<{ id: string; username: string; due: number; own: number }>(
      handle.db,
      MEASURED_USER,
    );
    const { token } = await createSession(handle.db, user!.id, new Date());
    return { dataDir, user: user!, token };
  } finally {
    // The folder is locked while open: the server opens it next.
    await handle.close();
  }
}

/**
 * Issue 20 item 1 on the embedded database: the due page against `/api/health` in the same run, with
 * the dashboard and search beside them (reads only, so the bank stays as seeded).
 */
async function pgliteRun(seconds: number) {
  const { dataDir, user, token } = await preparePglite();
  const server = await startServer(dataDir);
  try {
    const due = `${BASE}/api/questions/due?limit=20`;
    const endpoints: [string, string][] = [
      ["GET /api/health (baseline)", `${BASE}/api/health`],
      ["GET /api/questions/due?limit=20", due],
      ["GET /api/questions/due?limit=200", `${BASE}/api/questions/due?limit=200`],
      [
        "tRPC stats.summary (dashboard)",
        `${BASE}/trpc/stats.summary?input=${encodeURIComponent("{}")}`,
      ],
      [
        "GET /api/questions/search?text=lithium toxicity",
        `${BASE}/api/questions/search?text=lithium%20toxicity`,
      ],
    ];
    for (const [, url] of endpoints) wrk(url, token, 5);
    const results: [string, WrkResult][] = [];
    for (const [name, url] of endpoints) {
      const r = wrk(url, token, seconds);
      results.push([name, r]);
      console.log(
        `${name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, errors ${r.errors}`,
      );
    }
    const health = results[0]![1].rps;
    const dueRow = results[1]![1];
    // The page read every time (decision 270's cache off), the same minute; the folder is the
    // server's alone, so the first one stops before the second opens it.
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    const uncached = await startServer(dataDir, { DUE_PAGE_CACHE: "0" });
    try {
      wrk(due, token, 5);
      const r = wrk(due, token, seconds);
      results.push([UNCACHED_DUE_ROW, r]);
      console.log(`${UNCACHED_DUE_ROW}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99.toFixed(1)} ms`);
    } finally {
      uncached.kill("SIGTERM");
      await new Promise((r) => uncached.once("exit", r));
    }
    const uncachedRow = results.at(-1)![1];
    record([
      "",
      `## API under load on PGlite (bench/api-load.ts --pglite) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
      "",
      machineLine(),
      `- Database: the embedded PGlite in a data folder holding the synthetic bank (${USERS.toLocaleString("en")} users, ${QUESTIONS.toLocaleString("en")} questions, ${REVIEWS.toLocaleString("en")} reviews), the server started by \`node ${[...npmStartFlags(ROOT), "dist/server/main.js"].join(" ")}\` on it as \`npm start\` would; PGLITE_OPTIMIZE_WASM ${process.env.PGLITE_OPTIMIZE_WASM || "unset"}, PGLITE_SHARED_BUFFERS ${process.env.PGLITE_SHARED_BUFFERS || "unset"}`,
      `- Load: wrk, 2 threads, ${args.connections} connections, ${seconds} s per row after 5 s of warm-up on each, on the same 2 cores as the server; as ${user.username} (${user.due} due reviews, ${user.own} own questions)`,
      "",
      ...resultsTable(results),
      "",
      `- **Due page (limit=20) on PGlite: ${((dueRow.rps / health) * 100).toFixed(0)}% of /api/health's ${health.toFixed(0)} req/s — goal ≥ 25% ${dueRow.rps >= 0.25 * health ? "met" : "not met"}**`,
      `- Due page (limit=20) with every page read from the database: ${((uncachedRow.rps / health) * 100).toFixed(0)}% of /api/health's req/s (a request after the user's own write)`,
    ]);
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill("SIGTERM");
      await new Promise((r) => server.once("exit", r));
    }
  }
}

function startServer(
  dataDir?: string,
  extraEnv: NodeJS.ProcessEnv = {},
  root = ROOT,
): Promise<ChildProcess> {
  if (!fs.existsSync(path.join(root, "dist", "server", "main.js"))) {
    spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  }
  // As `npm start` runs it (its Node flags), the checkout's own when it is another (--baseline).
  const child = spawn(
    process.execPath,
    [...npmStartFlags(root), path.join(root, "dist", "server", "main.js")],
    {
      cwd: root,
      env: {
        ...process.env,
        ...(dataDir ? { DATA_DIR: dataDir, DATABASE_URL: "" } : { DATABASE_URL: dbUrl(DB_NAME) }),
        PORT: String(PORT),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        NODE_ENV: "production",
        ...extraEnv,
      },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 30_000;
    const poll = async () => {
      try {
        const res = await fetch(`${BASE}/api/health`);
        if (res.ok) return resolve(child);
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) return reject(new Error("server did not become healthy"));
      setTimeout(poll, 100);
    };
    void poll();
  });
}

const loadNow = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(", ");
/** The machine's load as the run starts: other work shares these 2 cores. */
const loadBefore = loadNow();

function machineLine(): string {
  const cpu = os.cpus();
  return `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}; load average before the run ${loadBefore}, after it ${loadNow()}`;
}

function resultsTable(results: [string, WrkResult][]): string[] {
  const health = results[0]![1].rps;
  const cpu = results.some(([, r]) => r.serverCpuMs !== undefined);
  const cpuCells = (r: WrkResult) =>
    cpu ? ` ${r.serverCpuMs?.toFixed(3) ?? "–"} ms | ${r.pgCpuMs?.toFixed(3) ?? "–"} ms |` : "";
  return [
    `| endpoint | requests/s | p50 | p99 | errors | ratio to health |${cpu ? " server CPU per request | PostgreSQL CPU per request |" : ""}`,
    `| --- | --- | --- | --- | --- | --- |${cpu ? " --- | --- |" : ""}`,
    ...results.map(
      ([name, r]) =>
        `| ${name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.errors} | ${(r.rps / health).toFixed(2)} |${cpuCells(r)}`,
    ),
  ];
}

/** The user the reads are measured as: the most due reviews, with own and public new questions too. */
const MEASURED_USER = sql`select u.id, u.username,
            (select count(*) from study_states s where s.user_id = u.id and s.due_at <= now())::int as due,
            (select count(*) from questions q where q.creator_id = u.id)::int as own
       from users u
      where u.username like 'load\_%'
      order by (select count(*) from study_states s where s.user_id = u.id and s.due_at <= now()) desc
      limit 1`;

const BARE_PORT = PORT + 1;
const BARE_ROW = "bare due query: fastify + postgres.js, no auth (bench/bare-due-server.ts)";
const BARE_200_ROW = "bare due query, limit=200 (bench/bare-due-server.ts?limit=200)";

/** bench/bare-due-server.ts: the due query with nothing around it, the same-run ceiling. */
function startBareServer(userId: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "bench", "bare-due-server.ts")],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: dbUrl(DB_NAME),
        PORT: String(BARE_PORT),
        BARE_USER_ID: userId,
      },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 30_000;
    const poll = async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${BARE_PORT}/due`);
        if (res.ok) return resolve(child);
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) return reject(new Error("bare server did not start"));
      setTimeout(poll, 100);
    };
    void poll();
  });
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/**
 * RSS once the server is idle: the lowest of readings a second apart for 15 s. Under load RSS saws
 * between collections (153 → 207 MB over 100 s, back to 149 MB at the next full collection, on the due
 * page), so a reading or a short median lands anywhere on the tooth; idle, V8's memory reducer collects
 * within about 8 s, and the lowest reading is what the server really holds.
 */
async function settledRssMb(pid: number): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 15; i++) {
    readings.push(rssMb(pid));
    await new Promise((r) => setTimeout(r, 1000));
  }
  return Math.min(...readings);
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

interface WrkResult extends WrkReport {
  /** CPU milliseconds per request of the server process and of PostgreSQL's backends (cpuPerRequest). */
  serverCpuMs?: number;
  pgCpuMs?: number;
}

/** CPU seconds (user + system) a process has used, from /proc (clock ticks of 1/100 s on Linux). */
function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** PostgreSQL's backends serving the bench database, by pid (the pools keep theirs for the run). */
function pgBackendSeconds(): Map<number, number> {
  const out = spawnSync("pgrep", ["-f", `postgres: .* ${DB_NAME} `], { encoding: "utf8" });
  const byPid = new Map<number, number>();
  for (const line of out.stdout.split("\n")) {
    const pid = Number(line);
    if (pid) byPid.set(pid, cpuSeconds(pid));
  }
  return byPid;
}

/**
 * `measure` with the CPU time it cost the server process and PostgreSQL, per request: the profile
 * that says where a request's work is, which the machine's load moves much less than requests/s.
 */
function cpuPerRequest(serverPid: number, measure: () => WrkResult): WrkResult {
  const server0 = cpuSeconds(serverPid);
  const pg0 = pgBackendSeconds();
  const r = measure();
  const server1 = cpuSeconds(serverPid);
  let pg = 0;
  for (const [pid, seconds] of pgBackendSeconds()) pg += seconds - (pg0.get(pid) ?? 0);
  const n = Math.max(1, r.requests);
  return { ...r, serverCpuMs: ((server1 - server0) * 1000) / n, pgCpuMs: (pg * 1000) / n };
}

function wrk(
  target: string,
  token: string,
  seconds: number,
  script?: string,
  connections = Number(args.connections),
): WrkResult {
  return runWrk({ target, token, seconds, script, connections, timeZone: "America/New_York" });
}

/** The answer+rate pair as the Study screen sends it: tRPC mutations over HTTP, alternating. */
function answerRateScript(questionIds: string[]): string {
  const file = path.join(os.tmpdir(), "prite-answer-rate.lua");
  const ids = questionIds.map((id) => `"${id}"`).join(",");
  fs.writeFileSync(
    file,
    // wrk.format's headers replace the command line's -H ones (the auth token): copy them in.
    `local ids = {${ids}}
local i = 0
local headers = {}
init = function()
  for k, v in pairs(wrk.headers) do headers[k] = v end
  headers["content-type"] = "application/json"
end
request = function()
  i = i + 1
  local id = ids[(math.floor(i / 2) % #ids) + 1]
  if i % 2 == 1 then
    return wrk.format("POST", "/trpc/study.answer", headers,
      '{"questionId":"' .. id .. '","selected":["A"],"timeSpentMs":5000}')
  end
  return wrk.format("POST", "/trpc/study.rate", headers,
    '{"questionId":"' .. id .. '","difficulty":1}')
end
`,
  );
  return file;
}

/**
 * Issue 16 item 8: saving exam answers as the exam screen does (tRPC exams.answer), spread over many
 * exams so the connections do not all wait on one exam's row lock, as many residents would.
 */
function examAnswerScript(pairs: { examId: string; questionId: string }[]): string {
  const file = path.join(os.tmpdir(), "prite-exam-answer.lua");
  const rows = pairs.map((p) => `{"${p.examId}","${p.questionId}"}`).join(",");
  fs.writeFileSync(
    file,
    `local pairs_ = {${rows}}
local i = 0
local headers = {}
local letters = {"A", "B", "C", "D"}
init = function()
  for k, v in pairs(wrk.headers) do headers[k] = v end
  headers["content-type"] = "application/json"
end
request = function()
  i = i + 1
  local p = pairs_[(i % #pairs_) + 1]
  return wrk.format("POST", "/trpc/exams.answer", headers,
    '{"examId":"' .. p[1] .. '","questionId":"' .. p[2] .. '","selected":["' .. letters[(i % 4) + 1] .. '"],"timeSpentMs":5000}')
end
`,
  );
  return file;
}

/** Timed exams of 150 questions for `token`'s user, and every (exam, question) pair of them. */
async function examPairs(token: string, count: number) {
  const pairs: { examId: string; questionId: string }[] = [];
  for (let i = 0; i < count; i++) {
    const post = () =>
      fetch(`${BASE}/api/exams`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-auth-token": token },
        body: JSON.stringify({ size: 150, mode: "timed", secondsPerQuestion: 180 }),
      });
    // The first call after minutes of wrk may meet a kept-alive socket the server has closed.
    const res = await post().catch(post);
    if (res.status !== 201) throw new Error(`creating an exam: ${res.status} ${await res.text()}`);
    const { exam } = (await res.json()) as {
      exam: { id: string; questions: { questionId: string }[] };
    };
    for (const q of exam.questions) pairs.push({ examId: exam.id, questionId: q.questionId });
  }
  // Interleaved, so consecutive requests go to different exams.
  return pairs.sort((a, b) => a.questionId.localeCompare(b.questionId));
}

/** Cycles through the reads a studying resident makes. */
function mixedScript(): string {
  const file = path.join(os.tmpdir(), "prite-mixed.lua");
  fs.writeFileSync(
    file,
    `local paths = {"/api/questions/due?limit=20", "/api/questions/search?text=lithium", "/trpc/stats.summary?input=%7B%7D", "/api/health", "/api/questions/due?limit=20"}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
`,
  );
  return file;
}

/**
 * `dataDir`: the embedded database's folder (`--pglite --soak`), the server then runs on PGlite as
 * `npm start` does by default; otherwise PostgreSQL.
 */
async function soak(token: string, seconds: number, dataDir?: string) {
  const server = await startServer(dataDir);
  try {
    wrk(`${BASE}/api/questions/due?limit=20`, token, 10);
    const samples: { t: number; rss: number }[] = [{ t: 0, rss: rssMb(server.pid!) }];
    const started = Date.now();
    const timer = setInterval(() => {
      samples.push({ t: Math.round((Date.now() - started) / 1000), rss: rssMb(server.pid!) });
    }, 30_000);
    // wrk blocks this thread; run it in a child so the sampler keeps ticking.
    const result = await new Promise<WrkResult>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          "-e",
          `import("${path.join(ROOT, "bench", "api-load.ts").replace(/\\/g, "/")}")`,
        ],
        {
          env: {
            ...process.env,
            PRITE_WRK_ONLY: JSON.stringify({
              url: BASE + "/",
              token,
              seconds,
              script: mixedScript(),
            }),
          },
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.on("exit", () => resolve(JSON.parse(out.trim().split("\n").pop()!) as WrkResult));
    });
    clearInterval(timer);
    samples.push({ t: Math.round((Date.now() - started) / 1000), rss: rssMb(server.pid!) });
    // RSS saws up and down with each garbage collection: compare the median of the first and last
    // thirds of the run (samples taken under load), not two single readings.
    const during = samples.filter((x) => x.t > 0 && x.t < seconds);
    const third = Math.max(1, Math.floor(during.length / 3));
    const first = medianOf(during.slice(0, third).map((x) => x.rss));
    const last = medianOf(during.slice(-third).map((x) => x.rss));
    const cpu = os.cpus();
    const lines = [
      "",
      `## Soak (bench/api-load.ts${dataDir ? " --pglite" : ""} --soak ${seconds}) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
      "",
      `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}; load average before the run ${loadBefore}, after it ${loadNow()}; ${dataDir ? "the embedded PGlite" : "PostgreSQL"}, synthetic bank; server \`node ${[...npmStartFlags(ROOT), "dist/server/main.js"].join(" ")}\` (as \`npm start\` runs it)`,
      `- Mixed reads (due page ×2, search, dashboard stats, health), wrk 2 threads, ${args.connections} connections, ${seconds} s`,
      `- **${result.requests} requests, ${result.rps.toFixed(0)} req/s, p99 ${result.p99.toFixed(1)} ms, errors ${result.errors} (goal 0)**`,
      `- RSS samples (s → MB): ${samples.map((x) => `${x.t}→${x.rss.toFixed(0)}`).join(", ")}`,
      `- **RSS median over the first third of the run ${first.toFixed(0)} MB, over the last third ${last.toFixed(0)} MB (${(((last - first) / first) * 100).toFixed(0)}%; goal within 10%, issue 20 item 4: ${Math.abs(last - first) <= 0.1 * first ? "met" : "not met"})**`,
    ];
    record(lines);
  } finally {
    server.kill("SIGTERM");
  }
}

/**
 * Issue 19 (c): answers per second through study.answer + study.rate (one answer = two requests) under
 * SM-2 and under FSRS, with the health baseline of the same run. Printed, not recorded: the figures
 * go to RESULTS.md by hand with the machine's load.
 */
function writesOnly(
  seconds: number,
  token: string,
  writerToken: string,
  fsrsToken: string,
  sm2Ids: string[],
  fsrsIds: string[],
) {
  wrk(`${BASE}/`, writerToken, 3, answerRateScript(sm2Ids));
  wrk(`${BASE}/`, fsrsToken, 3, answerRateScript(fsrsIds));
  const rows: [string, WrkResult][] = [
    ["GET /api/health (baseline)", wrk(`${BASE}/api/health`, token, seconds)],
    ["answer+rate, SM-2", wrk(`${BASE}/`, writerToken, seconds, answerRateScript(sm2Ids))],
    ["answer+rate, FSRS", wrk(`${BASE}/`, fsrsToken, seconds, answerRateScript(fsrsIds))],
  ];
  for (const [name, r] of rows) {
    const answers = name.startsWith("answer") ? `, ${(r.rps / 2).toFixed(0)} answers/s` : "";
    console.log(
      `${name}: ${r.rps.toFixed(0)} req/s${answers}, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, errors ${r.errors}`,
    );
  }
}

/** p50 and p99 of `n` requests made one after another. */
async function timed(n: number, send: (i: number) => Promise<Response>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await send(i);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`status ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

async function sequential(
  user: { username: string; due: number; own: number },
  token: string,
  writerToken: string,
  n: number,
) {
  // Every due page read from the database (decision 270's cache off): growth is the statement's, not
  // that of the version check a kept page costs.
  const server = await startServer(undefined, { DUE_PAGE_CACHE: "0" });
  try {
    const get = (url: string) => () =>
      fetch(`${BASE}${url}`, { headers: { "x-auth-token": token } });
    const pairs = await examPairs(writerToken, Math.ceil((n + 20) / 150));
    const rows: [string, { p50: number; p99: number }][] = [];
    const reads: [string, string][] = [
      ["GET /api/questions/due?limit=20", "/api/questions/due?limit=20"],
      [
        "GET /api/questions/search?text=lithium toxicity",
        "/api/questions/search?text=lithium%20toxicity",
      ],
      // Search's other typical shapes (issue 20 item 6): a common word, a category, Browse's first page.
      ["GET /api/questions/search?text=lithium", "/api/questions/search?text=lithium"],
      [
        "GET /api/questions/search?category=Bipolar Disorders",
        "/api/questions/search?category=Bipolar%20Disorders",
      ],
      ["GET /api/questions (Browse)", "/api/questions"],
      ["tRPC stats.summary (dashboard)", `/trpc/stats.summary?input=${encodeURIComponent("{}")}`],
    ];
    for (const [name, url] of reads) {
      await timed(20, get(url));
      rows.push([name, await timed(n, get(url))]);
    }
    const answer = (pair: { examId: string; questionId: string }) =>
      fetch(`${BASE}/trpc/exams.answer`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-auth-token": writerToken },
        body: JSON.stringify({ ...pair, selected: ["A"], timeSpentMs: 5000 }),
      });
    // Warmed up like the reads (the first answers met a cold statement and cold index pages, which
    // set the p99 of a few hundred samples), each question answered once.
    await timed(20, (i) => answer(pairs[i]!));
    rows.push([
      "tRPC exams.answer",
      await timed(Math.min(n, pairs.length - 20), (i) => answer(pairs[20 + i]!)),
    ]);
    record([
      "",
      `## One request at a time (bench/api-load.ts --sequential ${n} --questions ${QUESTIONS}) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
      "",
      machineLine(),
      `- PostgreSQL, synthetic bank of ${USERS.toLocaleString("en")} users, ${QUESTIONS.toLocaleString("en")} questions, ${REVIEWS.toLocaleString("en")} reviews; ${n} requests each after 20 of warm-up, as ${user.username} (${user.due} due reviews, ${user.own} own questions); server with DUE_PAGE_CACHE=0, so every due page is read from the database`,
      "",
      "| request | p50 | p99 |",
      "| --- | --- | --- |",
      ...rows.map(([name, r]) => `| ${name} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms |`),
    ]);
  } finally {
    server.kill("SIGTERM");
  }
}

const EXAM_ROW = "tRPC exams.answer (50 timed exams of another user)";

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * Issue 20 item 5 and issue 16 item 8: the same rows with one server process and with two
 * (WORKERS=2: Node's cluster on one port), each after its own warm-up.
 */
async function compareProcesses(token: string, writerToken: string, seconds: number) {
  const rows: { name: string; workers: number; r: WrkResult }[] = [];
  const due = `${BASE}/api/questions/due?limit=20`;
  // 0 stands for the baseline checkout (one process).
  const setups = args.baseline ? [0, 1, 2] : [1, 2];
  for (const workers of setups) {
    const server = await startServer(
      undefined,
      { WORKERS: String(Math.max(1, workers)) },
      workers === 0 ? path.resolve(args.baseline!) : ROOT,
    );
    try {
      // Health answers once the first process listens; give the others time to.
      await new Promise((r) => setTimeout(r, 3000));
      const examScript = examAnswerScript(await examPairs(writerToken, 50));
      wrk(due, token, 5);
      wrk(`${BASE}/`, writerToken, 5, examScript);
      const run = (name: string, url: string, as: string, script?: string) => {
        const r = wrk(url, as, seconds, script);
        rows.push({ name, workers, r });
        console.log(
          `${workers === 0 ? "baseline" : `${workers} process(es)`} · ${name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, errors ${r.errors}`,
        );
      };
      run("GET /api/health (baseline)", `${BASE}/api/health`, token);
      run("GET /api/questions/due?limit=20", due, token);
      run(EXAM_ROW, `${BASE}/`, writerToken, examScript);
    } finally {
      await stopServer(server);
    }
  }
  const cpu = os.cpus();
  const pg = spawnSync("psql", [args.url!, "-Atc", "show server_version"], { encoding: "utf8" });
  const cell = (r: WrkResult) =>
    `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms${r.errors ? `, ${r.errors} errors` : ""}`;
  const names = [...new Set(rows.map((x) => x.name))];
  const of = (name: string, workers: number) =>
    rows.find((x) => x.name === name && x.workers === workers)!.r;
  const exam2 = of(EXAM_ROW, 2);
  const exam1 = of(EXAM_ROW, 1);
  const met = (r: WrkResult) => (r.rps >= 1000 && r.p99 <= 100 ? "met" : "not met");
  record([
    "",
    `## One vs two server processes (bench/api-load.ts --processes) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), Node ${process.version}; load average before the run ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")}`,
    `- Database: PostgreSQL ${pg.stdout.trim() || "?"}, synthetic bank; wrk 2 threads, ${args.connections} connections, ${seconds} s per row, load generator on the same cores; WORKERS=2 is Node's cluster on one port`,
    "",
    args.baseline
      ? `| endpoint | before (${path.basename(path.resolve(args.baseline))}, 1 process) | 1 process | 2 processes |`
      : "| endpoint | 1 process | 2 processes |",
    args.baseline ? "| --- | --- | --- | --- |" : "| --- | --- | --- |",
    ...names.map(
      (name) =>
        `| ${name} | ${args.baseline ? `${cell(of(name, 0))} | ` : ""}${cell(of(name, 1))} | ${cell(of(name, 2))} |`,
    ),
    "",
    `- **Saving an exam answer: ${exam1.rps.toFixed(0)} req/s, p99 ${exam1.p99.toFixed(1)} ms with one process (${met(exam1)}); ${exam2.rps.toFixed(0)} req/s, p99 ${exam2.p99.toFixed(1)} ms with two (${met(exam2)}) — goal ≥ 1,000 req/s with p99 ≤ 100 ms**`,
  ]);
}

function record(lines: string[]) {
  if (!args["no-record"]) {
    fs.appendFileSync(path.join(ROOT, "bench", "RESULTS.md"), lines.join("\n") + "\n");
  }
  console.log(lines.join("\n"));
}

async function main() {
  if (process.env.PRITE_WRK_ONLY) {
    const job = JSON.parse(process.env.PRITE_WRK_ONLY) as {
      url: string;
      token: string;
      seconds: number;
      script: string;
    };
    console.log(JSON.stringify(wrk(job.url, job.token, job.seconds, job.script)));
    return;
  }
  if (args.pglite) {
    if (args["seed-only"]) return void (await preparePglite());
    if (args.soak) {
      const { dataDir, token } = await preparePglite();
      return soak(token, Number(args.soak), dataDir);
    }
    return pgliteRun(Number(args.duration));
  }
  const { user, token, writerToken, fsrsToken } = await prepareDatabase();
  if (args["seed-only"]) return;
  if (args.sequential) return sequential(user, token, writerToken, Number(args.sequential));
  if (args.soak) return soak(token, Number(args.soak));
  const seconds = Number(args.duration);
  if (args.processes) return compareProcesses(token, writerToken, seconds);
  const server = await startServer();
  try {
    const ids = (await (
      await fetch(`${BASE}/api/questions/due?limit=200`, {
        headers: { "x-auth-token": writerToken },
      })
    ).json()) as { _id: string }[] | { questions: { _id: string }[] };
    const questionIds = (Array.isArray(ids) ? ids : ids.questions).map((q) => q._id).slice(0, 200);
    const fsrsIds = (await (
      await fetch(`${BASE}/api/questions/due?limit=200`, { headers: { "x-auth-token": fsrsToken } })
    ).json()) as { _id: string }[] | { questions: { _id: string }[] };
    const fsrsQuestionIds = (Array.isArray(fsrsIds) ? fsrsIds : fsrsIds.questions)
      .map((q) => q._id)
      .slice(0, 200);
    if (args["writes-only"]) {
      return writesOnly(seconds, token, writerToken, fsrsToken, questionIds, fsrsQuestionIds);
    }
    const due = `${BASE}/api/questions/due?limit=20`;
    console.log(`user ${user.username}: ${user.due} due reviews, ${user.own} own questions`);
    // Warm-up on every endpoint measured (JIT, pools, PostgreSQL caches, the heap's working size), so
    // the RSS taken next is the steady state the load run is compared with.
    wrk(due, token, 10);
    wrk(`${BASE}/api/health`, token, 5);
    wrk(`${BASE}/api/questions/due?limit=200`, token, 5);
    wrk(`${BASE}/trpc/stats.summary?input=${encodeURIComponent("{}")}`, token, 5);
    wrk(`${BASE}/api/questions/search?text=lithium%20toxicity`, token, 5);
    wrk(`${BASE}/`, writerToken, 5, answerRateScript(questionIds));
    const rssWarm = await settledRssMb(server.pid!);
    const results: [string, WrkResult][] = [];
    const run = (name: string, url: string, script?: string, pid = server.pid!) => {
      const r = cpuPerRequest(pid, () => wrk(url, token, seconds, script));
      results.push([name, r]);
      console.log(
        `${name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, errors ${r.errors}`,
      );
    };
    run("GET /api/health (baseline)", `${BASE}/api/health`);
    // The ceiling in the same minute: the machine's speed moves by half between sessions.
    const bare = await startBareServer(user.id);
    try {
      wrk(`http://127.0.0.1:${BARE_PORT}/due`, token, 5);
      run(BARE_ROW, `http://127.0.0.1:${BARE_PORT}/due`, undefined, bare.pid!);
      wrk(`http://127.0.0.1:${BARE_PORT}/due?limit=200`, token, 5);
      run(BARE_200_ROW, `http://127.0.0.1:${BARE_PORT}/due?limit=200`, undefined, bare.pid!);
    } finally {
      bare.kill("SIGTERM");
    }
    run("GET /api/questions/due?limit=20", due);
    run("GET /api/questions/due?limit=200", `${BASE}/api/questions/due?limit=200`);
    run(
      "tRPC stats.summary (dashboard)",
      `${BASE}/trpc/stats.summary?input=${encodeURIComponent("{}")}`,
    );
    run(
      "GET /api/questions/search?text=lithium toxicity",
      `${BASE}/api/questions/search?text=lithium%20toxicity`,
    );
    const measured = (as: string, script: string) =>
      cpuPerRequest(server.pid!, () => wrk(`${BASE}/`, as, seconds, script));
    const writes = measured(writerToken, answerRateScript(questionIds));
    results.push(["tRPC study.answer + study.rate (another user)", writes]);
    const fsrsWrites = measured(fsrsToken, answerRateScript(fsrsQuestionIds));
    results.push(["tRPC study.answer + study.rate under FSRS (a third user)", fsrsWrites]);
    const examScript = examAnswerScript(await examPairs(writerToken, 50));
    wrk(`${BASE}/`, writerToken, 5, examScript);
    results.push([EXAM_ROW, measured(writerToken, examScript)]);
    const rssAfter = await settledRssMb(server.pid!);
    // The page read from the database every time (decision 270's cache off), the same minute: what a
    // request costs when the user's version has moved since the page was kept.
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    const uncached = await startServer(undefined, { DUE_PAGE_CACHE: "0" });
    try {
      wrk(due, token, 5);
      run(UNCACHED_DUE_ROW, due, undefined, uncached.pid!);
    } finally {
      uncached.kill("SIGTERM");
    }
    report(user, results, rssWarm, rssAfter, seconds);
  } finally {
    server.kill("SIGTERM");
  }
}

const UNCACHED_DUE_ROW = "GET /api/questions/due?limit=20, every page read (DUE_PAGE_CACHE=0)";

function report(
  user: { username: string; due: number; own: number },
  results: [string, WrkResult][],
  rssWarm: number,
  rssAfter: number,
  seconds: number,
) {
  const pg = spawnSync("psql", [args.url!, "-Atc", "show server_version"], { encoding: "utf8" });
  const lines = [
    "",
    `## API under load (bench/api-load.ts) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    machineLine(),
    `- Database: PostgreSQL ${pg.stdout.trim() || "?"}, synthetic bank of ${USERS.toLocaleString("en")} users, ${QUESTIONS.toLocaleString("en")} questions (20% public), ${REVIEWS.toLocaleString("en")} reviews over 90 days`,
    `- Load: wrk, 2 threads, ${args.connections} connections, ${seconds} s per row after a warm-up of every endpoint, on the same 2 cores as the server; authenticated with \`x-auth-token\` as ${user.username} (${user.due} due reviews, ${user.own} own questions)`,
    "",
    ...resultsTable(results),
    "",
    `- Server RSS: ${rssWarm.toFixed(0)} MB after warm-up, ${rssAfter.toFixed(0)} MB after the load (${(((rssAfter - rssWarm) / rssWarm) * 100).toFixed(0)}%; goal within 20%)`,
  ];
  const examRow = results.find(([n]) => n === EXAM_ROW)?.[1];
  if (examRow) {
    const met = examRow.rps >= 1000 && examRow.p99 <= 100;
    lines.push(
      `- **Saving an exam answer: ${examRow.rps.toFixed(0)} req/s, p99 ${examRow.p99.toFixed(1)} ms — goal ≥ 1,000 req/s with p99 ≤ 100 ms ${met ? "met" : "not met"}**`,
    );
  }
  const row = (name: string) => results.find(([n]) => n === name)?.[1];
  const dueRow = row("GET /api/questions/due?limit=20");
  const due200 = row("GET /api/questions/due?limit=200");
  const bareRow = row(BARE_ROW);
  const bare200 = row(BARE_200_ROW);
  if (dueRow && bareRow) {
    const share = dueRow.rps / bareRow.rps;
    const met = share >= 0.85 && dueRow.p99 <= 100;
    lines.push(
      `- **Due page (limit=20): ${dueRow.rps.toFixed(0)} req/s, ${(share * 100).toFixed(0)}% of the bare query's ${bareRow.rps.toFixed(0)} req/s in the same run, p99 ${dueRow.p99.toFixed(1)} ms — goal ≥ 85% with p99 ≤ 100 ms ${met ? "met" : "not met"}**`,
    );
  }
  const uncachedRow = row(UNCACHED_DUE_ROW);
  if (uncachedRow && bareRow) {
    lines.push(
      `- Due page (limit=20) with every page read from the database: ${uncachedRow.rps.toFixed(0)} req/s, ${((uncachedRow.rps / bareRow.rps) * 100).toFixed(0)}% of the bare query, p99 ${uncachedRow.p99.toFixed(1)} ms (a request after the user's own write)`,
    );
  }
  if (due200 && bare200) {
    const share = due200.rps / bare200.rps;
    lines.push(
      `- **Due page (limit=200): ${due200.rps.toFixed(0)} req/s, ${(share * 100).toFixed(0)}% of the bare query's ${bare200.rps.toFixed(0)} req/s at limit=200 — goal ≥ 50% ${share >= 0.5 ? "met" : "not met"}**`,
    );
  }
  record(lines);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
