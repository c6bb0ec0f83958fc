/**
 * Start-up (issue 2, issue 8 item 5): `npm start` (scripts/start.mjs) to a healthy `/api/health` on a
 * fresh clone (nothing built, no data folder), then with the SPA built on a fresh data folder and on an
 * existing one; and the tests' database setup per test file (PGlite golden image, PostgreSQL template
 * clone). Appends to bench/RESULTS.md.
 *
 *   npx tsx bench/startup.ts [--runs 3] [--url postgres://postgres@127.0.0.1:5432/postgres]
 *
 * Issue 20 item 4: `--rss` instead measures the server's RSS 10 s after it is healthy (built server,
 * `node dist/server/main.js`): on a fresh PGlite folder, on the synthetic bank's folder
 * (`--synthetic-dir`, made with `DATA_DIR=… prite seed --synthetic` when missing) and on PostgreSQL.
 *
 *   npx tsx bench/startup.ts --rss [--synthetic-dir /tmp/prite-synth]
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { createSession } from "../src/server/auth/session";
import { createDb } from "../src/server/db/client";
import { queryRows } from "../src/server/db/raw";
import { createTestDb } from "../src/server/test/db";
import { npmStartFlags } from "./npm-start-flags";
import { ensurePgliteGolden, ensurePostgresTemplate } from "../src/server/test/golden";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    url: { type: "string", default: "postgres://postgres@127.0.0.1:5432/postgres" },
    port: { type: "string", default: "3985" },
    rss: { type: "boolean", default: false },
    "synthetic-dir": { type: "string", default: path.join(os.tmpdir(), "prite-synthetic-bank") },
  },
});
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const RUNS = Number(args.runs);

async function timeToHealthy(dataDir: string, root = ROOT): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, "scripts", "start.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: args.port,
      HOST: "127.0.0.1",
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${args.port}/api/health`);
        if (res.ok) return performance.now() - started;
      } catch {
        // not yet
      }
      if (performance.now() - started > 120_000) throw new Error("not healthy after 120 s");
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Issue 2: `npm start` on a fresh clone after `npm install` — no build, no data folder — to healthy.
 * The clone shares this checkout's node_modules (a symlink) so the install itself is not timed.
 */
async function freshCloneToHealthy(): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-clone-"));
  try {
    const clone = spawnSync("git", ["clone", "--quiet", ROOT, dir], { stdio: "inherit" });
    if (clone.status !== 0) throw new Error("git clone failed");
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
    return await timeToHealthy(path.join(dir, "data"), dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const cloned = await freshCloneToHealthy();
  spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" });
  const fresh: number[] = [];
  const existing: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-startup-"));
    fresh.push(await timeToHealthy(dir));
    existing.push(await timeToHealthy(dir));
    fs.rmSync(dir, { recursive: true, force: true });
  }

  await ensurePgliteGolden();
  const pglite: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const db = await createTestDb();
    pglite.push(performance.now() - t);
    await db.close();
  }
  const postgresTimes: number[] = [];
  process.env.TEST_DATABASE_URL = args.url;
  try {
    await ensurePostgresTemplate(args.url!);
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const db = await createTestDb();
      postgresTimes.push(performance.now() - t);
      await db.close();
    }
  } catch (err) {
    console.error("PostgreSQL not reachable:", err);
  }

  const cpu = os.cpus();
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const lines = [
    "",
    `## Start-up (bench/startup.ts) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}; SPA and server prebuilt, embedded PGlite`,
    `- **Fresh clone of HEAD after \`npm install\` (no build, no data folder): \`npm start\` to a healthy /api/health in ${s(cloned)}, the SPA and server build and the database creation included — goal ≤ 30 s**`,
    `- **\`npm start\` (scripts/start.mjs) to a healthy /api/health on a fresh data folder: median ${s(median(fresh))} (runs: ${fresh.map(s).join(", ")}) — goal ≤ 10 s**`,
    `- **On an existing data folder: median ${s(median(existing))} (runs: ${existing.map(s).join(", ")}) — goal ≤ 3 s**`,
    `- Test database per file: PGlite from the golden image median ${median(pglite).toFixed(0)} ms; PostgreSQL template clone median ${postgresTimes.length ? median(postgresTimes).toFixed(0) + " ms" : "n/a"} — goal < 1 s`,
  ];
  fs.appendFileSync(path.join(ROOT, "bench", "RESULTS.md"), lines.join("\n") + "\n");
  console.log(lines.join("\n"));
}

/** The server's resident set, in MB, from /proc (what `ps -o rss` shows). */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * The two settings compared in one run: the server as `npm start` runs it now, and the settings of
 * the previous round (decision 210's first step) on the same build: no Node flags, PGlite's
 * WebAssembly with V8's optimizing compiler, a 32 MB buffer pool.
 */
const SETTINGS: { name: string; flags: () => string[]; env: NodeJS.ProcessEnv }[] = [
  {
    name: "before (no Node flags, PGLITE_OPTIMIZE_WASM=1, PGLITE_SHARED_BUFFERS=32MB)",
    flags: () => [],
    env: { PGLITE_OPTIMIZE_WASM: "1", PGLITE_SHARED_BUFFERS: "32MB" },
  },
  { name: "now (as `npm start` runs it)", flags: () => npmStartFlags(ROOT), env: {} },
];

/** Starts the built server with `flags` and `env` and answers once `/api/health` is healthy. */
async function startBuilt(flags: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [...flags, path.join(ROOT, "dist", "server", "main.js")], {
    cwd: ROOT,
    env: { ...process.env, PORT: args.port, HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  const started = performance.now();
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${args.port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (performance.now() - started > 180_000) {
      await stop();
      throw new Error("not healthy after 180 s");
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { pid: child.pid!, stop };
}

/** Starts the built server, waits for health, then 10 s, and answers its RSS. */
async function rssAfterHealthy(flags: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const server = await startBuilt(flags, env);
  try {
    await new Promise((r) => setTimeout(r, 10_000));
    return rssMb(server.pid);
  } finally {
    await server.stop();
  }
}

/** Sessions for the `n` users of the synthetic bank with the most reviews (the folder must be closed after). */
async function syntheticTokens(dataDir: string, n: number): Promise<string[]> {
  const handle = await createDb({ dataDir });
  try {
    const users = await queryRows<{ id: string }>(
      handle.db,
      sql`select user_id as id from reviews group by user_id order by count(*) desc limit ${n}`,
    );
    const now = new Date();
    const tokens: string[] = [];
    // One at a time: the embedded database answers one query at a time.
    for (const u of users) tokens.push((await createSession(handle.db, u.id, now)).token);
    return tokens;
  } finally {
    await handle.close();
  }
}

const QUERY_ROWS: [string, string][] = [
  [
    "GET /api/questions/search?text=lithium toxicity",
    "/api/questions/search?text=lithium%20toxicity",
  ],
  ["tRPC stats.summary (dashboard)", `/trpc/stats.summary?input=${encodeURIComponent("{}")}`],
  ["GET /api/stats/comparative", "/api/stats/comparative"],
  [
    "GET /api/questions/due?limit=20 (a user's first page: not cached yet)",
    "/api/questions/due?limit=20",
  ],
];

/** Seconds of requests before the timed ones: V8 compiles what gets hot (TurboFan) in this time. */
const QUERY_WARM_UP_S = 15;

/**
 * The query cost of the settings: one request at a time on the synthetic bank's folder, p50 of each
 * row after 15 s of the same requests, so the optimizing compiler (before) has compiled
 * what gets hot. The due page is cached per user after its first request (decision 250), so it is
 * timed as the first request of each of the other `tokens.length - 1` users, last.
 */
async function queryCost(
  flags: string[],
  env: NodeJS.ProcessEnv,
  tokens: string[],
  n: number,
): Promise<number[]> {
  const server = await startBuilt(flags, env);
  const get = async (url: string, token: string) => {
    const t = performance.now();
    const res = await fetch(`http://127.0.0.1:${args.port}${url}`, {
      headers: { "x-auth-token": token },
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    return performance.now() - t;
  };
  try {
    const until = performance.now() + QUERY_WARM_UP_S * 1000;
    while (performance.now() < until) {
      for (const [, url] of QUERY_ROWS) await get(url, tokens[0]!);
    }
    const p50s: number[] = [];
    for (const [name, url] of QUERY_ROWS) {
      const times: number[] = [];
      if (name.includes("first page")) {
        for (const token of tokens.slice(1)) times.push(await get(url, token));
      } else {
        for (let i = 0; i < n; i++) times.push(await get(url, tokens[i % tokens.length]!));
      }
      p50s.push(median(times));
    }
    return p50s;
  } finally {
    await server.stop();
  }
}

const loadLine = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");

/**
 * Issue 20 item 4: RSS 10 s after healthy on both databases, for the settings before and now in the
 * same run; goals ≤ 200 MB PGlite, ≤ 120 MB PostgreSQL. Then the settings' query cost.
 */
async function rss() {
  spawnSync(process.execPath, [path.join(ROOT, "scripts", "build.mjs"), "--node-only", "--quiet"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  const synthetic = args["synthetic-dir"]!;
  if (!fs.existsSync(path.join(synthetic, "pglite", "PG_VERSION"))) {
    console.log(`seeding the synthetic bank into ${synthetic} (prite seed --synthetic) …`);
    const seeded = spawnSync(
      process.execPath,
      [path.join(ROOT, "bin", "prite.mjs"), "seed", "--synthetic"],
      {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: synthetic, DATABASE_URL: "" },
        stdio: "inherit",
      },
    );
    if (seeded.status !== 0) throw new Error("prite seed --synthetic failed");
  }
  // Sessions for the query runs, made before any server has run on the folder.
  const QUERY_N = 30;
  const tokens = await syntheticTokens(synthetic, QUERY_N + 1);
  const loadBefore = loadLine();
  const targets: [string, number][] = [
    ["PGlite, fresh data folder", 200],
    ["PGlite, the synthetic bank's folder", 200],
    ["PostgreSQL (migrated database)", 120],
  ];
  const pgUrl = new URL(args.url!);
  pgUrl.pathname = "/prite_bench_rss";
  spawnSync("psql", [args.url!, "-qc", "create database prite_bench_rss"], { stdio: "ignore" });
  // results[target][setting] = MB per run; settings alternate within each run.
  const results = targets.map(() => SETTINGS.map(() => [] as number[]));
  for (let i = 0; i < RUNS; i++) {
    for (const [t, [name]] of targets.entries()) {
      for (const [s, setting] of SETTINGS.entries()) {
        let env: NodeJS.ProcessEnv;
        let fresh: string | undefined;
        if (name.includes("fresh")) {
          fresh = fs.mkdtempSync(path.join(os.tmpdir(), "prite-rss-"));
          env = { DATA_DIR: fresh, DATABASE_URL: "" };
        } else if (name.startsWith("PostgreSQL")) {
          env = { DATABASE_URL: pgUrl.toString() };
        } else {
          env = { DATA_DIR: synthetic, DATABASE_URL: "" };
        }
        try {
          const mb = await rssAfterHealthy(setting.flags(), { ...env, ...setting.env });
          results[t]![s]!.push(mb);
          console.log(`${name}, ${setting.name}: ${mb.toFixed(0)} MB`);
        } finally {
          if (fresh) fs.rmSync(fresh, { recursive: true, force: true });
        }
      }
    }
  }
  const loadAfterRss = loadLine();

  const cost = SETTINGS.map(() => QUERY_ROWS.map(() => [] as number[]));
  // Two rounds, settings alternating, so a change in the machine's load falls on both.
  for (let round = 0; round < 2; round++) {
    for (const [s, setting] of SETTINGS.entries()) {
      const p50s = await queryCost(
        setting.flags(),
        { DATA_DIR: synthetic, DATABASE_URL: "", ...setting.env },
        // A new server holds no user's page yet: the same users serve every round.
        tokens,
        QUERY_N,
      );
      p50s.forEach((x, r) => cost[s]![r]!.push(x));
      console.log(`${setting.name}: ${p50s.map((x) => x.toFixed(1)).join(" / ")} ms`);
    }
  }
  const loadAfter = loadLine();

  const cpu = os.cpus();
  const mb = (x: number) => `${x.toFixed(0)} MB`;
  const ms = (xs: number[]) =>
    `${Math.min(...xs).toFixed(1)} ms (rounds: ${xs.map((x) => x.toFixed(1)).join(", ")})`;
  const lines = [
    "",
    `## Server RSS 10 s after healthy (bench/startup.ts --rss) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}; load average before ${loadBefore}, after the RSS runs ${loadAfterRss}, after the query runs ${loadAfter}; built server \`node <flags> dist/server/main.js\`, VmRSS from /proc`,
    `- Settings, same build, alternating within each run: ${SETTINGS.map((s) => `**${s.name}**${s.flags().length ? ` = \`node ${s.flags().join(" ")}\`` : ""}`).join("; ")}`,
    "",
    `| database | ${SETTINGS.map((s) => `${s.name.split(" (")[0]}: median (runs)`).join(" | ")} | goal (now) |`,
    `| --- | ${SETTINGS.map(() => "---").join(" | ")} | --- |`,
    ...targets.map(([name, goal], t) => {
      const cells = results[t]!.map((xs) => `${mb(median(xs))} (${xs.map(mb).join(", ")})`);
      const now = median(results[t]![SETTINGS.length - 1]!);
      return `| ${name} | ${cells.join(" | ")} | ≤ ${goal} MB ${now <= goal ? "met" : "not met"} |`;
    }),
    "",
    `Query cost on the synthetic bank's folder (one request at a time, p50 of ${QUERY_N} after ${QUERY_WARM_UP_S} s of the same requests; the due page as the first request of ${QUERY_N} other users; best of two rounds, settings alternating):`,
    "",
    `| request | ${SETTINGS.map((s) => s.name.split(" (")[0]).join(" | ")} |`,
    `| --- | ${SETTINGS.map(() => "---").join(" | ")} |`,
    ...QUERY_ROWS.map(
      ([name], r) => `| ${name} | ${SETTINGS.map((_, s) => ms(cost[s]![r]!)).join(" | ")} |`,
    ),
  ];
  fs.appendFileSync(path.join(ROOT, "bench", "RESULTS.md"), lines.join("\n") + "\n");
  console.log(lines.join("\n"));
}

(args.rss ? rss() : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
