/**
 * Issue 34: computing the plan and forecast (`study.plan`, plan.service.ts `getPlan`) for a user with
 * 10,000 questions, 8,000 of them studied (FSRS states due over the next 120 days), 2,000 unseen,
 * with an exam date 120 days out. Goal ≤ 100 ms on the server. Also times the load balancer's
 * per-day due counts for a 30-day window (study-writer `dueLoads`) and shows its query plan.
 *
 *   npx tsx bench/study-plan-bench.ts                     # PGlite (in memory)
 *   TEST_DATABASE_URL=postgres://… npx tsx bench/study-plan-bench.ts   # PostgreSQL (a fresh database)
 */
import { sql } from "drizzle-orm";
import { CATEGORIES } from "../src/core/constants";
import { questions, studyStates, users } from "../src/server/db/schema";
import { eq } from "drizzle-orm";
import { rowsOf } from "../src/server/db/migrate";
import { getPlan } from "../src/server/features/study/plan.service";
import { dueLoads } from "../src/server/features/study/review-placement";
import { registerUser } from "../src/server/features/auth/auth.service";
import { createTestDb } from "../src/server/test/db";

const DAY = 86_400_000;
const NOW = new Date("2027-01-04T15:00:00Z");
const TOTAL = 10_000;
const STUDIED = 8_000;
const RUNS = 15;

const h = await createTestDb();
const db = h.db;
const reg = await registerUser(
  db,
  {
    username: `planbench${Date.now()}`,
    email: `planbench${Date.now()}@example.test`,
    password: "correct horse battery",
    confirmPassword: "correct horse battery",
    pgyLevel: "2",
  },
  { now: new Date(), timeZone: "UTC" },
);
const userId = reg.user.id;
await db
  .update(users)
  .set({ scheduler: "fsrs", examDate: "2027-05-04", timeZone: "America/Chicago" })
  .where(eq(users.id, userId));
let seq = 0;
for (let start = 0; start < TOTAL; start += 1000) {
  const rows = Array.from({ length: 1000 }, () => {
    seq += 1;
    return {
      creatorId: userId,
      text: `Bench question ${seq}`,
      options: { A: "a", B: "b", C: "c", D: "d", E: "e" },
      correctAnswer: "B",
      correctAnswers: ["B"],
      numCorrectAnswers: 1,
      questionType: "standard",
      category: CATEGORIES[seq % 12]!,
      part: "1",
      year: 2024,
      number: seq,
    };
  });
  const inserted = await db.insert(questions).values(rows).returning({ id: questions.id });
  const states = inserted
    .map((q, i) => ({ q, n: start + i }))
    .filter(({ n }) => n < STUDIED)
    .map(({ q, n }) => ({
      userId,
      questionId: q.id,
      easeFactor: 2.5,
      intervalDays: 1 + (n % 60),
      repetitions: 1 + (n % 6),
      lapses: 0,
      dueAt: new Date(NOW.getTime() + ((n * 7) % 120) * DAY - 3 * DAY),
      lastReviewedAt: new Date(NOW.getTime() - (1 + (n % 60)) * DAY),
      stability: 1 + (n % 200),
      fsrsDifficulty: 1 + (n % 9),
    }));
  if (states.length > 0) await db.insert(studyStates).values(states);
}
await db.execute(sql`ANALYZE study_states`);
await db.execute(sql`ANALYZE questions`);

async function time(label: string, fn: () => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const median = ms[Math.floor(ms.length / 2)]!;
  console.log(
    `${label}: median ${median.toFixed(1)} ms, best ${ms[0]!.toFixed(1)} ms, worst ${ms.at(-1)!.toFixed(1)} ms (${RUNS} runs, first included)`,
  );
  return median;
}

const engine = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";
console.log(`${engine}: ${TOTAL} questions, ${STUDIED} studied, exam 120 days out`);
const plan = await getPlan(db, userId, NOW);
console.log(
  `forecast days ${plan.days.length}, pace ${plan.pace.perDay}/day, categories ${Object.keys(plan.recallByCategory).length}`,
);
await time("study.plan (getPlan)", () => getPlan(db, userId, NOW));
const window = { from: NOW, to: new Date(NOW.getTime() + 30 * DAY) };
await time("dueLoads, 30-day window", () => dueLoads(db, userId, window, "America/Chicago", null));
const explain = rowsOf<Record<string, string>>(
  await db.execute(sql`EXPLAIN SELECT to_char(due_at AT TIME ZONE 'America/Chicago', 'YYYY-MM-DD'), count(*)
    FROM study_states WHERE user_id = ${userId} AND due_at >= ${window.from.toISOString()}::timestamptz
    AND due_at < ${window.to.toISOString()}::timestamptz GROUP BY 1`),
);
console.log(explain.map((r) => Object.values(r)[0]).join("\n"));
await h.close();
