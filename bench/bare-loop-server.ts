/**
 * The same-run ceiling for the study loop (issue 35 item 1): fastify and the database client with
 * nothing else — no session, no tRPC, no validation, no visibility check, no due counts — doing the
 * loop's SQL on the same tables (their triggers included): the first due row of a user, one
 * transaction inserting the review and marking the state pending, one transaction locking the state,
 * applying the user's scheduler (SM-2 or FSRS, src/core) and filling the review's difficulty.
 * bench/study-loop-bench.ts starts it next to the product server, on a copy of the same database.
 *
 *   DATABASE_URL=… PORT=… node --import tsx bench/bare-loop-server.ts      (PostgreSQL, postgres.js)
 *   DATA_DIR=… PORT=… node --import tsx bench/bare-loop-server.ts          (the embedded PGlite)
 *
 * The user is named by the `x-user` header; every statement is prepared.
 */
import path from "node:path";
import v8 from "node:v8";
import Fastify from "fastify";
import postgres from "postgres";
import type { Difficulty } from "../src/core/constants";
import { DEFAULT_FSRS_SETTINGS, type SchedulerSettings } from "../src/core/srs/fsrs";
import { rateState } from "../src/core/srs/schedule";
import type { StudyState } from "../src/core/srs";

type Run = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
interface Client {
  run: Run;
  tx<T>(fn: (run: Run) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function openClient(): Promise<Client> {
  if (process.env.DATABASE_URL) {
    // 10 connections, its best on 2 cores: its writes are transactions of several round trips each,
    // and with the product's 4 (decision 436) it ran 8-9% slower (bench/RESULTS.md, tenth session).
    const sql = postgres(process.env.DATABASE_URL, { max: 10, prepare: true, onnotice: () => {} });
    const runOn =
      (s: postgres.Sql): Run =>
      async (text, params) =>
        (await s.unsafe(text, params as never[], { prepare: true })) as unknown as Record<
          string,
          unknown
        >[];
    return {
      run: runOn(sql),
      tx: (fn) => sql.begin((s) => fn(runOn(s as unknown as postgres.Sql))) as never,
      close: () => sql.end({ timeout: 1 }),
    };
  }
  // As the product server runs PGlite (src/server/main.ts, decision 210): V8's baseline compiler only.
  if (!process.env.PGLITE_OPTIMIZE_WASM) v8.setFlagsFromString("--liftoff-only");
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const db = await PGlite.create({
    dataDir: path.join(process.env.DATA_DIR!, "pglite"),
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"],
  });
  return {
    run: async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows,
    tx: (fn) =>
      db.transaction((t) =>
        fn(async (text, params) => (await t.query(text, params)).rows as never),
      ),
    close: () => db.close(),
  };
}

const client = await openClient();
// Each user's scheduler, read once: the bare loop does not read the user row per request.
const settingsOf = new Map<string, SchedulerSettings>();
for (const u of await client.run("select id, scheduler from users", [])) {
  settingsOf.set(String(u.id), {
    ...DEFAULT_FSRS_SETTINGS,
    scheduler: u.scheduler === "fsrs" ? "fsrs" : "sm2",
  });
}

const app = Fastify({ logger: false });
const userOf = (req: { headers: Record<string, unknown> }) => String(req.headers["x-user"]);

app.get("/due", async (req) =>
  client.run(
    `select q.id, q.options, q.text, s.due_at
       from study_states s join questions q on q.id = s.question_id
      where s.user_id = $1 and s.available and not s.leech and (s.due_at is null or s.due_at <= now())
      order by s.due_at asc nulls first, s.question_id
      limit 1`,
    [userOf(req)],
  ),
);

app.post("/answer", async (req) => {
  const user = userOf(req);
  const { questionId, selected } = req.body as { questionId: string; selected: string[] };
  return client.tx(async (run) => {
    const [review] = await run(
      `insert into reviews (user_id, question_id, category, is_correct, selected, time_spent_ms, reviewed_at)
       select $1, q.id, q.category, q.correct_answer = ($3::text[])[1], $3::text[], 5000, now()
         from questions q where q.id = $2
       returning id, is_correct`,
      [user, questionId, `{${selected.join(",")}}`],
    );
    await run(
      `update study_states set pending_review_id = $3 where user_id = $1 and question_id = $2`,
      [user, questionId, review!.id],
    );
    return { isCorrect: review!.is_correct };
  });
});

app.post("/rate", async (req) => {
  const user = userOf(req);
  const { questionId, difficulty } = req.body as { questionId: string; difficulty: Difficulty };
  const settings = settingsOf.get(user)!;
  return client.tx(async (run) => {
    const [s] = await run(
      `select ease_factor, interval_days, repetitions, lapses, due_at, last_reviewed_at, stability,
              fsrs_difficulty, pending_review_id
         from study_states where user_id = $1 and question_id = $2 for update`,
      [user, questionId],
    );
    if (!s) return {};
    if (s.pending_review_id != null) {
      await run(`update reviews set difficulty = $2 where id = $1`, [
        s.pending_review_id,
        difficulty,
      ]);
    }
    const date = (v: unknown) => (v == null ? null : new Date(v as string));
    const before: StudyState = {
      easeFactor: Number(s.ease_factor),
      intervalDays: Number(s.interval_days),
      repetitions: Number(s.repetitions),
      lapses: Number(s.lapses),
      dueAt: date(s.due_at),
      lastReviewedAt: date(s.last_reviewed_at),
      stability: s.stability == null ? null : Number(s.stability),
      fsrsDifficulty: s.fsrs_difficulty == null ? null : Number(s.fsrs_difficulty),
    };
    const next = rateState(before, difficulty, new Date(), settings);
    await run(
      `update study_states set ease_factor = $3, interval_days = $4, repetitions = $5, lapses = $6,
              due_at = $7, last_reviewed_at = $8, stability = $9, fsrs_difficulty = $10,
              pending_review_id = null
        where user_id = $1 and question_id = $2`,
      [
        user,
        questionId,
        next.easeFactor,
        next.intervalDays,
        next.repetitions,
        next.lapses,
        next.dueAt?.toISOString() ?? null,
        next.lastReviewedAt?.toISOString() ?? null,
        next.stability ?? null,
        next.fsrsDifficulty ?? null,
      ],
    );
    return { dueAt: next.dueAt };
  });
});

await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
process.on("SIGTERM", () => {
  void app.close().then(() => client.close().then(() => process.exit(0)));
});
