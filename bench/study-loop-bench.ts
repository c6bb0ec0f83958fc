/**
 * The study loop (issue 35 item 1): what residents do most. Each loop is `GET /api/questions/due?limit=1`
 * as a signed-in user, then `study.answer` and `study.rate` on its first question (tRPC over HTTP), by
 * `--connections` (32) connections, each taking the next of `--users` (256) signed-in users in turn, so
 * no connection ever reads one user's kept page twice in a row. Half the users schedule with SM-2,
 * half with FSRS; each loop's time (the three requests) is counted for its user's scheduler too.
 *
 * `--rounds N` measures both targets N times per engine, the order alternating (bare, product; product,
 * bare; …), each round's ratio against its own bare run, and prints the median ratio: on a machine whose
 * speed drifts over minutes, one pair of runs taken one after the other can read 54% or 78% for the
 * same code (bench/RESULTS.md, 2026-11-28 02:46).
 *
 * The same-run baseline is bench/bare-loop-server.ts: the same SQL on the same tables with nothing
 * around it. Each target gets a fresh copy of the seeded database (PostgreSQL: `create database …
 * template …`; PGlite: a copied data folder), and the CPU each loop cost the server process and
 * PostgreSQL's backends is read from /proc, as bench/api-load.ts does.
 *
 *   npx tsx bench/study-loop-bench.ts [--engine both|postgres|pglite] [--questions 50000]
 *        [--seconds 20] [--warmup 5] [--connections 32] [--users 256] [--only product|bare]
 *        [--rounds 1] [--no-record] [--trace DIR]
 *
 * `--questions` sizes the synthetic bank as `prite seed --synthetic` does (1 user per 50 questions, 10
 * reviews per question); the seeded template (database `prite_loop_tpl_<n>`, folder
 * `$TMPDIR/prite-loop-tpl-<n>`) is kept for later runs (`--reseed` makes it again). The product server
 * runs from source with `npm start`'s Node flags (`--import tsx`: the same code, no build).
 *
 * `--trace DIR` writes each measured run's loops as `[start ms, loop ms]` to
 * `DIR/<engine>-<target>-<round>.json`: when slow loops come together, or one connection's loops are
 * slow one after another, the tail is the server's order of work, not the work (decision 434).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { sql } from "drizzle-orm";
import { createSession } from "../src/server/auth/session";
import { createDb, serverPoolSize, type DbHandle } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import { queryRows } from "../src/server/db/raw";
import { seedSynthetic } from "../src/server/features/seed/synthetic";
import { npmStartFlags } from "./npm-start-flags";

const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    engine: { type: "string", default: "both" },
    questions: { type: "string", default: "50000" },
    seconds: { type: "string", default: "20" },
    warmup: { type: "string", default: "5" },
    connections: { type: "string", default: "32" },
    users: { type: "string", default: "256" },
    only: { type: "string" },
    rounds: { type: "string", default: "1" },
    port: { type: "string", default: "3991" },
    reseed: { type: "boolean", default: false },
    "no-record": { type: "boolean", default: false },
    trace: { type: "string" },
  },
});
const ROOT = path.resolve(import.meta.dirname, "..");
const QUESTIONS = Number(args.questions);
const USERS = Math.max(Number(args.users), Math.round(QUESTIONS / 50));
const REVIEWS = QUESTIONS * 10;
const LOOP_USERS = Number(args.users);
const CONNECTIONS = Number(args.connections);
const PORT = Number(args.port);
const BASE_URL =
  args.url ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const TEMPLATE = `prite_loop_tpl_${QUESTIONS}`;
const RUN_DB = `prite_loop_run_${QUESTIONS}`;
const PGLITE_TEMPLATE = path.join(os.tmpdir(), `prite-loop-tpl-${QUESTIONS}`);
const TIME_ZONE = "America/New_York";

function dbUrl(name: string): string {
  const u = new URL(BASE_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

interface LoopUser {
  id: string;
  token: string;
  scheduler: "sm2" | "fsrs";
}

/** The synthetic bank, its loop users (every other one on FSRS) and their sessions, made once. */
async function seedTemplate(handle: DbHandle, kind: "postgres" | "pglite"): Promise<LoopUser[]> {
  await runMigrations(handle);
  const t0 = performance.now();
  console.log(`seeding ${USERS} users, ${QUESTIONS} questions, ${REVIEWS} reviews (${kind}) …`);
  await seedSynthetic(handle.db, {
    users: USERS,
    questions: QUESTIONS,
    reviews: REVIEWS,
    now: new Date(),
  });
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const people = await queryRows<{ id: string }>(
    handle.db,
    sql`select id from users order by username limit ${LOOP_USERS}`,
  );
  const users: LoopUser[] = [];
  for (const [i, p] of people.entries()) {
    const scheduler = i % 2 === 0 ? "sm2" : "fsrs";
    await handle.db.execute(sql`update users set scheduler = ${scheduler} where id = ${p.id}`);
    const { token } = await createSession(handle.db, p.id, new Date());
    users.push({ id: p.id, token, scheduler });
  }
  await handle.db.execute(sql`vacuum analyze`);
  await handle.db.execute(sql`checkpoint`);
  return users;
}

async function postgresTemplate(): Promise<LoopUser[]> {
  const file = path.join(os.tmpdir(), `${TEMPLATE}.json`);
  const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
  try {
    const exists = await admin`select 1 from pg_database where datname = ${TEMPLATE}`;
    if (exists.length > 0 && fs.existsSync(file) && !args.reseed) {
      return JSON.parse(fs.readFileSync(file, "utf8")) as LoopUser[];
    }
    await admin.unsafe(`drop database if exists "${TEMPLATE}" with (force)`);
    await admin.unsafe(`create database "${TEMPLATE}"`);
  } finally {
    await admin.end();
  }
  const handle = await createDb({ databaseUrl: dbUrl(TEMPLATE), maxConnections: 2 });
  try {
    const users = await seedTemplate(handle, "postgres");
    fs.writeFileSync(file, JSON.stringify(users));
    return users;
  } finally {
    await handle.close();
  }
}

async function pgliteTemplate(): Promise<LoopUser[]> {
  const file = `${PGLITE_TEMPLATE}.json`;
  if (fs.existsSync(file) && !args.reseed) {
    return JSON.parse(fs.readFileSync(file, "utf8")) as LoopUser[];
  }
  fs.rmSync(PGLITE_TEMPLATE, { recursive: true, force: true });
  const handle = await createDb({ dataDir: PGLITE_TEMPLATE });
  try {
    const users = await seedTemplate(handle, "pglite");
    fs.writeFileSync(file, JSON.stringify(users));
    return users;
  } finally {
    await handle.close();
  }
}

/** A fresh copy of the template for one target: its URL or data folder. */
async function freshCopy(kind: "postgres" | "pglite"): Promise<string> {
  if (kind === "pglite") {
    const dir = path.join(os.tmpdir(), `prite-loop-run-${QUESTIONS}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.cpSync(PGLITE_TEMPLATE, dir, { recursive: true });
    fs.rmSync(path.join(dir, ".lock"), { force: true });
    return dir;
  }
  const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${RUN_DB}" with (force)`);
    await admin.unsafe(`create database "${RUN_DB}" template "${TEMPLATE}"`);
  } finally {
    await admin.end();
  }
  return dbUrl(RUN_DB);
}

type Target = "product" | "bare";

function startServer(target: Target, kind: "postgres" | "pglite", where: string): ChildProcess {
  const dbEnv =
    kind === "postgres"
      ? { DATABASE_URL: where, DATA_DIR: "" }
      : { DATABASE_URL: "", DATA_DIR: where };
  const script =
    target === "product"
      ? path.join(ROOT, "src", "server", "main.ts")
      : path.join(ROOT, "bench", "bare-loop-server.ts");
  // LOOP_NODE_FLAGS: more Node flags for the server (`--cpu-prof --cpu-prof-dir=…` for a profile).
  const extra = (process.env.LOOP_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  return spawn(process.execPath, [...npmStartFlags(ROOT), ...extra, "--import", "tsx", script], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...dbEnv,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

function request(
  method: string,
  pathname: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: PORT, method, path: pathname, agent, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function waitHealthy(target: Target, child: ChildProcess, user: LoopUser) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${target} server exited`);
    try {
      const res =
        target === "product"
          ? await request("GET", "/api/health", {})
          : await request("GET", "/due", { "x-user": user.id });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${target} server did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** One loop for `user`: its first due question, answered ("A") and rated Medium. */
async function oneLoop(target: Target, user: LoopUser): Promise<"ok" | "empty" | "error"> {
  const json = { "content-type": "application/json" };
  if (target === "bare") {
    const h = { "x-user": user.id };
    const due = await request("GET", "/due", h);
    const [first] = JSON.parse(due.text) as { id: string }[];
    if (!first) return "empty";
    const a = await request(
      "POST",
      "/answer",
      { ...h, ...json },
      JSON.stringify({ questionId: first.id, selected: ["A"] }),
    );
    const r = await request(
      "POST",
      "/rate",
      { ...h, ...json },
      JSON.stringify({ questionId: first.id, difficulty: 1 }),
    );
    return a.status === 200 && r.status === 200 ? "ok" : "error";
  }
  const h = { "x-auth-token": user.token, "x-time-zone": TIME_ZONE };
  const due = await request("GET", "/api/questions/due?limit=1", h);
  if (due.status !== 200) return "error";
  const [first] = JSON.parse(due.text) as { _id: string }[];
  if (!first) return "empty";
  const a = await request(
    "POST",
    "/trpc/study.answer",
    { ...h, ...json },
    JSON.stringify({ questionId: first._id, selected: ["A"], timeSpentMs: 5000 }),
  );
  const r = await request(
    "POST",
    "/trpc/study.rate",
    { ...h, ...json },
    JSON.stringify({ questionId: first._id, difficulty: 1 }),
  );
  if (a.status !== 200 || r.status !== 200) {
    if (process.env.LOOP_DEBUG)
      console.error(a.status, a.text.slice(0, 300), r.status, r.text.slice(0, 300));
    return "error";
  }
  return "ok";
}

interface LoadResult {
  loops: number;
  perSecond: number;
  p50: number;
  p99: number;
  bySchedulerP99: Record<"sm2" | "fsrs", number>;
  empty: number;
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

/** `CONNECTIONS` loops at a time for `seconds`, users taken in turn. */
async function load(
  target: Target,
  users: LoopUser[],
  seconds: number,
  trace?: number[][],
): Promise<LoadResult> {
  let next = 0;
  const times: number[] = [];
  const bySched = { sm2: [] as number[], fsrs: [] as number[] };
  let empty = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const user = users[next++ % users.length]!;
        const t0 = performance.now();
        const outcome = await oneLoop(target, user).catch(() => "error" as const);
        const ms = performance.now() - t0;
        if (outcome === "ok") {
          trace?.push([Math.round(t0 - started), Math.round(ms)]);
          times.push(ms);
          bySched[user.scheduler].push(ms);
        } else if (outcome === "empty") empty++;
        else errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  for (const list of Object.values(bySched)) list.sort((a, b) => a - b);
  return {
    loops: times.length,
    perSecond: times.length / elapsed,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    bySchedulerP99: { sm2: percentile(bySched.sm2, 99), fsrs: percentile(bySched.fsrs, 99) },
    empty,
    errors,
  };
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** PostgreSQL's backends serving the run's database, by pid. */
function pgBackendSeconds(): Map<number, number> {
  const out = spawnSync("pgrep", ["-f", `postgres: .* ${RUN_DB} `], { encoding: "utf8" });
  const byPid = new Map<number, number>();
  for (const line of out.stdout.split("\n")) {
    const pid = Number(line);
    if (pid) byPid.set(pid, cpuSeconds(pid));
  }
  return byPid;
}

interface Measured extends LoadResult {
  target: Target;
  round: number;
  engine: string;
  serverCpuMs: number;
  dbCpuMs: number | null;
  loadCpuMs: number;
  load: string;
}

const loadNow = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(", ");

async function measureTarget(
  target: Target,
  kind: "postgres" | "pglite",
  users: LoopUser[],
  round: number,
): Promise<Measured> {
  const where = await freshCopy(kind);
  const child = startServer(target, kind, where);
  try {
    await waitHealthy(target, child, users[0]!);
    await new Promise((r) => setTimeout(r, 3000));
    await load(target, users, Number(args.warmup));
    const load0 = loadNow();
    const server0 = cpuSeconds(child.pid!);
    const pg0 = kind === "postgres" ? pgBackendSeconds() : new Map<number, number>();
    const self0 = process.cpuUsage();
    const trace: number[][] | undefined = args.trace ? [] : undefined;
    const r = await load(target, users, Number(args.seconds), trace);
    const self = process.cpuUsage(self0);
    if (args.trace && trace) {
      fs.mkdirSync(args.trace, { recursive: true });
      const file = path.join(args.trace, `${kind}-${target}-${round}.json`);
      fs.writeFileSync(file, JSON.stringify(trace));
    }
    const server1 = cpuSeconds(child.pid!);
    let pg = 0;
    if (kind === "postgres") {
      for (const [pid, s] of pgBackendSeconds()) pg += s - (pg0.get(pid) ?? 0);
    }
    const n = Math.max(1, r.loops);
    const m: Measured = {
      ...r,
      target,
      round,
      engine: kind === "postgres" ? "PostgreSQL" : "PGlite",
      serverCpuMs: ((server1 - server0) * 1000) / n,
      dbCpuMs: kind === "postgres" ? (pg * 1000) / n : null,
      loadCpuMs: (self.user + self.system) / 1000 / n,
      load: `${load0} → ${loadNow()}`,
    };
    console.log(JSON.stringify(m));
    return m;
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    if (kind === "pglite") fs.rmSync(where, { recursive: true, force: true });
  }
}

/** With several rounds, each engine's median of the rounds' ratios (product / the same round's bare). */
function medianRatios(results: Measured[]): string[] {
  const out: string[] = [];
  for (const engine of ["PostgreSQL", "PGlite"]) {
    const ratios = results
      .filter((r) => r.engine === engine && r.target === "product")
      .flatMap((r) => {
        const bare = results.find(
          (b) => b.engine === engine && b.target === "bare" && b.round === r.round,
        );
        return bare ? [r.perSecond / bare.perSecond] : [];
      })
      .sort((a, b) => a - b);
    if (ratios.length < 2) continue;
    const mid = Math.floor(ratios.length / 2);
    const median = ratios.length % 2 ? ratios[mid]! : (ratios[mid - 1]! + ratios[mid]!) / 2;
    const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
    out.push(
      "",
      `- ${engine}: median of ${ratios.length} rounds' ratios **${pct(median)}** (each: ${ratios.map(pct).join(", ")})`,
    );
  }
  return out;
}

async function main() {
  const results: Measured[] = [];
  const targets: Target[] = args.only ? [args.only as Target] : ["bare", "product"];
  for (const kind of ["postgres", "pglite"] as const) {
    if (args.engine !== "both" && args.engine !== kind) continue;
    const users = kind === "postgres" ? await postgresTemplate() : await pgliteTemplate();
    const rounds = Math.max(1, Number(args.rounds));
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? targets : [...targets].reverse();
      for (const target of order) results.push(await measureTarget(target, kind, users, round));
    }
  }
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const cpu = os.cpus();
  const rows = results.map((r) => {
    const bare = results.find(
      (b) => b.engine === r.engine && b.target === "bare" && b.round === r.round,
    );
    const ratio =
      r.target === "product" && bare
        ? `${((100 * r.perSecond) / bare.perSecond).toFixed(0)}%`
        : "–";
    return `| ${r.engine} | ${r.round} | ${r.target === "bare" ? "bare loop (bench/bare-loop-server.ts)" : "the product"} | ${r.perSecond.toFixed(0)} | ${ratio} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.bySchedulerP99.sm2)} / ${ms(r.bySchedulerP99.fsrs)} | ${r.serverCpuMs.toFixed(2)} ms | ${r.dbCpuMs === null ? "(in the server)" : `${r.dbCpuMs.toFixed(2)} ms`} | ${r.loadCpuMs.toFixed(2)} ms | ${r.errors} / ${r.empty} | ${r.load} |`;
  });
  const lines = [
    "",
    `## Study loop (bench/study-loop-bench.ts, issue 35 item 1) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}; synthetic bank ${USERS.toLocaleString("en-US")} users, ${QUESTIONS.toLocaleString("en-US")} questions, ${REVIEWS.toLocaleString("en-US")} reviews; ${CONNECTIONS} connections, ${LOOP_USERS} users in turn (half SM-2, half FSRS), ${args.warmup} s warm-up then ${args.seconds} s, a fresh copy of the database per target; the load generator runs on the same machine. PostgreSQL connections: the product's default for this machine, ${process.env.DATABASE_POOL_SIZE ?? serverPoolSize(os.availableParallelism(), 1)} (DATABASE_POOL_SIZE, decision 436); the bare server's 10.`,
    "- Loop = `GET /api/questions/due?limit=1` + `study.answer` + `study.rate` on its first question; p50/p99 are of whole loops. Goals: PostgreSQL ≥ 70% of the bare loop, p99 ≤ 100 ms; PGlite ≥ 150 loops/s, p99 ≤ 300 ms.",
    "",
    "| engine | round | target | loops/s | of the bare loop | p50 | p99 | p99 SM-2 / FSRS users | server CPU per loop | database CPU per loop | load generator CPU per loop | errors / empty pages | load average (1, 5, 15 min) before → after |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
    ...medianRatios(results),
  ];
  console.log(lines.join("\n"));
  if (!args["no-record"]) {
    fs.appendFileSync(path.join(ROOT, "bench", "RESULTS.md"), lines.join("\n") + "\n");
  }
  agent.destroy();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
