/**
 * Cold paths a user waits for (issue 35 item 4), against the built server (`node dist/server/main.js`):
 *
 * 1. Sign-in under 8 concurrent sign-ins, on the embedded database (a fresh data folder) and on
 *    PostgreSQL (a fresh database): 8 users, then --rounds rounds of 8 `POST /api/auth/login` at
 *    once, each a different user; p50 / p99 / max of the requests as the client sees them. Same-run
 *    baseline: the bare argon2id verifications in this process, 8 at a time, with the product's
 *    parameters (the floor the server cannot go under on this machine). Goal p99 ≤ 300 ms.
 * 2. The first Study page after sign-in on the embedded database: for --study-users users of the
 *    synthetic bank (--synthetic-dir, a PGlite data folder seeded by `prite seed --synthetic`; seeded
 *    there when missing), each signs in through `/api/auth/login` (a fresh session, the server's
 *    per-user caches cold for that user), then Chromium opens /study with that session and every
 *    request the page makes to /trpc and /api is timed twice:
 *    - in the server, by bench/request-probe.mjs preloaded into it (`--import`), the same for this
 *      tree and for a --baseline built before the product's own `Server-Timing` header (decision
 *      424): from Node's request event (headers parsed) to the response's head being written (the
 *      answer ready), and, over that time, the main thread's time on a core and waiting for one (from
 *      /proc/thread-self/schedstat: runnable while the machine's cores ran something else). Goal
 *      ≤ 150 ms server time: how long at least one of the page's requests was in the server
 *      (requests in progress together count once), median over the users; the sum is printed too;
 *    - from the browser: request sent → first byte of the response (the server's time plus loopback
 *      and the browser's network thread), counted once and summed, as before; and, for a build with
 *      the header, its `app;dur` read from the page's PerformanceResourceTiming.serverTiming, which
 *      should match the probe's figure within a few milliseconds (it starts at the app's first hook
 *      and ends at onSend, the probe a little before and after).
 *    With --baseline, both builds' servers run at once (the baseline on a copy of the folder: PGlite
 *    locks its folder) and each user's page is opened on one then the other, the order alternating,
 *    so that both meet the same load from the machine's other work.
 *    The browser runs on the server's machine, which a user's browser never does: its work on the
 *    bundle, which since decision 419 overlaps the page's first request, takes cores the server
 *    would have had (docs/decisions/425); --browser-core N keeps it to one core.
 *
 *   node scripts/build.mjs && npx tsx bench/cold-paths-bench.ts [--rounds 25] [--study-users 10]
 *     [--synthetic-dir /tmp/prite-synthetic] [--url postgres://…] [--skip-signin] [--skip-study]
 *     [--baseline <commit>] [--browser-core N|none] [--no-record]
 *
 * The machine's 1-minute load average is read before each part (and after the Study pages) and
 * recorded beside its figures.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { verify } from "@node-rs/argon2";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { chromium, type BrowserContext } from "playwright-core";
import { hashPassword } from "../src/server/auth/password";
import { createDb } from "../src/server/db/client";
import { queryRows } from "../src/server/db/raw";
import { SYNTHETIC_PASSWORD } from "../src/server/features/seed/synthetic";
import { startBuiltServer, type BuiltServer } from "./built-server";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const PROBE = path.join(ROOT, "bench", "request-probe.mjs");
const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "25" },
    "study-users": { type: "string", default: "10" },
    "synthetic-dir": { type: "string", default: path.join(os.tmpdir(), "prite-synthetic") },
    url: { type: "string" },
    "skip-signin": { type: "boolean", default: false },
    "skip-study": { type: "boolean", default: false },
    baseline: { type: "string" },
    "browser-core": { type: "string" },
    "no-record": { type: "boolean", default: false },
  },
});
const ROUNDS = Number(args.rounds);
const CONCURRENT = 8;
const STUDY_USERS = Number(args["study-users"]);
const baseUrl =
  args.url ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PASSWORD = "a long password";
const load1 = () => os.loadavg()[0]!.toFixed(1);

const dbUrl = (name: string) => {
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return u.toString();
};

/** The built server with this bench's environment (sign-ins unthrottled). */
function startServer(env: Record<string, string>, port: number, root = ROOT): Promise<BuiltServer> {
  return startBuiltServer({
    root,
    port,
    env: { REGISTRATIONS_PER_HOUR_PER_IP: "0", ...env },
  });
}

async function login(base: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok)
    throw new Error(`login ${username}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const pct = (values: number[], p: number) => {
  const s = sorted(values);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const ms = (v: number) => `${v.toFixed(0)} ms`;

/** `rounds` rounds of `CONCURRENT` calls of `once(i)` at a time; the time of each call. */
async function concurrentRounds(rounds: number, once: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, i) => {
        const t = performance.now();
        await once(i);
        times.push(performance.now() - t);
      }),
    );
  }
  return times;
}

interface Target {
  label: string;
  root: string;
}

async function signInOn(label: string, env: Record<string, string>, port: number, root: string) {
  const server = await startServer(env, port, root);
  try {
    const names = Array.from({ length: CONCURRENT }, (_, i) => `signin_bench_${i}`);
    for (const username of names) {
      const response = await fetch(`${server.base}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          username,
          email: `${username}@example.test`,
          password: PASSWORD,
          confirmPassword: PASSWORD,
          pgyLevel: "2",
        }),
      });
      if (!response.ok) throw new Error(`register: ${response.status} ${await response.text()}`);
    }
    await concurrentRounds(2, (i) => login(server.base, names[i]!, PASSWORD));
    const load = load1();
    const times = await concurrentRounds(ROUNDS, (i) => login(server.base, names[i]!, PASSWORD));
    // One at a time: the cost of a sign-in without waiting on the others.
    const alone: number[] = [];
    for (let i = 0; i < 3 * CONCURRENT; i++) {
      const t = performance.now();
      await login(server.base, names[i % CONCURRENT]!, PASSWORD);
      alone.push(performance.now() - t);
    }
    return { label, times, load, alone };
  } finally {
    await server.stop();
  }
}

async function signIn(lines: string[], targets: Target[]) {
  // The same-run floor: the product's argon2id verifications alone, 8 at a time, in this process.
  const hash = await hashPassword(PASSWORD);
  await concurrentRounds(2, () => verify(hash, PASSWORD));
  const bareLoad = load1();
  const bare = await concurrentRounds(ROUNDS, () => verify(hash, PASSWORD));
  const single: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    await verify(hash, PASSWORD);
    single.push(performance.now() - t);
  }

  const figures: Awaited<ReturnType<typeof signInOn>>[] = [];
  const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
  const version = String((await admin`show server_version`)[0]?.server_version ?? "");
  try {
    for (const target of targets) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-signin-"));
      figures.push(
        await signInOn(
          `${target.label}, PGlite (fresh data folder)`,
          { DATABASE_URL: "", DATA_DIR: dataDir },
          3991,
          target.root,
        ),
      );
      fs.rmSync(dataDir, { recursive: true, force: true });
      await admin.unsafe(`drop database if exists prite_bench_signin with (force)`);
      await admin.unsafe(`create database prite_bench_signin`);
      figures.push(
        await signInOn(
          `${target.label}, PostgreSQL ${version}`,
          { DATABASE_URL: dbUrl("prite_bench_signin") },
          3992,
          target.root,
        ),
      );
    }
  } finally {
    await admin.end();
  }

  lines.push(
    `- ${ROUNDS} rounds of ${CONCURRENT} sign-ins at once (${ROUNDS * CONCURRENT} each), 8 different users, after 2 rounds of warm-up; argon2id 19 MiB, t=2, p=1 (@node-rs/argon2, run on libuv's thread pool: UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? "unset (4)"})`,
    "",
    "| target | p50 | p99 | max | load | goal p99 ≤ 300 ms |",
    "| --- | --- | --- | --- | --- | --- |",
    `| baseline: argon2id verify alone, 8 at a time in one process | ${ms(pct(bare, 50))} | ${ms(pct(bare, 99))} | ${ms(Math.max(...bare))} | ${bareLoad} | — |`,
    `| baseline: one argon2id verify at a time | ${ms(pct(single, 50))} | ${ms(pct(single, 99))} | ${ms(Math.max(...single))} | ${bareLoad} | — |`,
    ...figures.map(
      (f) =>
        `| POST /api/auth/login one at a time, ${f.label} | ${ms(pct(f.alone, 50))} | ${ms(pct(f.alone, 99))} | ${ms(Math.max(...f.alone))} | ${f.load} | — |`,
    ),
    ...figures.map(
      (f) =>
        `| POST /api/auth/login, 8 at once, ${f.label} | ${ms(pct(f.times, 50))} | **${ms(pct(f.times, 99))}** | ${ms(Math.max(...f.times))} | ${f.load} | ${pct(f.times, 99) <= 300 ? "met" : "NOT met"} |`,
    ),
    "",
  );
}

/** The users of the synthetic bank with the most reviews (read before any server opens the folder). */
async function syntheticUsers(dataDir: string, n: number): Promise<string[]> {
  if (!fs.existsSync(path.join(dataDir, "pglite", "PG_VERSION"))) {
    console.log(`seeding the synthetic bank into ${dataDir} (prite seed --synthetic) …`);
    const seeded = spawnSync(
      process.execPath,
      [path.join(ROOT, "bin", "prite.mjs"), "seed", "--synthetic"],
      {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
        stdio: "inherit",
      },
    );
    if (seeded.status !== 0) throw new Error("prite seed --synthetic failed");
  }
  const handle = await createDb({ dataDir });
  try {
    const rows = await queryRows<{ username: string }>(
      handle.db,
      sql`select u.username from users u join (select user_id, count(*) n from reviews group by user_id order by n desc limit ${n}) r on r.user_id = u.id order by r.n desc`,
    );
    return rows.map((r) => r.username);
  } finally {
    await handle.close();
  }
}

/** The server's CPU time so far (user + system, ms), from /proc. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const CHROMIUM = "/usr/bin/chromium";
/**
 * --browser-core N keeps Chromium to core N (`taskset`; its child processes inherit the mask), so the
 * browser the bench drives takes at most that core from the server, as the user's browser, on
 * another machine, takes none; by default ("none") it runs on any core, as before. Measured on the
 * shared 2-core machine, keeping it to one core did not make the builds' waits for a core alike
 * (docs/decisions/425).
 */
const BROWSER_CORE = args["browser-core"] ?? "none";

/** Chromium, or a wrapper that starts it on BROWSER_CORE (its child processes inherit the mask). */
function browserExecutable(): string {
  if (BROWSER_CORE === "none") return CHROMIUM;
  const wrapper = path.join(os.tmpdir(), `prite-chromium-core-${BROWSER_CORE}.sh`);
  fs.writeFileSync(wrapper, `#!/bin/sh\nexec taskset -c ${BROWSER_CORE} ${CHROMIUM} "$@"\n`, {
    mode: 0o755,
  });
  return wrapper;
}

/** REF's tree in a temporary folder sharing this checkout's node_modules, built. */
function buildRef(ref: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cold-baseline-"));
  const archive = spawnSync("git", ["archive", "--format=tar", ref], {
    cwd: ROOT,
    maxBuffer: 1 << 30,
  });
  if (archive.status !== 0) throw new Error(`git archive ${ref} failed`);
  spawnSync("tar", ["-x", "-C", dir], { input: archive.stdout });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: dir, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`build of ${ref} failed: ${build.stderr}`);
  return dir;
}

interface PageFigures {
  total: number;
  span: number;
  longest: number;
  requests: number;
  cpu: number;
  server: ServerSide;
  header: { span: number; total: number } | null;
}

/** One build's server and browser context, and what its pages measured. */
interface StudyRun {
  target: Target;
  dataDir: string;
  server: BuiltServer;
  context: BrowserContext;
  probeFile: string;
  perUser: PageFigures[];
  perRequest: Map<string, number[]>;
  perRequestServer: Map<string, ProbeLine[]>;
}

/**
 * Every build's server runs at once, each on its own copy of the synthetic folder (PGlite locks its
 * folder), and each user's page is opened on one build then the other (the order alternating), so the
 * builds meet the same load from the machine's other work.
 */
async function firstStudyPage(lines: string[], targets: Target[]) {
  const dataDir = args["synthetic-dir"]!;
  // One more user than measured: the first warms the server's database buffers for all.
  const [warmUser, ...names] = await syntheticUsers(dataDir, STUDY_USERS + 1);
  const copies: string[] = [];
  const runs: StudyRun[] = [];
  const browser = await chromium.launch({
    executablePath: browserExecutable(),
    args: ["--no-sandbox", "--disable-gpu"],
  });
  const loadBefore = load1();
  try {
    for (const [i, target] of targets.entries()) {
      let dir = dataDir;
      if (i < targets.length - 1) {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cold-copy-"));
        copies.push(dir);
        fs.cpSync(dataDir, dir, { recursive: true });
      }
      // The same probe in both builds (request-probe.mjs): a baseline has no Server-Timing header.
      const probeFile = path.join(os.tmpdir(), `prite-cold-probe-${process.pid}-${i}.jsonl`);
      const server = await startServer(
        {
          DATABASE_URL: "",
          DATA_DIR: dir,
          NODE_OPTIONS:
            `${process.env.NODE_OPTIONS ?? ""} --import=${pathToFileURL(PROBE).href}`.trim(),
          PRITE_REQUEST_PROBE: probeFile,
        },
        3993 + i,
        target.root,
      );
      // A context per build, kept for all its users, so the page's code stays in its HTTP cache (as
      // on a phone that has opened the app before); each user's session replaces the last one's.
      const context = await browser.newContext({
        viewport: { width: 375, height: 667 },
        isMobile: true,
        serviceWorkers: "block",
      });
      runs.push({
        target,
        dataDir: dir,
        server,
        context,
        probeFile,
        perUser: [],
        perRequest: new Map(),
        perRequestServer: new Map(),
      });
    }
    for (const [u, username] of [warmUser!, ...names].entries()) {
      for (const run of u % 2 === 0 ? runs : [...runs].reverse()) {
        await studyPageOf(run, username, username === warmUser);
      }
    }
  } finally {
    await browser.close();
    for (const run of runs) {
      await run.server.stop();
      fs.rmSync(run.probeFile, { force: true });
    }
    for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
  }
  const load = `${loadBefore}-${load1()}`;
  for (const run of runs) lines.push(...studyReport(run, names.length, load));
}

/** One user's first Study page on one build: signed in, opened, its requests timed both ways. */
async function studyPageOf(run: StudyRun, username: string, warmUp: boolean) {
  const { server, context, probeFile } = run;
  const token = await login(server.base, username, SYNTHETIC_PASSWORD);
  const cpuBefore = cpuMs(server.child.pid!);
  fs.writeFileSync(probeFile, "");
  await context.clearCookies();
  await context.addCookies([{ name: "prite_session", value: token, url: server.base }]);
  const page = await context.newPage();
  const timings: { name: string; ms: number; from: number; to: number }[] = [];
  page.on("requestfinished", (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith("/trpc") && !url.pathname.startsWith("/api")) return;
    const t = request.timing();
    timings.push({
      name: `${request.method()} ${url.pathname}`,
      ms: t.responseStart - t.requestStart,
      from: t.startTime + t.requestStart,
      to: t.startTime + t.responseStart,
    });
  });
  await page.goto(`${server.base}/study`);
  await page.getByRole("button", { name: "Start Studying" }).waitFor();
  await page.waitForLoadState("networkidle");
  const headerTimes = await page.evaluate(serverTimingOfPage);
  await page.close();
  if (warmUp) return;
  const probed = readProbe(probeFile);
  for (const line of probed) {
    const name = `${line.method} ${line.url.split("?")[0]}`;
    run.perRequestServer.set(name, [...(run.perRequestServer.get(name) ?? []), line]);
  }
  run.perUser.push({
    cpu: cpuMs(server.child.pid!) - cpuBefore,
    total: timings.reduce((a, b) => a + b.ms, 0),
    span: waitingSpan(timings),
    longest: Math.max(...timings.map((t) => t.ms)),
    requests: timings.length,
    server: serverSide(probed),
    header: headerTimes && {
      span: waitingSpan(headerTimes),
      total: headerTimes.reduce((a, t) => a + t.to - t.from, 0),
    },
  });
  for (const t of timings) {
    run.perRequest.set(t.name, [...(run.perRequest.get(t.name) ?? []), t.ms]);
  }
}

function studyReport(run: StudyRun, users: number, load: string): string[] {
  const { perUser, perRequest, perRequestServer } = run;
  const label = run.target.label;
  const dataDir = args["synthetic-dir"]!;
  const totals = perUser.map((u) => u.total);
  const median = (pick: (u: PageFigures) => number) => ms(pct(perUser.map(pick), 50));
  const serverSpans = perUser.map((u) => u.server.span);
  const headers = perUser.flatMap((u) => (u.header ? [u.header] : []));
  const spans = perUser.map((u) => u.span);
  const cpu = perUser.map((u) => u.cpu);
  return [
    `- **${label}** — the first Study page after a fresh sign-in, embedded PGlite holding the synthetic bank (${dataDir}, a copy of it for a baseline), ${users} users (those with the most reviews after one that warms the server), one after another, each on every build in turn (the order alternating; all the builds' servers running); Chromium at 375 px with the page's code cached, ${BROWSER_CORE === "none" ? "on any core" : `kept to core ${BROWSER_CORE} (the server is not pinned)`}; the page's /trpc and /api requests timed in the server (from Node's request event to the response's head, the same probe for both builds) and from the browser (request sent → first byte); the server's CPU time over the page from /proc (10 ms ticks); load ${load}`,
    "",
    `- Server CPU per page: mean ${ms(cpu.reduce((a, b) => a + b, 0) / cpu.length)} (the part of the time below that is the server's own work on this loaded machine)`,
    `- **Server time per page measured in the server (request-probe.mjs: request → answer ready; requests in progress at once counted once): median ${ms(pct(serverSpans, 50))}, worst ${ms(Math.max(...serverSpans))} — goal ≤ 150 ms ${pct(serverSpans, 50) <= 150 ? "met (median)" : "NOT met"}**; summed over the requests: median ${median((u) => u.server.total)}, of which the server's main thread was on a core ${median((u) => u.server.cpu)} and waiting for one (runnable, the cores busy) ${median((u) => u.server.runq)}`,
    headers.length === perUser.length
      ? `- The product's own Server-Timing header (app;dur, decision 424), read by the page: union median ${ms(
          pct(
            headers.map((h) => h.span),
            50,
          ),
        )}, sum median ${ms(
          pct(
            headers.map((h) => h.total),
            50,
          ),
        )}`
      : `- The product's own Server-Timing header: absent (a build before decision 424)`,
    `- Server time per page measured from the browser (request sent → first byte: the server's time plus loopback), counted once: median ${ms(pct(spans, 50))}, worst ${ms(Math.max(...spans))}`,
    `- The same from the browser summed over its requests (overlaps counted twice): median ${ms(pct(totals, 50))}, worst ${ms(Math.max(...totals))}; longest single request median ${ms(
      pct(
        perUser.map((u) => u.longest),
        50,
      ),
    )}; ${perUser[0]?.requests ?? 0} requests a page`,
    "",
    "| request | n (browser/server) | browser median | browser max | server median | server max | on a core median | waiting for a core median |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    // Every request either side saw: one the browser did not report is shown with "—" there.
    ...[...new Set([...perRequest.keys(), ...perRequestServer.keys()])].map((name) => {
      const t = perRequest.get(name) ?? [];
      const probed = perRequestServer.get(name) ?? [];
      const of = (pick: (l: ProbeLine) => number | null) =>
        probed.map(pick).filter((v): v is number => v !== null);
      const col = (values: number[], f: (v: number[]) => number) =>
        values.length > 0 ? ms(f(values)) : "—";
      const wall = of((l) => l.ready - l.start);
      return `| ${name} | ${t.length}/${probed.length} | ${col(t, (v) => pct(v, 50))} | ${col(t, (v) => Math.max(...v))} | ${col(wall, (v) => pct(v, 50))} | ${col(wall, (v) => Math.max(...v))} | ${col(
        of((l) => l.cpu),
        (v) => pct(v, 50),
      )} | ${col(
        of((l) => l.runq),
        (v) => pct(v, 50),
      )} |`;
    }),
    "",
  ];
}

/** One line of request-probe.mjs. */
interface ProbeLine {
  method: string;
  url: string;
  start: number;
  ready: number;
  cpu: number | null;
  runq: number | null;
}

interface ServerSide {
  span: number;
  total: number;
  cpu: number;
  runq: number;
}

function readProbe(file: string): ProbeLine[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ProbeLine);
}

/** A page's requests as the server measured them: in progress at once counted once, and summed. */
function serverSide(lines: readonly ProbeLine[]): ServerSide {
  const sum = (pick: (l: ProbeLine) => number) => lines.reduce((a, l) => a + pick(l), 0);
  return {
    span: waitingSpan(lines.map((l) => ({ from: l.start, to: l.ready }))),
    total: sum((l) => l.ready - l.start),
    cpu: sum((l) => l.cpu ?? 0),
    runq: sum((l) => l.runq ?? 0),
  };
}

/**
 * In the page: its /trpc and /api requests' Server-Timing `app` durations, each placed to end at its
 * first byte (the server's answer was ready just before); null when a request has none (a build
 * before decision 424).
 */
function serverTimingOfPage(): { from: number; to: number }[] | null {
  // The page's own performance (the DOM's types), not Node's.
  const entries = (
    performance.getEntriesByType("resource") as unknown as PerformanceResourceTiming[]
  ).filter((e) => /^\/(trpc|api)\//.test(new URL(e.name).pathname));
  const intervals: { from: number; to: number }[] = [];
  for (const e of entries) {
    const app = e.serverTiming.find((t) => t.name === "app");
    if (!app) return null;
    intervals.push({ from: e.responseStart - app.duration, to: e.responseStart });
  }
  return intervals;
}

/** How long at least one request was waiting for its first byte: the union of the intervals. */
function waitingSpan(timings: readonly { from: number; to: number }[]): number {
  const sorted = [...timings].sort((a, b) => a.from - b.from);
  let span = 0;
  let end = -Infinity;
  for (const t of sorted) {
    if (t.to <= end) continue;
    span += t.to - Math.max(t.from, end);
    end = t.to;
  }
  return span;
}

async function main() {
  const cpu = os.cpus();
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], {
    cwd: ROOT,
    encoding: "utf8",
  }).stdout.trim();
  const lines = [
    "",
    `## Cold paths (bench/cold-paths-bench.ts) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}, shared with other work (the load column: the figures are pessimistic); commit ${commit}; the built server`,
  ];
  const targets: Target[] = [];
  if (args.baseline) {
    const ref = spawnSync("git", ["rev-parse", "--short", args.baseline], {
      cwd: ROOT,
      encoding: "utf8",
    }).stdout.trim();
    targets.push({ label: `baseline ${args.baseline} (${ref})`, root: buildRef(args.baseline) });
  }
  targets.push({ label: "this tree", root: ROOT });
  try {
    if (!args["skip-signin"]) await signIn(lines, targets);
    if (!args["skip-study"]) await firstStudyPage(lines, targets);
  } finally {
    for (const t of targets)
      if (t.root !== ROOT) fs.rmSync(t.root, { recursive: true, force: true });
  }
  console.log(lines.join("\n"));
  if (!args["no-record"])
    fs.appendFileSync(path.join(ROOT, "bench", "RESULTS.md"), lines.join("\n"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
