/**
 * Issue 24 item 2: server memory while one signed-in client sends 12,000 spellings of one time zone
 * (letter case only) to the dashboard's `stats.summary`. Before the fix every spelling kept its own
 * formatters and rewrote the user's row (RSS 563 → 1,183 MB and growing); the caches are now keyed by
 * the canonical zone and bounded. In-process server on an in-memory PGlite, requests over
 * loopback from the same process. Appends to bench/RESULTS.md.
 *
 *   node --expose-gc --import tsx bench/timezone-memory.ts [--spellings 12000]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildApp } from "../src/server/app";
import { createDb } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import { timeZoneCacheSizes } from "../src/core/stats";

const { values: args } = parseArgs({
  options: { spellings: { type: "string", default: "12000" }, "no-record": { type: "boolean" } },
});
const COUNT = Number(args.spellings);
const ZONE = "America/Argentina/Buenos_Aires";

function spelling(i: number): string {
  let bit = 0;
  return [...ZONE]
    .map((ch) =>
      /[a-z]/i.test(ch) ? ((i >> bit++) & 1 ? ch.toUpperCase() : ch.toLowerCase()) : ch,
    )
    .join("");
}

function rssMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().rss / 1e5) / 10;
}

const handle = await createDb({ memory: true });
await runMigrations(handle);
const app = await buildApp({
  handle,
  config: { throttle: { maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 }, aiModel: null },
  webDir: null,
});
// A real socket: fastify's inject keeps every injected request reachable (its heap grows ~12 KB per
// request even on /api/health), which would hide what this measures.
await app.listen({ port: 0, host: "127.0.0.1" });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
const registered = await fetch(`${base}/api/auth/register`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({
    username: "zones",
    email: "zones@example.test",
    password: "a long and unusual passphrase",
    confirmPassword: "a long and unusual passphrase",
    pgyLevel: "2",
  }),
});
const { token } = (await registered.json()) as { token: string };
if (!token) throw new Error(`register failed: ${registered.status}`);

async function summary(tz: string): Promise<void> {
  const res = await fetch(`${base}/trpc/stats.summary`, {
    headers: { "x-auth-token": token, "x-time-zone": tz },
  });
  await res.text();
  if (res.status !== 200) throw new Error(`stats.summary answered ${res.status}`);
}

for (let i = 0; i < 200; i++) await summary(ZONE); // warm up: code paths, caches, the JIT
const before = rssMb();
const samples: number[] = [];
for (let i = 0; i < COUNT; i++) {
  await summary(spelling(i));
  if ((i + 1) % Math.ceil(COUNT / 4) === 0) samples.push(rssMb());
}
const after = rssMb();
const sizes = timeZoneCacheSizes();
await app.close();
await handle.close();

const line =
  `- ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), ` +
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}: ${COUNT.toLocaleString("en-US")} spellings of ` +
  `${ZONE} → RSS ${before} MB before, ${samples.join(" → ")} MB by quarters, ${after} MB after ` +
  `(${(((after - before) / before) * 100).toFixed(1)}%); caches: ${sizes.spellings} spellings, ${sizes.zones} zones.`;
console.log(line);
if (!args["no-record"]) {
  const file = path.join(path.dirname(new URL(import.meta.url).pathname), "RESULTS.md");
  const heading = "## Time-zone spellings and server memory (issue 24 item 2)";
  const text = fs.readFileSync(file, "utf8");
  fs.writeFileSync(
    file,
    text.includes(heading)
      ? text.replace(heading, `${heading}\n\n${line}`)
      : `${text.trimEnd()}\n\n${heading}\n\nbench/timezone-memory.ts (in-process server, in-memory PGlite, one client):\n\n${line}\n`,
  );
}
