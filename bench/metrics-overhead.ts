/**
 * What the metrics cost the hot paths (issue 33 item 5): one histogram observe, and a prepared query
 * (as the due page's and the exam answer's, src/server/db/prepared.ts) with and without the timing
 * wrapper of src/server/metrics.ts, on PostgreSQL.
 *
 *   npx tsx bench/metrics-overhead.ts [--url postgres://…] [--calls 20000]
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { Histogram, Registry } from "prom-client";
import { createDb } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import { timeDatabaseQueries } from "../src/server/metrics";

const { values } = parseArgs({
  options: { url: { type: "string" }, calls: { type: "string", default: "20000" } },
});
const url =
  values.url ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const calls = Number(values.calls);

const h = new Histogram({
  name: "bench_seconds",
  help: "bench",
  labelNames: ["operation", "outcome"],
  registers: [new Registry()],
});
const child = h.labels({ operation: "select", outcome: "ok" });
for (const [name, run] of [
  ["observe (child, labels resolved once)", () => child.observe(0.0012)],
  ["observe (labels object)", () => h.observe({ operation: "select", outcome: "ok" }, 0.0012)],
] as const) {
  for (let i = 0; i < 200_000; i++) run();
  const n = 2_000_000;
  // CPU time rather than wall time: on a shared machine the wall clock counts other processes too.
  const t = process.cpuUsage();
  for (let i = 0; i < n; i++) run();
  const { user, system } = process.cpuUsage(t);
  console.log(`${name}: ${(((user + system) * 1000) / n).toFixed(0)} ns of CPU`);
}

const handle = await createDb({ databaseUrl: url, maxConnections: 1 });
await runMigrations(handle);
const prepared = handle.db
  .select({ n: sql<number>`1` })
  .from(sql`users`)
  .where(sql`id = ${sql.placeholder("id")}`)
  .prepare("bench_metrics_overhead");
const id = "00000000-0000-0000-0000-000000000000";
/** Microseconds of this process's CPU per call (the server's side of the query is PostgreSQL's). */
const round = async () => {
  for (let i = 0; i < 1000; i++) await prepared.execute({ id });
  const t = process.cpuUsage();
  for (let i = 0; i < calls; i++) await prepared.execute({ id });
  const { user, system } = process.cpuUsage(t);
  return (user + system) / calls;
};
const bare = [await round(), await round()];
timeDatabaseQueries();
const timed = [await round(), await round()];
console.log(`prepared query, bare: ${bare.map((v) => v.toFixed(1)).join(", ")} µs of CPU`);
console.log(`prepared query, timed: ${timed.map((v) => v.toFixed(1)).join(", ")} µs of CPU`);
await handle.close();
