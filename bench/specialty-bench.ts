/**
 * At the size of the specialty (issue 35 item 3): the due page, an answer, search, the director's
 * dashboard and the rankings on PostgreSQL, p99 at the synthetic bank's size (1,000 users, 50,000
 * questions, 500,000 reviews, 40 programs of 25) against US psychiatry's (7,000 users, 200,000
 * questions, 5,000,000 reviews, 270 programs of 25), under the same load; goal: each within 1.5×.
 *
 * Each size is a database `prite_specialty_<questions>` made by `prite seed --synthetic` (timed: the
 * seed's goal is ≤ 10 minutes at the larger size) and then `vacuum analyze`d; it is reused by later
 * runs (`--reseed` makes it again). The built server (`npm run build`) runs against it. Per size:
 *   - due page: `GET /api/questions/due?limit=20`, each of `--users` residents once (never a kept page);
 *   - answer: `study.answer` on each of those residents' first due question, once;
 *   - search: `GET /api/questions/search?text=lithium toxicity`, `--requests` times, residents in turn;
 *   - dashboard: `programReport.report`, `--requests` times, the first 40 programs' directors in turn;
 *   - rankings: `stats.comparative`, `--requests` times, residents in turn;
 * each by `--connections` connections at a time after `--warmup` requests of other users. Answers
 * change a few hundred study states of millions: the next run's figures are of the same database.
 *
 *   npx tsx bench/specialty-bench.ts [--sizes 50000,200000] [--users 400] [--requests 800]
 *        [--connections 8] [--warmup 40] [--reseed] [--url postgres://…/postgres]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { createSession } from "../src/server/auth/session";
import { createDb } from "../src/server/db/client";
import { queryRows } from "../src/server/db/raw";
import { startBuiltServer } from "./built-server";

const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    sizes: { type: "string", default: "50000,200000" },
    users: { type: "string", default: "400" },
    requests: { type: "string", default: "800" },
    connections: { type: "string", default: "8" },
    warmup: { type: "string", default: "40" },
    port: { type: "string", default: "3993" },
    reseed: { type: "boolean", default: false },
  },
});
const ROOT = path.resolve(import.meta.dirname, "..");
const BASE_URL =
  args.url ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const USERS = Number(args.users);
const REQUESTS = Number(args.requests);
const CONNECTIONS = Number(args.connections);
const WARMUP = Number(args.warmup);
const DIRECTORS = 40;
const TIME_ZONE = "America/New_York";

/** The seed's sizes: the synthetic bank, and the specialty (issue 35 item 3). */
function seedSize(questions: number) {
  if (questions >= 200_000)
    return { users: 7000, questions, reviews: questions * 25, programs: 270 };
  return { users: Math.round(questions / 50), questions, reviews: questions * 10, programs: 40 };
}

function dbUrl(name: string): string {
  const u = new URL(BASE_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

interface Seeded {
  seconds: number | null;
  bytes: number;
}

/** The size's database, seeded by the CLI unless it is there already (its seed time then unknown). */
async function database(questions: number): Promise<Seeded> {
  const name = `prite_specialty_${questions}`;
  const marker = path.join(os.tmpdir(), `${name}.json`);
  const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
  try {
    const exists = (await admin`select 1 from pg_database where datname = ${name}`).length > 0;
    if (!exists || args.reseed || !fs.existsSync(marker)) {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.unsafe(`create database "${name}"`);
      const size = seedSize(questions);
      console.log(`seeding ${name}: ${JSON.stringify(size)} (load ${loadavg()}) …`);
      const t0 = performance.now();
      const seeded = spawnSync(
        process.execPath,
        [
          path.join(ROOT, "bin", "prite.mjs"),
          "seed",
          "--synthetic",
          ...["--users", String(size.users), "--questions", String(size.questions)],
          ...["--reviews", String(size.reviews), "--programs", String(size.programs)],
          ...["--residents-per-program", "25"],
        ],
        { cwd: ROOT, env: { ...process.env, DATABASE_URL: dbUrl(name) }, encoding: "utf8" },
      );
      if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}${seeded.stdout}`);
      const seconds = (performance.now() - t0) / 1000;
      console.log(seeded.stdout.trim());
      const db = postgres(dbUrl(name), { max: 1, onnotice: () => {} });
      await db.unsafe("vacuum analyze");
      await db.end();
      fs.writeFileSync(marker, JSON.stringify({ seconds, load: loadavg() }));
    }
    const [row] = await admin<{ bytes: string }[]>`select pg_database_size(${name}) as bytes`;
    const { seconds } = JSON.parse(fs.readFileSync(marker, "utf8")) as { seconds: number };
    return { seconds, bytes: Number(row!.bytes) };
  } finally {
    await admin.end();
  }
}

interface People {
  residents: string[];
  directors: string[];
}

/** Sessions for residents with due states (the ones the load takes) and the first programs' directors. */
async function signIn(name: string, count: number): Promise<People> {
  const handle = await createDb({ databaseUrl: dbUrl(name), maxConnections: 2 });
  try {
    const token = async (id: string) => (await createSession(handle.db, id, new Date())).token;
    const residents = await queryRows<{ id: string }>(
      handle.db,
      sql`select u.id from users u
          where u.program_role = 'resident'
            and exists (select 1 from study_states s where s.user_id = u.id and s.available)
          order by u.username limit ${count}`,
    );
    const directors = await queryRows<{ id: string }>(
      handle.db,
      sql`select u.id from users u join programs p on p.id = u.program_id
          where u.program_role = 'director' order by p.name limit ${DIRECTORS}`,
    );
    const out: People = { residents: [], directors: [] };
    for (const r of residents) out.residents.push(await token(r.id));
    for (const r of directors) out.directors.push(await token(r.id));
    return out;
  } finally {
    await handle.close();
  }
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

function p(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

interface Figures {
  p50: number;
  p99: number;
  n: number;
  errors: number;
}

/** `n` calls of `once(i)`, `CONNECTIONS` at a time; the time of each. */
async function measure(n: number, once: (i: number) => Promise<boolean>): Promise<Figures> {
  const times: number[] = [];
  let next = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let i = next++; i < n; i = next++) {
        const t = performance.now();
        if (!(await once(i))) errors++;
        times.push(performance.now() - t);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { p50: p(times, 0.5), p99: p(times, 0.99), n, errors };
}

type Op = "due page" | "answer" | "search" | "dashboard" | "rankings";
const OPS: Op[] = ["due page", "answer", "search", "dashboard", "rankings"];

async function runSize(questions: number) {
  const name = `prite_specialty_${questions}`;
  const seeded = await database(questions);
  const people = await signIn(name, USERS + WARMUP);
  if (people.residents.length < USERS + WARMUP || people.directors.length === 0)
    throw new Error(`${name}: too few residents or directors`);
  const server = await startBuiltServer({
    root: ROOT,
    port: Number(args.port),
    env: { DATABASE_URL: dbUrl(name), DATA_DIR: "", NODE_ENV: "production" },
    label: name,
  });
  const loadBefore = loadavg();
  const get = async (url: string, token: string) => {
    const res = await fetch(`${server.base}${url}`, {
      headers: { "x-auth-token": token, "x-time-zone": TIME_ZONE },
    });
    return { ok: res.ok, body: await res.text() };
  };
  const trpcGet = (procedure: string, token: string, input: unknown = undefined) =>
    get(
      `/trpc/${procedure}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
      token,
    );
  const answer = async (token: string, questionId: string | undefined) => {
    if (!questionId) return false;
    const res = await fetch(`${server.base}/trpc/study.answer`, {
      method: "POST",
      headers: {
        "x-auth-token": token,
        "x-time-zone": TIME_ZONE,
        "content-type": "application/json",
      },
      body: JSON.stringify({ questionId, selected: ["A"], timeSpentMs: 5000 }),
    });
    await res.text();
    return res.ok;
  };
  const first = new Map<string, string>();
  const due = async (token: string) => {
    const r = await get("/api/questions/due?limit=20", token);
    const [q] = r.ok ? (JSON.parse(r.body) as { _id: string }[]) : [];
    if (q) first.set(token, q._id);
    return r.ok;
  };
  const warm = people.residents.slice(USERS);
  const residents = people.residents.slice(0, USERS);
  const search = "/api/questions/search?text=lithium%20toxicity";
  const results = {} as Record<Op, Figures>;
  try {
    for (const t of warm) await due(t);
    for (const t of warm) await answer(t, first.get(t));
    for (const t of warm) await get(search, t);
    for (const t of people.directors) await trpcGet("programReport.report", t);
    for (const t of warm) await trpcGet("stats.comparative", t);

    results["due page"] = await measure(residents.length, (i) => due(residents[i]!));
    results.answer = await measure(residents.length, (i) =>
      answer(residents[i]!, first.get(residents[i]!)),
    );
    results.search = await measure(REQUESTS, async (i) => {
      return (await get(search, residents[i % residents.length]!)).ok;
    });
    results.dashboard = await measure(REQUESTS, async (i) => {
      const token = people.directors[i % people.directors.length]!;
      return (await trpcGet("programReport.report", token)).ok;
    });
    results.rankings = await measure(REQUESTS, async (i) => {
      return (await trpcGet("stats.comparative", residents[i % residents.length]!)).ok;
    });
  } finally {
    await server.stop();
  }
  return { questions, seeded, results, load: `${loadBefore} → ${loadavg()}` };
}

async function main() {
  const sizes = args.sizes!.split(",").map(Number);
  const runs = [];
  for (const questions of sizes) {
    const run = await runSize(questions);
    console.log(JSON.stringify(run));
    runs.push(run);
  }
  const [small, large] = runs;
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], {
    cwd: ROOT,
    encoding: "utf8",
  }).stdout.trim();
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const gb = (b: number) => `${(b / 2 ** 30).toFixed(2)} GiB`;
  const lines = [
    "",
    `### Specialty size on PostgreSQL, ${new Date().toISOString().slice(0, 10)} (commit ${commit}, ${os.cpus().length} cores)`,
    "",
    `- Same load at each size: ${CONNECTIONS} connections; due page and answer: ${USERS} residents once each (never a kept page); search, dashboard (the first ${DIRECTORS} programs' directors in turn), rankings: ${REQUESTS} requests, residents in turn; ${WARMUP} other residents' requests first.`,
    ...runs.map(
      (r) =>
        `- ${r.questions.toLocaleString("en-US")} questions (${JSON.stringify(seedSize(r.questions))}): seed ${r.seeded.seconds === null ? "reused" : `${r.seeded.seconds.toFixed(0)} s`}, database ${gb(r.seeded.bytes)} (pg_database_size), load average during the run ${r.load}`,
    ),
    "",
  ];
  if (small && large) {
    lines.push(
      `| path | p99 at ${small.questions.toLocaleString("en-US")} (p50) | p99 at ${large.questions.toLocaleString("en-US")} (p50) | ratio | goal ≤ 1.5× |`,
      "|---|---|---|---|---|",
    );
    for (const op of OPS) {
      const a = small.results[op];
      const b = large.results[op];
      const ratio = b.p99 / a.p99;
      const errs = a.errors + b.errors > 0 ? ` (errors ${a.errors}/${b.errors})` : "";
      lines.push(
        `| ${op} | ${ms(a.p99)} (${ms(a.p50)}) | ${ms(b.p99)} (${ms(b.p50)}) | ${ratio.toFixed(2)}×${errs} | ${ratio <= 1.5 ? "yes" : "**no**"} |`,
      );
    }
  }
  console.log(lines.join("\n"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
