/**
 * Practice and mock exams (issue 16 item 8): on the 50,000-question synthetic bank, the time to create
 * a balanced 150-question exam (goal ≤ 150 ms), and a 200-taker item analysis of a 150-question mock
 * exam (goal ≤ 500 ms), through the service functions behind exams.create and exams.mockResults, on
 * PostgreSQL and on embedded PGlite.
 *
 *   npx tsx bench/exams-bench.ts [--url postgres://…] [--engine both|postgres|pglite] [--runs 30] [--no-record]
 *
 * PostgreSQL: the database `prite_bench_exams` on the server of --url (default BENCH_DATABASE_URL,
 * then postgres://postgres@127.0.0.1:5432/postgres) is made afresh. PGlite: a temporary folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { and, eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { createDb, type DbHandle } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import { queryRows } from "../src/server/db/raw";
import { exams } from "../src/server/db/schema";
import { createExam } from "../src/server/features/exams/exam-create.service";
import { deleteExam } from "../src/server/features/exams/exams.service";
import {
  joinMockExam,
  mockResults,
  shareExam,
} from "../src/server/features/exams/mock-exams.service";
import { seedSynthetic } from "../src/server/features/seed/synthetic";

const DB_NAME = "prite_bench_exams";
const QUESTIONS = 50_000;
const TAKERS = 200;
const GOAL_CREATE_MS = 150;
const GOAL_ANALYSIS_MS = 500;

const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    engine: { type: "string", default: "both" },
    runs: { type: "string", default: "30" },
    "no-record": { type: "boolean", default: false },
  },
});
const baseUrl =
  args.url ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const runs = Number(args.runs);

function dbUrl(name: string): string {
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)]!;
}

async function timed<T>(n: number, fn: (i: number) => Promise<T>) {
  for (let i = 0; i < Math.min(5, n); i++) await fn(i); // warm-up: plans and caches
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), max: samples.at(-1)! };
}

interface EngineResult {
  engine: string;
  visible: number;
  create: { p50: number; p95: number; max: number };
  analysis: { p50: number; p95: number; max: number };
  seedSeconds: number;
}

async function measure(engine: string, handle: DbHandle): Promise<EngineResult> {
  const db = handle.db;
  await runMigrations(handle);
  const t0 = performance.now();
  await seedSynthetic(db, {
    users: 300,
    questions: QUESTIONS,
    reviews: 50_000,
    now: new Date(),
    prefix: `eb${Date.now().toString(36)}`,
  });
  if (engine === "PostgreSQL") await db.execute(sql`vacuum analyze`);
  const seedSeconds = (performance.now() - t0) / 1000;

  const people = await queryRows<{ id: string }>(db, sql`select id from users order by id`);
  const chief = people[0]!.id;
  const [visible] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from questions where is_public or creator_id = ${chief}`,
  );

  // (a) A balanced 150-question exam from every category, all of the chief's visible questions.
  const create = await timed(runs, async () => {
    const { exam } = await createExam(db, {
      userId: chief,
      now: new Date(),
      settings: {
        size: 150,
        part: "both",
        categories: [],
        pool: "all",
        mode: "timed",
        secondsPerQuestion: 90,
      },
    });
    await deleteExam(db, { userId: chief, examId: exam.id });
  });

  // (b) A 150-question mock exam taken by 200 residents, answers written in bulk.
  const { exam: draft } = await createExam(db, {
    userId: chief,
    now: new Date(),
    settings: {
      size: 150,
      part: "both",
      categories: [],
      pool: "all",
      mode: "timed",
      secondsPerQuestion: 90,
    },
  });
  const shared = await shareExam(db, { userId: chief, examId: draft.id, now: new Date() });
  const code = shared.mockExam.code;
  for (const taker of people.slice(1, TAKERS + 1)) {
    await joinMockExam(db, { userId: taker.id, code, now: new Date() });
  }
  const mockId = shared.mockExam.id;
  // Each taker answers every question: right about 60% of the time, else a random other letter.
  await db.execute(sql`
    insert into exam_answers (exam_id, question_id, user_id, selected, is_correct, category, time_spent_ms, answered_at)
    select e.id, eq.question_id, e.user_id,
           case when random() < 0.6 then array[q.correct_answer] else array[(array['A','B','C','D','E'])[1 + floor(random() * 5)::int]] end,
           false, q.category, (20000 + random() * 100000)::int, now()
    from exams e
    join exam_questions eq on eq.exam_id = e.id
    join questions q on q.id = eq.question_id
    where e.mock_exam_id = ${mockId}
    on conflict do nothing`);
  await db.execute(sql`
    update exam_answers a set is_correct = (a.selected = array[q.correct_answer])
    from questions q, exams e
    where q.id = a.question_id and e.id = a.exam_id and e.mock_exam_id = ${mockId}`);
  await db.execute(sql`
    update exams e set status = 'submitted', submitted_at = now(),
      correct_count = (select count(*) from exam_answers a where a.exam_id = e.id and a.is_correct)::int
    where e.mock_exam_id = ${mockId} and e.user_id <> ${chief}`);
  const [takers] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(exams)
    .where(and(eq(exams.mockExamId, mockId), eq(exams.status, "submitted")));
  if ((takers?.n ?? 0) < TAKERS) throw new Error(`only ${takers?.n} takers`);
  const viewer = { id: chief, isAdmin: false };
  const analysis = await timed(Math.max(10, Math.round(runs / 2)), async () => {
    const results = await mockResults(db, { viewer, code });
    if (results.items.length !== 150) throw new Error("item analysis incomplete");
  });
  return { engine, visible: visible!.n, create, analysis, seedSeconds };
}

async function main() {
  const results: EngineResult[] = [];
  if (args.engine !== "pglite") {
    const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${DB_NAME}" with (force)`);
    await admin.unsafe(`create database "${DB_NAME}"`);
    await admin.end();
    const handle = await createDb({ databaseUrl: dbUrl(DB_NAME), maxConnections: 4 });
    try {
      results.push(await measure("PostgreSQL", handle));
    } finally {
      await handle.close();
    }
  }
  if (args.engine !== "postgres") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-exams-bench-"));
    const handle = await createDb({ dataDir: dir });
    try {
      results.push(await measure("PGlite", handle));
    } finally {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const f = (n: number) => `${n.toFixed(1)} ms`;
  const cpu = os.cpus();
  const lines = [
    "",
    `## Exams (bench/exams-bench.ts, issue 16 item 8) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, load average ${os.loadavg()[0]!.toFixed(1)}; ${QUESTIONS.toLocaleString("en-US")}-question synthetic bank (20% public, 300 users), ${runs} runs after 5 warm-up`,
    "",
    "| engine | questions visible to the creator | create 150 (p50 / p95) | goal ≤ 150 ms | 200-taker item analysis (p50 / p95) | goal ≤ 500 ms |",
    "| --- | --- | --- | --- | --- | --- |",
    ...results.map(
      (r) =>
        `| ${r.engine} | ${r.visible.toLocaleString("en-US")} | ${f(r.create.p50)} / ${f(r.create.p95)} | ${r.create.p95 <= GOAL_CREATE_MS ? "met" : "not met"} | ${f(r.analysis.p50)} / ${f(r.analysis.p95)} | ${r.analysis.p95 <= GOAL_ANALYSIS_MS ? "met" : "not met"} |`,
    ),
    "",
    "Saving an answer under 50 connections (≥ 1,000 req/s, p99 ≤ 100 ms): bench/api-load.ts.",
  ];
  console.log(lines.join("\n"));
  if (!args["no-record"]) {
    fs.appendFileSync(path.join(import.meta.dirname, "RESULTS.md"), lines.join("\n") + "\n");
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
