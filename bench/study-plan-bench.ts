/**
 * Issue 34: computing the plan and forecast (`study.plan`, plan.service.ts `getPlan`) for a user with
 * 10,000 questions, 8,000 of them studied (FSRS states due over the next 120 days), 2,000 unseen,
 * with an exam date 120 days out. Goal ≤ 100 ms on the server. Also times the load balancer's
 * per-day due counts for a 30-day window (study-writer `dueLoads`) and shows its query plan.
 *
 * Decision 395: also times getPlan's parts (the aggregated card read, the unseen counts, the pure
 * forecast) and, as the same run's baseline, the per-row card read getPlan made before it (and the
 * whole plan computed with it), after checking that both reads give the same cards in the same order.
 * Calls alternate between the two, so both see the same load; the load average is printed. Last,
 * getPlan with its reads kept between requests (decision 396, the server's default), after a first
 * call that fills the cache; the figures before it are every call reading the database.
 *
 *   npx tsx bench/study-plan-bench.ts [--runs 30]         # PGlite (in memory)
 *   TEST_DATABASE_URL=postgres://… npx tsx bench/study-plan-bench.ts   # PostgreSQL (a fresh database)
 */
import os from "node:os";
import { isDeepStrictEqual } from "node:util";
import { eq, sql } from "drizzle-orm";
import { CATEGORIES } from "../src/core/constants";
import { examPace } from "../src/core/srs/exam-plan";
import { forecast, type ForecastCard } from "../src/core/srs/forecast";
import { memoryFromSm2 } from "../src/core/srs/fsrs";
import { localDayKey } from "../src/core/stats/days";
import { questions, studyStates, users } from "../src/server/db/schema";
import { rowsOf } from "../src/server/db/migrate";
import { studiedCards } from "../src/server/features/study/plan-cards";
import { getPlan, unseenByCategory } from "../src/server/features/study/plan.service";
import { enablePlanReadCache } from "../src/server/features/study/plan-read-cache";
import { schedulerSettings } from "../src/server/features/study/study-writer.service";
import { dueLoads } from "../src/server/features/study/review-placement";
import { registerUser } from "../src/server/features/auth/auth.service";
import { createTestDb } from "../src/server/test/db";

const DAY = 86_400_000;
const NOW = new Date("2027-01-04T15:00:00Z");
const TOTAL = 10_000;
const STUDIED = 8_000;
const runsAt = process.argv.indexOf("--runs");
const RUNS = runsAt > 0 ? Math.max(1, Number(process.argv[runsAt + 1]) || 30) : 30;

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

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

function report(label: string, ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(
    `${label}: median ${median.toFixed(1)} ms, best ${sorted[0]!.toFixed(1)} ms, worst ${sorted.at(-1)!.toFixed(1)} ms (${ms.length} runs, first included)`,
  );
  return median;
}

async function time(label: string, fn: () => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return report(label, ms);
}

/** Several timed functions called in turn, RUNS rounds, so that each sees the same load. */
async function alternate(fns: Record<string, () => Promise<unknown>>) {
  const ms: Record<string, number[]> = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const [k, fn] of Object.entries(fns)) {
      const t = performance.now();
      await fn();
      ms[k]!.push(performance.now() - t);
    }
  }
  for (const [k, v] of Object.entries(ms)) report(k, v);
}

/** getPlan's card read before decision 395: one row per state, mapped in Node. */
async function perRowCards(): Promise<ForecastCard[]> {
  const rows = await db
    .select({
      category: questions.category,
      dueAt: studyStates.dueAt,
      lastReviewedAt: studyStates.lastReviewedAt,
      stability: studyStates.stability,
      difficulty: studyStates.fsrsDifficulty,
      intervalDays: studyStates.intervalDays,
      easeFactor: studyStates.easeFactor,
    })
    .from(studyStates)
    .innerJoin(questions, eq(questions.id, studyStates.questionId))
    .where(eq(studyStates.userId, userId));
  return rows.map((r) => {
    const memory =
      r.stability != null && r.difficulty != null
        ? { stability: r.stability, difficulty: r.difficulty }
        : memoryFromSm2({ ...r, repetitions: 0, lapses: 0 });
    return {
      category: r.category,
      dueAt: r.dueAt?.getTime() ?? null,
      lastReviewedAt: r.lastReviewedAt?.getTime() ?? null,
      stability: memory.stability,
      difficulty: memory.difficulty,
    };
  });
}

const ZONE = "America/Chicago";
const EXAM = "2027-05-04";
/** The whole plan as getPlan computed it before decision 395 (its settings reads included). */
async function previousPlan() {
  const settings = await schedulerSettings(db, userId);
  await db.select().from(users).where(eq(users.id, userId));
  const [cards, unseen] = await Promise.all([perRowCards(), unseenByCategory(db, userId, [])]);
  const total = Object.values(unseen).reduce((a, b) => a + b, 0);
  const today = localDayKey(NOW, ZONE);
  const { newPerDay, maxNewPerDay, examTargetRetention } = plan.settings;
  const pace = examPace({ unseen: total, today, examDate: EXAM, newPerDay, maxNewPerDay });
  return forecast({
    now: NOW,
    timeZone: ZONE,
    cards,
    unseenByCategory: unseen,
    pace: pace.perDay,
    examDate: EXAM,
    targetRetention: examTargetRetention,
    settings,
  });
}

const engine = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";
console.log(`${engine}: ${TOTAL} questions, ${STUDIED} studied, exam 120 days out`);
const plan = await getPlan(db, userId, NOW);
console.log(
  `forecast days ${plan.days.length}, pace ${plan.pace.perDay}/day, categories ${Object.keys(plan.recallByCategory).length}`,
);
const [aggregated, perRow] = [await studiedCards(db, userId, []), await perRowCards()];
if (!isDeepStrictEqual(aggregated, perRow)) throw new Error("the two card reads differ");
const previous = await previousPlan();
const { days, recallByCategory, shareSeen, shareSeenByExam } = plan;
if (
  !isDeepStrictEqual(
    { days, recallByCategory, shareSeen, shareSeenByExam },
    {
      days: previous.days,
      recallByCategory: previous.recallByCategory,
      shareSeen: previous.shareSeen,
      shareSeenByExam: previous.shareSeenByExam,
    },
  )
) {
  throw new Error("the plan differs from the previous computation");
}
console.log(
  `cards: the aggregated and per-row reads agree (${aggregated.length}, same order); so does the plan`,
);
console.log(`load average before: ${load()}`);
await alternate({
  "study.plan (getPlan)": () => getPlan(db, userId, NOW),
  "previous study.plan (per-row read)": previousPlan,
});
console.log(`load average: ${load()}`);
const settings = await schedulerSettings(db, userId);
const unseen = await unseenByCategory(db, userId, []);
await alternate({
  "  studied cards, one aggregated row": () => studiedCards(db, userId, []),
  "  studied cards, per-row (before)": perRowCards,
  "  unseen per category": () => unseenByCategory(db, userId, []),
  "  forecast (pure)": async () =>
    forecast({
      now: NOW,
      timeZone: ZONE,
      cards: aggregated,
      unseenByCategory: unseen,
      pace: plan.pace.perDay,
      examDate: EXAM,
      targetRetention: 0.9,
      settings,
    }),
});
// Decision 396: the reads kept between requests (the server's default); the first call fills it.
enablePlanReadCache(db);
await getPlan(db, userId, NOW);
await time("study.plan, reads kept (decision 396)", () => getPlan(db, userId, NOW));
console.log(`load average after: ${load()}`);
const window = { from: NOW, to: new Date(NOW.getTime() + 30 * DAY) };
await time("dueLoads, 30-day window", () => dueLoads(db, userId, window, "America/Chicago", null));
const explain = rowsOf<Record<string, string>>(
  await db.execute(sql`EXPLAIN SELECT to_char(due_at AT TIME ZONE 'America/Chicago', 'YYYY-MM-DD'), count(*)
    FROM study_states WHERE user_id = ${userId} AND due_at >= ${window.from.toISOString()}::timestamptz
    AND due_at < ${window.to.toISOString()}::timestamptz GROUP BY 1`),
);
console.log(explain.map((r) => Object.values(r)[0]).join("\n"));
await h.close();
