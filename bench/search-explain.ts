/**
 * The search statement's plan at a bank's size (issue 20 item 6): runs `searchQuestions` as a user of
 * the synthetic bank for typical queries, captures the statement it sends, and prints
 * `EXPLAIN (ANALYZE, BUFFERS)` of it as the server runs it (a prepared statement under
 * `plan_cache_mode = force_generic_plan`, the server's setting), then the service's own p50/p99 over
 * --runs calls. Prints only; nothing is recorded.
 *
 *   npx tsx bench/search-explain.ts --db prite_bench_api_500000 [--runs 30] [--query "lithium toxicity"]
 *
 * The user is the one bench/api-load.ts measures (the load_ user with the most due reviews).
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Db } from "../src/server/db/client";
import * as schema from "../src/server/db/schema";
import { searchQuestions } from "../src/server/features/questions/questions.service";
import type { TSearchQuestions } from "../src/server/features/questions/questions.types";

const { values: args } = parseArgs({
  options: {
    url: { type: "string", default: "postgres://postgres@127.0.0.1:5432/postgres" },
    db: { type: "string", default: "prite_bench_api" },
    runs: { type: "string", default: "30" },
    query: { type: "string", multiple: true },
    // With --query: a Part filter on each of them.
    part: { type: "string" },
    "no-explain": { type: "boolean", default: false },
  },
});

type Case = { label: string; input: Partial<TSearchQuestions> & { text: string } };
// The measured query and one of each kind: a word, two words, an absent (rare) word, a short word
// (no trigram), a category filter, and the unfiltered list (Browse's first page).
const CASES: Case[] = args.query?.length
  ? args.query.map((text) => ({
      label: `${text}${args.part ? `, part ${args.part}` : ""}`,
      input: { text, ...(args.part ? { part: args.part as "1" | "2" } : {}) },
    }))
  : [
      { label: "lithium toxicity (the bench's)", input: { text: "lithium toxicity" } },
      { label: "one common word", input: { text: "lithium" } },
      { label: "two common words", input: { text: "lithium tremor" } },
      { label: "a rare word (absent)", input: { text: "toxicity" } },
      { label: "a word and a phrase part", input: { text: "serotonin syndrome" } },
      { label: "short word (no trigram)", input: { text: "qt" } },
      { label: "category filter", input: { text: "", category: "Bipolar Disorders" } },
      {
        label: "category and word",
        input: { text: "lithium", category: "Bipolar Disorders" },
      },
      { label: "no filter (Browse)", input: { text: "" } },
    ];

function literal(v: unknown): string {
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  return `'${String(v).replace(/'/g, "''")}'`;
}

async function main() {
  const u = new URL(args.url!);
  u.pathname = `/${args.db}`;
  const captured: { query: string; params: unknown[] }[] = [];
  const client = postgres(u.toString(), {
    max: 1,
    onnotice: () => {},
    connection: { plan_cache_mode: "force_generic_plan" },
  });
  const db = drizzle({
    client,
    schema,
    casing: "snake_case",
    logger: { logQuery: (query, params) => captured.push({ query, params }) },
  }) as unknown as Db;
  const [user] = await client<{ id: string; username: string }[]>`
    select u.id, u.username from users u where u.username like 'load\\_%'
     order by (select count(*) from study_states s where s.user_id = u.id and s.due_at <= now()) desc
     limit 1`;
  const [count] = await client<{ n: number }[]>`select count(*)::int n from questions`;
  console.log(`${args.db}: ${count!.n} questions, user ${user!.username}`);
  const runs = Number(args.runs);
  for (const c of CASES) {
    captured.length = 0;
    const page = await searchQuestions(db, user!.id, { ...c.input, visibility: "all" });
    const main = captured.find((s) => /with m as|select/i.test(s.query))!;
    console.log(
      `\n=== ${c.label}: total ${page.total}${page.totalCapped ? "+" : ""}, ${page.items.length} items`,
    );
    if (!args["no-explain"]) {
      // As the server runs it: a prepared statement with its generic plan.
      await client.unsafe(`deallocate all`);
      await client.unsafe(`prepare s as ${main.query}`);
      const plan = await client.unsafe<{ "QUERY PLAN": string }[]>(
        `explain (analyze, buffers) execute s(${main.params.map(literal).join(", ")})`,
      );
      console.log(plan.map((r) => r["QUERY PLAN"]).join("\n"));
      await client.unsafe(`deallocate s`);
    }
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await searchQuestions(db, user!.id, { ...c.input, visibility: "all" });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!;
    console.log(
      `service: p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms (${runs} calls)`,
    );
  }
  await client.end();
}

await main();
