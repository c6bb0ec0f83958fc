/**
 * PostgreSQL restart under load (issue 9 item 4). The built server runs against a fresh database;
 * 20 writers create questions through `POST /api/questions` as fast as they can and remember every id
 * that got a 201. After a few seconds PostgreSQL is restarted
 * (`pg_ctlcluster … stop`, 3 s down, `start`). Measured: which statuses the server answered while the database was
 * away (503 expected, never 500), how long after PostgreSQL was back the first success came, and
 * whether every acknowledged write is in the database afterwards. Appends to bench/RESULTS.md.
 *
 *   npx tsx bench/pg-outage.ts [--url postgres://postgres@127.0.0.1:5432/postgres]
 *
 * Restarting PostgreSQL disturbs anything else using it on this machine: run it alone.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";

const { values: args } = parseArgs({
  options: {
    url: { type: "string", default: "postgres://postgres@127.0.0.1:5432/postgres" },
    port: { type: "string", default: "3986" },
    writers: { type: "string", default: "20" },
  },
});
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const DB_NAME = "prite_bench_outage";
/** How long PostgreSQL stays stopped between `stop` and `start`. */
const DOWN_SECONDS = 3;
const BASE = `http://127.0.0.1:${args.port}`;

function dbUrl(name: string): string {
  const u = new URL(args.url!);
  u.pathname = `/${name}`;
  return u.toString();
}

async function startServer(): Promise<ChildProcess> {
  if (!fs.existsSync(path.join(ROOT, "dist", "server", "main.js"))) {
    spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  }
  const child = spawn(process.execPath, [path.join(ROOT, "dist", "server", "main.js")], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: dbUrl(DB_NAME),
      PORT: args.port,
      HOST: "127.0.0.1",
      LOG_LEVEL: "fatal",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return child;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("server did not start");
}

async function main() {
  const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
  await admin.unsafe(`create database ${DB_NAME}`);
  await admin.end();
  const server = await startServer();
  const reg = await fetch(`${BASE}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      username: "outage",
      email: "outage@example.test",
      password: "a long password",
      confirmPassword: "a long password",
      pgyLevel: "3",
    }),
  });
  const { token } = (await reg.json()) as { token: string };
  const headers = { "content-type": "application/json", "x-auth-token": token };

  const acknowledged = new Set<string>();
  const statuses = new Map<string, number>();
  const timeline: { t: number; ok: boolean }[] = [];
  const t0 = Date.now();
  let stop = false;
  let n = 0;
  const note = (phase: string, status: number) => {
    const key = `${phase} ${status}`;
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  };
  let phase = "before";

  const writer = async () => {
    while (!stop) {
      const i = n++;
      try {
        const res = await fetch(`${BASE}/api/questions`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            text: `Outage question ${i}: which receptor does clozapine block most?`,
            options: { A: "D4", B: "5-HT2A", C: "H1", D: "M1", E: "D2" },
            correctAnswer: "A",
            part: "1",
            year: 2024,
          }),
          signal: AbortSignal.timeout(10_000),
        });
        note(phase, res.status);
        timeline.push({ t: Date.now() - t0, ok: res.status === 201 });
        if (res.status === 201) acknowledged.add(((await res.json()) as { _id: string })._id);
        else await res.arrayBuffer();
      } catch {
        note(phase, 0);
        timeline.push({ t: Date.now() - t0, ok: false });
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const writers = Array.from({ length: Number(args.writers) }, writer);

  await new Promise((r) => setTimeout(r, 5_000));
  const cluster = fs.readdirSync("/etc/postgresql")[0]!;
  // Asynchronously, so the writers keep sending while PostgreSQL is down (a synchronous spawn would
  // block this event loop and no request would be made during the outage).
  const ctl = (action: "stop" | "start") =>
    new Promise<void>((resolve) => {
      const child = spawn("pg_ctlcluster", ["--skip-systemctl-redirect", cluster, "main", action], {
        stdio: ["ignore", "ignore", "inherit"],
      });
      child.on("exit", (code) => {
        if (code !== 0) console.error(`pg_ctlcluster ${action} exited with ${code}`);
        resolve();
      });
    });
  phase = "during";
  const restartStart = Date.now() - t0;
  await ctl("stop");
  const downAt = Date.now() - t0;
  await new Promise((r) => setTimeout(r, DOWN_SECONDS * 1000));
  await ctl("start");
  const backAt = Date.now() - t0;
  phase = "after";
  await new Promise((r) => setTimeout(r, 10_000));
  stop = true;
  await Promise.all(writers);
  const firstOkAfter = timeline.filter((e) => e.t >= backAt && e.ok).sort((a, b) => a.t - b.t)[0];
  const recoverySeconds = firstOkAfter ? (firstOkAfter.t - backAt) / 1000 : Infinity;

  const check = postgres(dbUrl(DB_NAME), { max: 1, onnotice: () => {} });
  const rows = await check<{ id: string }[]>`select id from questions`;
  await check.end();
  const stored = new Set(rows.map((r) => r.id));
  const lost = [...acknowledged].filter((id) => !stored.has(id)).length;
  // After the outage the server must still stop on SIGTERM (it once hung there: src/server/shutdown.ts).
  const stopStarted = Date.now();
  const exited = new Promise<number | null>((resolve) =>
    server.once("exit", (code) => resolve(code)),
  );
  server.kill("SIGTERM");
  const exitCode = await Promise.race([
    exited,
    new Promise<"running">((r) => setTimeout(() => r("running"), 30_000)),
  ]);
  const stopSeconds = (Date.now() - stopStarted) / 1000;
  if (exitCode === "running") server.kill("SIGKILL");

  const statusLine = [...statuses]
    .sort()
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ");
  const errors500 = [...statuses]
    .filter(([k]) => k.endsWith(" 500"))
    .reduce((a, [, v]) => a + v, 0);
  const during = [...statuses].filter(([k]) => k.startsWith("during "));
  const during503 = during.filter(([k]) => k === "during 503").reduce((a, [, v]) => a + v, 0);
  const duringOther = during
    .filter(([k]) => k !== "during 503" && k !== "during 201")
    .reduce((a, [, v]) => a + v, 0);
  const cpu = os.cpus();
  const lines = [
    "",
    `## PostgreSQL restart under load (bench/pg-outage.ts) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}`,
    `- ${args.writers} writers creating questions through \`POST /api/questions\`; \`pg_ctlcluster ${cluster} main stop\` from ${(restartStart / 1000).toFixed(1)} s (down at ${(downAt / 1000).toFixed(1)} s), \`start\` after ${DOWN_SECONDS} s, back at ${(backAt / 1000).toFixed(1)} s`,
    `- Statuses by phase: ${statusLine}`,
    `- **While PostgreSQL was away: ${during503} answers 503, ${duringOther} other failures (goal: 503 only); answers 500 over the whole run: ${errors500} (goal 0)**`,
    `- **First success ${recoverySeconds.toFixed(2)} s after PostgreSQL was back (goal ≤ 5 s)**`,
    `- **Acknowledged writes: ${acknowledged.size}; found afterwards: ${acknowledged.size - lost}; lost: ${lost} (goal 0)**; rows in the table: ${stored.size}`,
    exitCode === "running"
      ? `- **SIGTERM afterwards: the server was still running after 30 s (killed)**`
      : `- SIGTERM afterwards: the server exited with code ${exitCode} after ${stopSeconds.toFixed(1)} s`,
  ];
  fs.appendFileSync(path.join(ROOT, "bench", "RESULTS.md"), lines.join("\n") + "\n");
  console.log(lines.join("\n"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
