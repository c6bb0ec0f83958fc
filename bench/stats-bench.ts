/**
 * Issue 20 item 2: the dashboard (`stats.summary`) and the rankings (`GET /api/stats/comparative`) read
 * figures kept as answers arrive (decision 220). On the synthetic bank (1,000 users, 50,000 questions,
 * 500,000 reviews over 90 days; the same bank and user as bench/api-load.ts), on PostgreSQL and on the
 * embedded database (PGlite in a data folder, as `npm start` runs without DATABASE_URL):
 *
 * - one request at a time, in process: the kept figures against the whole-log computation they
 *   replaced (whole-log.ts), measured in the same run (p50 and p95 of 60 calls after 10 warm-ups);
 * - under load: the built server on that database, wrk with 32 connections for `--duration` seconds
 *   per endpoint, with `GET /api/health` in the same run as the baseline.
 *
 *   npx tsx bench/stats-bench.ts [--db both|postgres|pglite] [--url postgres://…/postgres]
 *                                [--duration 15] [--connections 32] [--fresh] [--no-record]
 *
 * The PGlite folder is kept in $TMPDIR/prite-bench-stats (seeding it takes minutes; PRITE_BENCH_PGLITE_DIR
 * names another) and the PostgreSQL database is prite_bench_stats (PRITE_BENCH_DB names another);
 * `--fresh` seeds both again. Appends the figures to bench/RESULTS.md unless `--no-record`.
 *
 * One request at a time is measured without the caches of decision 260 (every request computes) and
 * with them (a repeated request: the summary checked against its version, the rankings' cohort kept);
 * the built server runs with them, as `npm start` does.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { createSession } from "../src/server/auth/session";
import { createDb, type DbHandle } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import { queryRows } from "../src/server/db/raw";
import { seedSynthetic } from "../src/server/features/seed/synthetic";
import { enableStatsCaches } from "../src/server/features/stats/stats-caches";
import { comparativeStats, studySummary } from "../src/server/features/stats/stats.service";
import { comparativeFromLog, studyStatsFromLog } from "../src/server/features/stats/whole-log";
import { sql } from "drizzle-orm";
import { runWrk, type WrkResult as WrkReport } from "./wrk";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    url: { type: "string", default: "postgres://postgres@127.0.0.1:5432/postgres" },
    duration: { type: "string", default: "15" },
    connections: { type: "string", default: "32" },
    port: { type: "string", default: "3991" },
    fresh: { type: "boolean", default: false },
    "no-record": { type: "boolean", default: false },
  },
});
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const DB_NAME = process.env.PRITE_BENCH_DB ?? "prite_bench_stats";
const PGLITE_DIR =
  process.env.PRITE_BENCH_PGLITE_DIR ?? path.join(os.tmpdir(), "prite-bench-stats");
const PORT = Number(args.port);
const BASE = `http://127.0.0.1:${PORT}`;
const TIME_ZONE = "America/New_York";

function dbUrl(name: string): string {
  const u = new URL(args.url!);
  u.pathname = `/${name}`;
  return u.toString();
}

async function openDatabase(kind: "postgres" | "pglite"): Promise<DbHandle> {
  if (kind === "postgres") {
    const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
    if (args.fresh) await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
    const exists = await admin`select 1 from pg_database where datname = ${DB_NAME}`;
    if (exists.length === 0) await admin.unsafe(`create database ${DB_NAME}`);
    await admin.end();
    return createDb({ databaseUrl: dbUrl(DB_NAME), maxConnections: 4 });
  }
  if (args.fresh) fs.rmSync(PGLITE_DIR, { recursive: true, force: true });
  return createDb({ dataDir: PGLITE_DIR });
}

/** The synthetic bank, seeded once; the user bench/api-load.ts measures (most due reviews). */
async function prepare(kind: "postgres" | "pglite") {
  const handle = await openDatabase(kind);
  await runMigrations(handle);
  const [bank] = await queryRows<{ n: number }>(
    handle.db,
    sql`select count(*)::int as n from questions`,
  );
  if (bank!.n < 50_000) {
    const started = performance.now();
    console.log(`${kind}: seeding 1,000 users, 50,000 questions, 500,000 reviews …`);
    await seedSynthetic(handle.db, {
      users: 1000,
      questions: 50_000,
      reviews: 500_000,
      now: new Date(),
      prefix: "load",
    });
    console.log(`${kind}: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  // A bank in steady state, as autovacuum leaves a running service's (bench/api-load.ts does the same).
  await handle.db.execute(sql`vacuum analyze`);
  const [user] = await queryRows<{ id: string; username: string; pgy_level: string }>(
    handle.db,
    sql`select u.id, u.username, u.pgy_level from users u where u.username like 'load\\_%'
        order by (select count(*) from study_states s where s.user_id = u.id and s.due_at <= now()) desc
        limit 1`,
  );
  const [counts] = await queryRows<{ reviews: number; sharing: number }>(
    handle.db,
    sql`select (select count(*) from reviews where user_id = ${user!.id})::int as reviews,
               (select count(*) from users where share_usage_data)::int as sharing`,
  );
  const { token } = await createSession(handle.db, user!.id, new Date());
  return { handle, user: user!, token, ...counts! };
}

interface Timing {
  p50: number;
  p95: number;
}

async function timeIt(f: () => Promise<unknown>, runs = 60, warm = 10): Promise<Timing> {
  for (let i = 0; i < warm; i++) await f();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    xs.push(performance.now() - t);
  }
  xs.sort((a, b) => a - b);
  return { p50: xs[Math.floor(runs / 2)]!, p95: xs[Math.floor(runs * 0.95)]! };
}

function startServer(kind: "postgres" | "pglite"): Promise<ChildProcess> {
  if (!fs.existsSync(path.join(ROOT, "dist", "server", "main.js"))) {
    spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(PORT),
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
  };
  if (kind === "postgres") env.DATABASE_URL = dbUrl(DB_NAME);
  else {
    delete env.DATABASE_URL;
    env.DATA_DIR = PGLITE_DIR;
  }
  const child = spawn(process.execPath, [path.join(ROOT, "dist", "server", "main.js")], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 120_000;
    const poll = async () => {
      try {
        const res = await fetch(`${BASE}/api/health`);
        if (res.ok) return resolve(child);
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) return reject(new Error("server did not become healthy"));
      setTimeout(poll, 200);
    };
    void poll();
  });
}

interface WrkResult extends WrkReport {
  /** Where the machine's CPU went during the run (pidstat): percent of one core per command. */
  cpu?: string;
}

/**
 * CPU per command (percent of one core, summed over processes) while wrk runs, from `pidstat`'s
 * averages: how the work splits between the server (node), PostgreSQL and wrk itself.
 */
function cpuByCommand(seconds: number): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn("pidstat", ["-u", "1", String(Math.max(1, seconds - 1))], {
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, LC_ALL: "C" },
    });
    let text = "";
    child.stdout.on("data", (d: Buffer) => (text += d.toString()));
    child.on("error", () => resolve("pidstat not available"));
    child.on("close", () => {
      const by = new Map<string, number>();
      for (const line of text.split("\n")) {
        if (!line.startsWith("Average:")) continue;
        const f = line.trim().split(/\s+/);
        const cpu = Number(f[7]);
        const command = f[9];
        if (!command || !Number.isFinite(cpu)) continue;
        by.set(command, (by.get(command) ?? 0) + cpu);
      }
      resolve(
        [...by]
          .filter(([, c]) => c >= 1)
          .sort((a, b) => b[1] - a[1])
          .map(([c, v]) => `${c} ${v.toFixed(0)}%`)
          .join(", "),
      );
    });
  });
}

function wrk(url: string, token: string, seconds: number): WrkResult {
  return runWrk({
    target: url,
    token,
    seconds,
    connections: Number(args.connections),
    timeZone: TIME_ZONE,
  });
}

const SUMMARY_PATH = `/trpc/stats.summary?input=${encodeURIComponent("{}")}`;
const COMPARATIVE_PATH = "/api/stats/comparative";

async function benchOne(kind: "postgres" | "pglite"): Promise<string[]> {
  const { handle, user, token, reviews, sharing } = await prepare(kind);
  const db = handle.db;
  const opts = { userId: user.id, timeZone: TIME_ZONE, pgyLevel: user.pgy_level };
  console.log(`${kind}: ${user.username}, ${reviews} reviews; ${sharing} users share usage data`);
  const single: [string, Timing][] = [];
  const measure = async (name: string, f: () => Promise<unknown>) => {
    const t = await timeIt(f);
    single.push([name, t]);
    console.log(`${kind} ${name}: p50 ${t.p50.toFixed(2)} ms, p95 ${t.p95.toFixed(2)} ms`);
  };
  await measure("stats.summary, kept figures", () =>
    studySummary(db, { ...opts, now: new Date() }),
  );
  await measure("stats.summary, whole log (before)", () =>
    studySummary(db, { ...opts, now: new Date() }, studyStatsFromLog),
  );
  await measure("rankings, kept figures", () => comparativeStats(db, { ...opts, now: new Date() }));
  await measure("rankings, whole log (before)", () =>
    comparativeFromLog(db, { ...opts, now: new Date() }),
  );
  // A server's handle: the summary kept between requests, the cohort for RANKING_COHORT_SECONDS (5).
  enableStatsCaches(db, { rankingCohortMs: 5000 });
  await measure("stats.summary, kept figures, repeated (cache of decision 260)", () =>
    studySummary(db, { ...opts, now: new Date() }),
  );
  await measure("rankings, kept figures, repeated (cohort of decision 260)", () =>
    comparativeStats(db, { ...opts, now: new Date() }),
  );
  await handle.close();

  const seconds = Number(args.duration);
  const server = await startServer(kind);
  const load: [string, WrkResult][] = [];
  try {
    for (const p of ["/api/health", SUMMARY_PATH, COMPARATIVE_PATH]) wrk(`${BASE}${p}`, token, 3);
    for (const [name, p] of [
      ["GET /api/health (baseline)", "/api/health"],
      ["tRPC stats.summary", SUMMARY_PATH],
      ["GET /api/stats/comparative", COMPARATIVE_PATH],
    ] as const) {
      const cpu = cpuByCommand(seconds);
      const r = wrk(`${BASE}${p}`, token, seconds);
      r.cpu = await cpu;
      load.push([name, r]);
      console.log(
        `${kind} ${name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, errors ${r.errors}, CPU ${r.cpu}`,
      );
    }
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
  }
  const label = kind === "postgres" ? "PostgreSQL" : "PGlite (embedded, data folder)";
  const met = (name: string, t: Timing) =>
    name.includes("kept") ? (t.p50 <= 15 ? " — goal ≤ 15 ms met" : " — goal ≤ 15 ms not met") : "";
  return [
    "",
    `### ${label}: ${user.username} (${reviews} reviews), ${sharing} users sharing usage data`,
    "",
    "| one request at a time, in process | p50 | p95 |",
    "| --- | --- | --- |",
    ...single.map(
      ([name, t]) => `| ${name} | ${t.p50.toFixed(2)} ms${met(name, t)} | ${t.p95.toFixed(2)} ms |`,
    ),
    "",
    `| under load: built server, wrk 2 threads, ${args.connections} connections, ${seconds} s | requests/s | p50 | p99 | errors | CPU (pidstat, % of a core) |`,
    "| --- | --- | --- | --- | --- | --- |",
    ...load.map(
      ([name, r]) =>
        `| ${name} | ${r.rps.toFixed(0)}${name.includes("health") ? "" : r.rps >= 1000 ? " (goal ≥ 1,000 met)" : " (goal ≥ 1,000 not met)"} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.errors} | ${r.cpu ?? ""} |`,
    ),
  ];
}

async function main() {
  const kinds: ("postgres" | "pglite")[] =
    args.db === "both" ? ["postgres", "pglite"] : [args.db as "postgres" | "pglite"];
  const cpu = os.cpus();
  const lines = [
    "",
    `## Dashboard and rankings from kept figures (bench/stats-bench.ts) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), Node ${process.version}; load average before the run ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ", ",
      )}; synthetic bank of 1,000 users, 50,000 questions, 500,000 reviews; time zone ${TIME_ZONE}`,
  ];
  for (const kind of kinds) lines.push(...(await benchOne(kind)));
  lines.push(
    "",
    `Load average after the run: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")}.`,
  );
  if (!args["no-record"]) {
    fs.appendFileSync(path.join(ROOT, "bench", "RESULTS.md"), lines.join("\n") + "\n");
  }
  console.log(lines.join("\n"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
