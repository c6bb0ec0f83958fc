/**
 * Question search benchmark (issue 3): seeds 100,000 questions on PostgreSQL and measures the latency of
 * `searchQuestions` — the service function behind questions.search and GET /api/questions/search — over
 * many queries of 3+ characters. Goal: p95 ≤ 50 ms.
 *
 *   npx tsx bench/search-bench.ts [--url postgres://…] [--questions 100000] [--runs 2000] [--fresh]
 *   npx tsx bench/search-bench.ts --db prite_bench_api_500000 [--runs 600] [--no-record]
 *
 * The database `prite_bench_search` on the server of --url (default: BENCH_DATABASE_URL, then
 * postgres://postgres@127.0.0.1:5432/postgres) is created, migrated and seeded once; later runs reuse it
 * unless --fresh is given. Figures are printed and appended to bench/RESULTS.md.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { count, eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { createDb } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import { queryRows } from "../src/server/db/raw";
import { questions, users } from "../src/server/db/schema";
import { searchQuestions } from "../src/server/features/questions/questions.service";
import type { TSearchQuestions } from "../src/server/features/questions/questions.types";
import { seedSynthetic } from "../src/server/features/seed/synthetic";

const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    questions: { type: "string", default: "100000" },
    users: { type: "string", default: "500" },
    public: { type: "string", default: "0.2" },
    runs: { type: "string", default: "2000" },
    fresh: { type: "boolean", default: false },
    "no-record": { type: "boolean", default: false },
    // Issue 20 item 6: the same query mix on another bench database as it stands (e.g. api-load's
    // 50,000 and 500,000-question banks), never seeded.
    db: { type: "string" },
  },
});

const DB_NAME = args.db ?? "prite_bench_search";
const GOAL_P95_MS = 50;

const baseUrl =
  args.url ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const questionTarget = Number(args.questions);
const runs = Number(args.runs);

function dbUrl(name: string): string {
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function ensureDatabase(): Promise<void> {
  const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
  try {
    // --db names a bank another bench seeded: never dropped here.
    if (args.fresh && !args.db) {
      await admin.unsafe(`drop database if exists "${DB_NAME}" with (force)`);
    }
    const exists = await admin`select 1 from pg_database where datname = ${DB_NAME}`;
    if (exists.length === 0) await admin.unsafe(`create database "${DB_NAME}"`);
  } finally {
    await admin.end();
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)]!;
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

/**
 * What residents type into a search box: single terms (common and rare, whole and partial words),
 * two-word searches, misses, and searches combined with the Part, Category and Visibility filters.
 * All at least 3 characters.
 */
function queryMix(): {
  kind: string;
  input: Omit<TSearchQuestions, "visibility"> & { visibility: TSearchQuestions["visibility"] };
}[] {
  const common = [
    "patient",
    "presents",
    "which",
    "diagnosis",
    "treatment",
    "history",
    "most likely",
  ];
  const terms = [
    "lithium",
    "clozapine",
    "agranulocytosis",
    "neuroleptic malignant",
    "serotonin",
    "catatonia",
    "buprenorphine",
    "naltrexone",
    "methylphenidate",
    "postpartum",
    "electroconvulsive",
    "dialectical",
    "transference",
    "hippocampus",
    "amygdala",
    "glutamate",
    "lamotrigine rash",
    "carbamazepine",
    "hyponatremia",
    "qtc prolongation",
    "metabolic",
    "neutropenia",
    "confidentiality",
    "duty to warn",
  ];
  const partial = ["cloza", "lamotri", "benzo", "hypoman", "psychos", "deliri", "dopam", "recept"];
  const rare = ["question 4242", "question 77777", "explanation for question 123", "12345"];
  const misses = ["xyzzy", "zolpidemx", "qqqq"];
  const out: ReturnType<typeof queryMix> = [];
  const add = (kind: string, text: string, extra: Partial<TSearchQuestions> = {}) =>
    out.push({ kind, input: { text, visibility: "all", ...extra } });
  for (const t of common) add("common word", t);
  for (const t of terms) add("clinical term", t);
  for (const t of partial) add("partial word", t);
  for (const t of rare) add("rare", t);
  for (const t of misses) add("no match", t);
  for (const t of terms.slice(0, 8)) add("term + part", t, { part: "2" });
  for (const t of terms.slice(8, 16)) add("term + category", t, { category: "Psychopharmacology" });
  for (const t of terms.slice(16)) add("term + mine", t, { visibility: "mine" });
  for (const t of terms.slice(0, 8)) add("term + public", t, { visibility: "public" });
  for (const t of terms.slice(4, 8)) add("term, page 3", t, { cursor: 3 });
  return out;
}

async function main() {
  await ensureDatabase();
  const handle = await createDb({ databaseUrl: dbUrl(DB_NAME), maxConnections: 2 });
  const db = handle.db;
  try {
    await runMigrations(handle);
    const [existing] = await db.select({ n: count() }).from(questions);
    let seedSeconds: number | null = null;
    if (!args.db && (existing?.n ?? 0) < questionTarget) {
      const started = performance.now();
      const seeded = await seedSynthetic(db, {
        users: Number(args.users),
        questions: questionTarget - (existing?.n ?? 0),
        reviews: 50_000,
        publicShare: Number(args.public),
        now: new Date(),
        prefix: `sb${Date.now().toString(36)}`,
      });
      // What autovacuum does soon after a load: flush the GIN pending list, set visibility, stats.
      await db.execute(sql`vacuum analyze questions`);
      seedSeconds = (performance.now() - started) / 1000;
      console.log(
        `Seeded ${seeded.questions} questions, ${seeded.users} users, ${seeded.reviews} reviews in ${seedSeconds.toFixed(1)} s`,
      );
    }
    const [totals] = await queryRows<{ questions: number; public: number; users: number }>(
      db,
      sql`select (select count(*) from questions)::int as questions,
                 (select count(*) from questions where is_public)::int as public,
                 (select count(*) from users)::int as users`,
    );
    const [version] = await queryRows<{ server_version: string }>(db, sql`show server_version`);

    // A typical viewer: owns about the average number of questions.
    const [viewer] = await db
      .select({ id: users.id, own: count(questions.id) })
      .from(users)
      .innerJoin(questions, eq(questions.creatorId, users.id))
      .groupBy(users.id)
      .orderBy(users.id)
      .limit(1);
    if (!viewer) throw new Error("no seeded users");

    const mix = queryMix();
    const run = async (i: number) => {
      const q = mix[i % mix.length]!;
      const t0 = performance.now();
      const page = await searchQuestions(db, viewer.id, q.input);
      return { kind: q.kind, ms: performance.now() - t0, total: page.total };
    };
    for (let i = 0; i < Math.min(200, runs); i++) await run(i); // warm-up: caches and plans
    const samples: { kind: string; ms: number; total: number }[] = [];
    for (let i = 0; i < runs; i++) samples.push(await run(i));

    const all = samples.map((s) => s.ms).sort((a, b) => a - b);
    const p50 = percentile(all, 50);
    const p95 = percentile(all, 95);
    const p99 = percentile(all, 99);
    const kinds = [...new Set(samples.map((s) => s.kind))].map((kind) => {
      const xs = samples.filter((s) => s.kind === kind);
      const sorted = xs.map((s) => s.ms).sort((a, b) => a - b);
      const avgTotal = Math.round(xs.reduce((a, s) => a + s.total, 0) / xs.length);
      return { kind, p50: percentile(sorted, 50), p95: percentile(sorted, 95), avgTotal };
    });

    const cpus = os.cpus();
    const load = os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(", ");
    const machine = `${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, ${os.platform()} ${os.release()}, Node ${process.version}`;
    const verdict = p95 <= GOAL_P95_MS ? "met" : "NOT met";
    const lines = [
      `## Question search (bench/search-bench.ts) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
      "",
      `- Machine: ${machine}; load average during the run ${load} (1, 5, 15 min)`,
      `- Database: PostgreSQL ${version?.server_version ?? "?"} (postgres.js, pool of 2), shared with other work on the machine`,
      `- Data: ${totals!.questions.toLocaleString("en-US")} questions (${totals!.public.toLocaleString("en-US")} public) by ${totals!.users} users; viewer owns ${viewer.own}` +
        (seedSeconds !== null ? `; seeded in ${seedSeconds.toFixed(1)} s` : ""),
      `- Method: \`searchQuestions\` (page of 20; total exact up to 500 per branch), ${mix.length} distinct queries of 3+ characters cycled over ${runs} runs after a 200-run warm-up, one at a time`,
      `- **Overall: p50 ${ms(p50)}, p95 ${ms(p95)}, p99 ${ms(p99)}, max ${ms(all[all.length - 1]!)} — goal p95 ≤ ${GOAL_P95_MS} ms ${verdict}**`,
      "",
      "| query kind | p50 | p95 | mean matches |",
      "|---|---|---|---|",
      ...kinds.map(
        (k) =>
          `| ${k.kind} | ${ms(k.p50)} | ${ms(k.p95)} | ${k.avgTotal.toLocaleString("en-US")} |`,
      ),
      "",
    ];
    const report = lines.join("\n");
    console.log(report);
    if (!args["no-record"]) {
      const file = path.join(process.cwd(), "bench", "RESULTS.md");
      const prefix = fs.existsSync(file) ? "\n" : "# Benchmark results\n\n";
      fs.appendFileSync(file, prefix + report);
      console.log(`Appended to ${file}`);
    }
  } finally {
    await handle.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
