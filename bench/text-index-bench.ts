/**
 * The duplicate check's text search alone (issue 35 item 4): `BigramTextIndex.searchMany` over the
 * bank and incoming texts of bench/cli-import-bench.ts (same seed and generator: --existing stored
 * texts, --rows probes, 10% with a near-duplicate stored), searched part by part in batches of 1,000
 * as `checkDuplicates` does for the CLI. No database: build and search times, CPU and wall, and a
 * checksum of the answers so runs of different code can be compared. --threads N (N ≥ 2) searches
 * through the worker pool of the duplicate check (text-search-pool.ts, decision 422), whose workers'
 * start and index builds count in the search's wall time (their CPU is the process's too).
 *
 *   npx tsx bench/text-index-bench.ts [--rows 50000] [--existing 50000] [--batch 1000] [--threads N]
 */
import os from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { BigramTextIndex, MIN_FLAGGED_TEXT_SIMILARITY } from "../src/core/similarity";
import { TextSearchPool } from "../src/server/features/imports/text-search-pool";
import { importBenchData } from "./import-bench-data";
import { busiestThreads, threadCpu } from "./thread-cpu";

const { values: args } = parseArgs({
  options: {
    rows: { type: "string", default: "50000" },
    existing: { type: "string", default: "50000" },
    batch: { type: "string", default: "1000" },
    threads: { type: "string", default: "1" },
  },
});
const ROWS = Number(args.rows);
const EXISTING = Number(args.existing);
const BATCH = Number(args.batch);
const THREADS = Number(args.threads);

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function main() {
  const { incoming, existing } = importBenchData(ROWS, EXISTING);
  const load = os.loadavg()[0]!.toFixed(1);
  let wall = performance.now();
  let cpu0 = cpu();
  const buffers0 = process.memoryUsage().arrayBuffers;
  const texts = existing.map((q) => q.text);
  const groups = existing.map((q) => q.part ?? "");
  const local = new BigramTextIndex(texts, groups);
  const index = new TextSearchPool(local, { texts, groups }, { threads: THREADS });
  const build = {
    wall: (performance.now() - wall) / 1000,
    cpu: cpu() - cpu0,
    mb: (process.memoryUsage().arrayBuffers - buffers0) / 2 ** 20,
  };
  wall = performance.now();
  cpu0 = cpu();
  const threads0 = threadCpu();
  let checksum = 0;
  let found = 0;
  for (let start = 0; start < incoming.length; start += BATCH) {
    const batch = incoming.slice(start, start + BATCH);
    // Both parts at once, as checkDuplicates asks (the pool's workers take either's chunks).
    const answers = await Promise.all(
      ["1", "2"].map((part) =>
        index.searchMany(
          batch.filter((q) => q.part === part).map((q) => q.text),
          part,
          MIN_FLAGGED_TEXT_SIMILARITY,
        ),
      ),
    );
    for (const results of answers) {
      results.forEach((r, k) => {
        found += r.length;
        for (const p of r) checksum = (checksum * 31 + p + k) % 1_000_000_007;
      });
    }
  }
  const search = { wall: (performance.now() - wall) / 1000, cpu: cpu() - cpu0 };
  const busiest = busiestThreads(threads0, threadCpu());
  index.close();
  console.log(
    `${THREADS >= 2 ? `${THREADS} workers` : "in-thread"}: ${ROWS} probes against ${EXISTING}: build ${build.wall.toFixed(2)} s (CPU ${build.cpu.toFixed(2)} s, ${build.mb.toFixed(0)} MB of typed arrays), search ${search.wall.toFixed(2)} s (CPU ${search.cpu.toFixed(2)} s, busiest threads ${busiest} s); ${found} found, checksum ${checksum}; load ${load} → ${os.loadavg()[0]!.toFixed(1)}`,
  );
}

void main();
