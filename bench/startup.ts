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
import { createTestDb } from "../src/server/test/db";
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

/** Starts the built server with `env`, waits for health, then 10 s, and answers its RSS. */
async function rssAfterHealthy(env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [path.join(ROOT, "dist", "server", "main.js")], {
    cwd: ROOT,
    env: { ...process.env, PORT: args.port, HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    const started = performance.now();
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${args.port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (performance.now() - started > 180_000) throw new Error("not healthy after 180 s");
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 10_000));
    return rssMb(child.pid!);
  } finally {
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  }
}

/** Issue 20 item 4: RSS 10 s after healthy on both databases; goals ≤ 200 MB PGlite, ≤ 120 MB PostgreSQL. */
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
  const rows: [string, number[]][] = [
    ["PGlite, fresh data folder", []],
    ["PGlite, the synthetic bank's folder", []],
    ["PostgreSQL (migrated database)", []],
  ];
  const pgUrl = new URL(args.url!);
  pgUrl.pathname = "/prite_bench_rss";
  spawnSync("psql", [args.url!, "-qc", "create database prite_bench_rss"], { stdio: "ignore" });
  for (let i = 0; i < RUNS; i++) {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "prite-rss-"));
    rows[0]![1].push(await rssAfterHealthy({ DATA_DIR: fresh, DATABASE_URL: "" }));
    fs.rmSync(fresh, { recursive: true, force: true });
    rows[1]![1].push(await rssAfterHealthy({ DATA_DIR: synthetic, DATABASE_URL: "" }));
    rows[2]![1].push(await rssAfterHealthy({ DATABASE_URL: pgUrl.toString() }));
  }
  const cpu = os.cpus();
  const mb = (x: number) => `${x.toFixed(0)} MB`;
  const goal = (name: string) => (name.startsWith("PostgreSQL") ? 120 : 200);
  const lines = [
    "",
    `## Server RSS 10 s after healthy (bench/startup.ts --rss) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ", ",
      )} (other work ran on the same 2 cores); built server \`node dist/server/main.js\`, VmRSS from /proc`,
    "",
    "| database | median | runs | goal |",
    "| --- | --- | --- | --- |",
    ...rows.map(
      ([name, xs]) =>
        `| ${name} | ${mb(median(xs))} | ${xs.map(mb).join(", ")} | ≤ ${goal(name)} MB ${median(xs) <= goal(name) ? "met" : "not met"} |`,
    ),
  ];
  fs.appendFileSync(path.join(ROOT, "bench", "RESULTS.md"), lines.join("\n") + "\n");
  console.log(lines.join("\n"));
}

(args.rss ? rss() : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
