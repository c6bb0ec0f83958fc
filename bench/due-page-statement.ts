/**
 * The due page's statement alone (issue 35 item 1): `computeDuePage` (never the kept page) for the
 * first `--users` users of a seeded bank, one after the other on one handle, `--rounds` times. With
 * `--before <module>` (a copy of due-page.service.ts from another commit, its statement names changed so
 * both can be prepared on one handle) the two alternate round by round in the same sitting, and every
 * page of one is checked to equal the other's (JSON, total, counts).
 *
 *   npx tsx bench/due-page-statement.ts [--url postgres://…/prite_loop_run_50000 | --dir $TMPDIR/prite-loop-run-50000]
 *        [--users 200] [--rounds 6] [--limit 1] [--before src/server/features/study/due-page.before.ts]
 *
 * The copy of another commit, left untracked beside the service so its imports resolve:
 *
 *   git show <commit>:src/server/features/study/due-page.service.ts \
 *     | sed 's/"due_page_day_category" : "due_page_day"/"due_page_before_day_category" : "due_page_before_day"/' \
 *     > src/server/features/study/due-page.before.ts
 *
 * The database is the study loop bench's (bench/study-loop-bench.ts): use a copy of its template, not
 * the template itself (a data folder is locked while open; a template database cannot be copied while
 * a connection is open on it), e.g. `createdb -T prite_loop_tpl_50000 prite_due_copy`, or `cp -r` of the
 * folder without its `.lock`. A copy made before a migration lacks it (the product server applies
 * migrations; this script does not). Wall times on a shared machine follow its load: the CPU columns
 * (the backend's on PostgreSQL, this process's on PGlite) are steadier.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { createDb, type Db } from "../src/server/db/client";
import { queryRows } from "../src/server/db/raw";
import { computeDuePage, type DuePage } from "../src/server/features/study/due-page.service";
import type { DailyUser } from "../src/server/features/study/new-limit";

const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    dir: { type: "string" },
    users: { type: "string", default: "200" },
    rounds: { type: "string", default: "6" },
    limit: { type: "string", default: "1" },
    before: { type: "string" },
  },
});

type Compute = (
  db: Db,
  opts: { userId: string; now: Date; limit: number; user: DailyUser },
) => Promise<DuePage>;

async function main() {
  if (!args.url && !args.dir) throw new Error("--url or --dir");
  const handle = await createDb(
    args.url ? { databaseUrl: args.url, maxConnections: 1 } : { dataDir: args.dir! },
  );
  const variants: { name: string; compute: Compute }[] = [];
  if (args.before) {
    const mod = (await import(path.resolve(args.before))) as { computeDuePage: Compute };
    variants.push({ name: "before", compute: mod.computeDuePage });
  }
  variants.push({ name: "this tree", compute: computeDuePage });
  try {
    const users = await queryRows<DailyUser>(
      handle.db,
      sql`select id, new_per_day as "newPerDay", catch_up_until as "catchUpUntil", time_zone as "timeZone",
            exam_date as "examDate", max_new_per_day as "maxNewPerDay"
          from users order by username limit ${Number(args.users)}`,
    );
    const now = new Date();
    const limit = Number(args.limit);
    const times = new Map<string, number[]>(variants.map((v) => [v.name, []]));
    // CPU per page, less sensitive than wall time to a shared machine's load: this process's (PGlite
    // runs in it) and, on PostgreSQL, the backend's (one connection) from /proc.
    const cpu = new Map<string, number[]>(variants.map((v) => [v.name, []]));
    let backend: number | undefined;
    if (handle.kind === "postgres") {
      const [row] = await queryRows<{ pid: number }>(
        handle.db,
        sql`select pg_backend_pid() as pid`,
      );
      backend = row!.pid;
    }
    const cpuMs = () => {
      if (backend === undefined) {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      }
      const fields = fs.readFileSync(`/proc/${backend}/stat`, "utf8").split(") ")[1]!.split(" ");
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    };
    const pages = new Map<string, string>();
    let mismatches = 0;
    console.log(
      `${handle.kind}, ${users.length} users, limit ${limit}; load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    // A first pass of each prepares the statements and warms the caches.
    for (let round = 0; round <= Number(args.rounds); round++) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const v of order) {
        const t0 = performance.now();
        const c0 = cpuMs();
        for (const user of users) {
          const page = await v.compute(handle.db, { userId: user.id, now, limit, user });
          const text = JSON.stringify([
            page.total,
            page.reviewCount,
            page.newCount,
            page.questions,
          ]);
          const seen = pages.get(user.id);
          if (seen === undefined) pages.set(user.id, text);
          else if (seen !== text) mismatches++;
        }
        const perCall = (performance.now() - t0) / users.length;
        if (round > 0) {
          times.get(v.name)!.push(perCall);
          cpu.get(v.name)!.push((cpuMs() - c0) / users.length);
        }
      }
    }
    for (const [name, t] of [...times].flatMap(([n, w]) => [
      [`${n}`, w] as const,
      [`${n} CPU${backend === undefined ? "" : " (backend)"}`, cpu.get(n)!] as const,
    ])) {
      const sorted = [...t].sort((a, b) => a - b);
      const mean = t.reduce((a, b) => a + b, 0) / t.length;
      console.log(
        `${name.padEnd(24)} ms per page: mean ${mean.toFixed(3)}, median ${sorted[Math.floor(t.length / 2)]!.toFixed(3)}, min ${sorted[0]!.toFixed(3)} (${t.map((x) => x.toFixed(3)).join(" ")})`,
      );
    }
    console.log(
      `pages that differed: ${mismatches}; load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    if (mismatches > 0) process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

await main();
