/**
 * The plans of the hot reads with the program level (issue 32, decision 350): builds a throwaway
 * PostgreSQL database from the test template with a public bank, a program's bank and a user's own
 * questions, then prints EXPLAIN ANALYZE (generic plans, as the server runs them) of the due page and
 * of search for a user without a program and for a program member, with each call's p50.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/visibility-explain.ts
 */
import { performance } from "node:perf_hooks";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Db } from "../src/server/db/client";
import * as schema from "../src/server/db/schema";
import { searchQuestions } from "../src/server/features/questions/questions.service";
import { computeDuePage } from "../src/server/features/study/due-page.service";
import { createTestDb } from "../src/server/test/db";

const PUBLIC = Number(process.env.PUBLIC ?? 50_000);
const PROGRAM = Number(process.env.PROGRAM ?? 2_000);

function literal(v: unknown): string {
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  return `'${String(v).replace(/'/g, "''")}'`;
}

async function main() {
  const handle = await createTestDb();
  if (handle.engine !== "postgres") throw new Error("set TEST_DATABASE_URL");
  const raw = handle.db as unknown as { $client: postgres.Sql };
  const client = raw.$client;
  const [a] = await client`insert into programs (name, code) values ('A', 'AAAA1111') returning id`;
  const users =
    await client`insert into users (username, email, password_hash, program_id, program_role)
    select x, x || '@t', '-', case when x = 'member' then ${a!.id}::uuid end,
           case when x = 'member' then 'resident' end
    from unnest(array['author', 'loner', 'member', 'colleague']) x returning id, username`;
  const id = (n: string) => users.find((u) => u.username === n)!.id as string;
  await client`update users set program_id = ${a!.id}, program_role = 'resident' where id = ${id("colleague")}`;
  const insert = (
    creator: string,
    n: number,
    isPublic: boolean,
    programId: string | null,
  ) => client`
    insert into questions (creator_id, text, options, correct_answer, correct_answers, category, part,
      year, is_public, program_id, created_at)
    select ${creator}, 'Question ' || g || (case when g % 50 = 0 then ' lithium tremor' else ' about care' end),
      '{"A":"a","B":"b"}'::jsonb, 'A', '{A}', 'Cat ' || (g % 30), '1', 2024, ${isPublic}, ${programId},
      now() - (g || ' seconds')::interval
    from generate_series(1, ${n}) g`;
  await insert(id("author"), PUBLIC, true, null);
  await insert(id("colleague"), PROGRAM, false, a!.id as string);
  await insert(id("loner"), 300, false, null);
  await insert(id("member"), 300, false, null);
  await client`analyze`;

  const captured: { query: string; params: unknown[] }[] = [];
  const db = drizzle({
    client,
    schema,
    casing: "snake_case",
    logger: { logQuery: (query, params) => captured.push({ query, params }) },
  }) as unknown as Db;
  await client.unsafe("set plan_cache_mode = force_generic_plan");
  const explain = async (label: string, run: () => Promise<unknown>) => {
    captured.length = 0;
    await run();
    // The page's own statement: the search's `with … m as`, or the due page's.
    const main = captured.find((c) => / m as \(|sizes as materialized/.test(c.query))!;
    await client.unsafe(`deallocate all`);
    await client.unsafe(`prepare s as ${main.query}`);
    const plan = await client.unsafe<{ "QUERY PLAN": string }[]>(
      `explain (analyze) execute s(${main.params.map(literal).join(", ")})`,
    );
    const lines = plan.map((r) => r["QUERY PLAN"]);
    const indexes = [
      ...new Set(lines.flatMap((l) => [...l.matchAll(/using (\w+)/gi)].map((m) => m[1]))),
    ];
    const seq = lines.filter((l) => /Seq Scan on questions/.test(l));
    const times: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      await run();
      times.push(performance.now() - t);
    }
    times.sort((x, y) => x - y);
    console.log(`\n=== ${label}: p50 ${times[15]!.toFixed(2)} ms`);
    console.log(`indexes: ${indexes.join(", ")}`);
    if (seq.length) console.log(`SEQ SCANS: ${seq.join(" | ")}`);
    console.log(lines.filter((l) => /Execution Time|InitPlan/.test(l)).join("\n"));
    if (process.env.VERBOSE) console.log(lines.join("\n"));
  };
  const now = new Date();
  for (const who of ["loner", "member"]) {
    await explain(`due page, ${who}`, () => computeDuePage(db, { userId: id(who), now }));
    await explain(`search 'lithium', ${who}`, () =>
      searchQuestions(db, id(who), { text: "lithium", visibility: "all" }),
    );
    await explain(`Browse first page, ${who}`, () =>
      searchQuestions(db, id(who), { text: "", visibility: "all" }),
    );
  }
  await handle.close();
}

await main();
