/**
 * Issue 32 item 7: the program dashboard of a 40-resident program with a year of history, one request
 * at a time (goal ≤ 50 ms on both databases), and the hot paths (due page, study answer, search) before
 * and after programs are seeded on the same bank (goal: ≤ 10% change).
 *
 *   npx tsx bench/programs-bench.ts [--db both|postgres|pglite] [--url postgres://…/postgres]
 *        [--reviews-per-resident 1000] [--others 500] [--other-reviews 20000] [--runs 40]
 *
 * Bank, seeded afresh on each database (PGlite in memory, PostgreSQL database prite_bench_programs):
 * 40 synthetic users with `--reviews-per-resident` answers each over 365 days, and `--others` users with
 * `--other-reviews` answers over 90 days. The hot paths are measured on that bank without any program,
 * then `seedSyntheticPrograms` makes the 40 one program (a director and 39 residents) and the others
 * programs of 25, and they are measured again in the same run. Prints a Markdown table.
 */
import { parseArgs } from "node:util";
import postgres from "postgres";
import { sql } from "drizzle-orm";
import { createSession } from "../src/server/auth/session";
import { createDb, type DbHandle } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import { queryRows } from "../src/server/db/raw";
import type { UserRow } from "../src/server/db/schema";
import { users } from "../src/server/db/schema";
import { programReport } from "../src/server/features/programs/program-report.service";
import { seedSynthetic } from "../src/server/features/seed/synthetic";
import { seedSyntheticPrograms } from "../src/server/features/seed/synthetic-programs";
import { enableStatsCaches } from "../src/server/features/stats/stats-caches";
import { createContextInner } from "../src/server/trpc/context";
import { createCaller } from "../src/server/trpc/router";
import { eq } from "drizzle-orm";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    url: { type: "string", default: "postgres://postgres@127.0.0.1:5432/postgres" },
    "reviews-per-resident": { type: "string", default: "1000" },
    others: { type: "string", default: "500" },
    "other-reviews": { type: "string", default: "20000" },
    runs: { type: "string", default: "40" },
  },
});
const RUNS = Number(args.runs);
const DB_NAME = "prite_bench_programs";

async function open(kind: "postgres" | "pglite"): Promise<DbHandle> {
  if (kind === "pglite") return createDb({ memory: true });
  const u = new URL(args.url!);
  const admin = postgres(u.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
  await admin.unsafe(`create database ${DB_NAME}`);
  await admin.end();
  u.pathname = `/${DB_NAME}`;
  return createDb({ databaseUrl: u.toString(), maxConnections: 4 });
}

interface Timing {
  p50: number;
  p95: number;
}

async function timeIt(f: (i: number) => Promise<unknown>, runs = RUNS, warm = 5): Promise<Timing> {
  for (let i = 0; i < warm; i++) await f(i);
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f(warm + i);
    xs.push(performance.now() - t);
  }
  xs.sort((a, b) => a - b);
  return { p50: xs[Math.floor(runs / 2)]!, p95: xs[Math.floor(runs * 0.95)]! };
}

const ms = (x: number) => `${x.toFixed(2)} ms`;

async function hotPaths(handle: DbHandle, user: UserRow, questionIds: string[]) {
  const { session } = await createSession(handle.db, user.id, new Date());
  const caller = createCaller(createContextInner({ db: handle.db, user, session }));
  let k = 0;
  return {
    due: await timeIt(() => caller.study.due()),
    answer: await timeIt(() =>
      caller.study.answer({
        questionId: questionIds[k++ % questionIds.length]!,
        selected: ["A"],
        timeSpentMs: 5000,
      }),
    ),
    search: await timeIt(() => caller.questions.search({ text: "serotonin dopamine" })),
  };
}

async function run(kind: "postgres" | "pglite") {
  const handle = await open(kind);
  await runMigrations(handle);
  const now = new Date();
  const started = performance.now();
  await seedSynthetic(handle.db, {
    users: 40,
    questions: 4000,
    reviews: 40 * Number(args["reviews-per-resident"]),
    days: 365,
    now,
    prefix: "dash",
  });
  await seedSynthetic(handle.db, {
    users: Number(args.others),
    questions: 20_000,
    reviews: Number(args["other-reviews"]),
    days: 90,
    now,
    prefix: "rest",
  });
  const seedSeconds = (performance.now() - started) / 1000;
  await handle.db.execute(sql`vacuum analyze`);

  // A user outside the 40 with questions they may answer (own or public ones).
  const [probe] = await queryRows<{ id: string }>(
    handle.db,
    sql`select u.id from users u where u.username like 'rest\\_%'
        order by (select count(*) from study_states s where s.user_id = u.id) desc limit 1`,
  );
  const [user] = await handle.db.select().from(users).where(eq(users.id, probe!.id));
  const qids = (
    await queryRows<{ id: string }>(
      handle.db,
      sql`select id from questions where is_public or creator_id = ${user!.id} order by id limit 200`,
    )
  ).map((r) => r.id);

  const before = await hotPaths(handle, user!, qids);
  await seedSyntheticPrograms(handle.db, {
    prefix: "dash",
    programs: 1,
    residentsPerProgram: 40,
    now,
  });
  const restPrograms = Math.floor(Number(args.others) / 25);
  await seedSyntheticPrograms(handle.db, {
    prefix: "rest",
    programs: restPrograms,
    residentsPerProgram: 25,
    now,
  });
  await handle.db.execute(sql`vacuum analyze`);
  const [user2] = await handle.db.select().from(users).where(eq(users.id, probe!.id));
  const after = await hotPaths(handle, user2!, qids);

  const [program] = await queryRows<{ id: string; reviews: number; residents: number }>(
    handle.db,
    sql`select p.id, (select count(*) from reviews r join users u on u.id = r.user_id where u.program_id = p.id)::int reviews,
               (select count(*) from users u where u.program_id = p.id and u.program_role = 'resident')::int residents
        from programs p where p.name like 'dash Program %'`,
  );
  const cold = await timeIt(() =>
    programReport(handle.db, { programId: program!.id, now: new Date() }),
  );
  enableStatsCaches(handle.db, { rankingCohortMs: 60_000 });
  const kept = await timeIt(() =>
    programReport(handle.db, { programId: program!.id, now: new Date() }),
  );
  const report = await programReport(handle.db, { programId: program!.id, now: new Date() });
  // The drift of the machine and of the bank (the answers written above): the programs taken away
  // again, measured a third time. A change "with programs" within this drift is noise.
  await handle.db.execute(sql`update questions set program_id = null where program_id is not null`);
  await handle.db.execute(
    sql`update users set program_id = null, program_role = null where program_id is not null`,
  );
  await handle.db.execute(sql`vacuum analyze`);
  const [user3] = await handle.db.select().from(users).where(eq(users.id, probe!.id));
  const removed = await hotPaths(handle, user3!, qids);
  await handle.close();
  return { kind, seedSeconds, before, after, removed, program: program!, cold, kept, report };
}

const kinds =
  args.db === "both" ? (["pglite", "postgres"] as const) : [args.db as "postgres" | "pglite"];
for (const kind of kinds) {
  const r = await run(kind);
  const change = (a: Timing, b: Timing) => `${(((b.p50 - a.p50) / a.p50) * 100).toFixed(1)}%`;
  console.log(
    `\n### ${kind}: seeded in ${r.seedSeconds.toFixed(1)} s; program of ${r.program.residents} residents, ${r.program.reviews} answers over 365 days; ${r.report.categories.length} categories in the heatmap\n`,
  );
  console.log("| one request at a time (p50 / p95 of " + RUNS + ") | p50 | p95 |");
  console.log("| --- | --- | --- |");
  console.log(
    `| programReport.report, server mean read each time | ${ms(r.cold.p50)} | ${ms(r.cold.p95)} |`,
  );
  console.log(
    `| programReport.report, server mean kept (decision 260 cache) | ${ms(r.kept.p50)} | ${ms(r.kept.p95)} |`,
  );
  console.log(
    "\n| hot path | without programs p50 / p95 | with programs p50 / p95 | change of p50 | programs removed again p50 / p95 |",
  );
  console.log("| --- | --- | --- | --- | --- |");
  for (const key of ["due", "answer", "search"] as const) {
    console.log(
      `| ${key} | ${ms(r.before[key].p50)} / ${ms(r.before[key].p95)} | ${ms(r.after[key].p50)} / ${ms(r.after[key].p95)} | ${change(r.before[key], r.after[key])} | ${ms(r.removed[key].p50)} / ${ms(r.removed[key].p95)} |`,
    );
  }
}
