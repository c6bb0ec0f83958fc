import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUrl, templateDbName } from "./test/golden";

/**
 * Issue 9 item 4 (atomicity): a server killed with SIGKILL in the middle of a bulk import leaves no
 * partial rows. The real server process runs from source on the suite's engine: a fresh PGlite folder,
 * or a clone of the PostgreSQL template when TEST_DATABASE_URL is set.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const pgUrl = process.env.TEST_DATABASE_URL;
let dataDir: string;
let databaseUrl: string | undefined;
let dbName: string | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? "",
      LOG_LEVEL: "error",
      NODE_ENV: "production",
      OPENAI_API_KEY: "",
      // No SPA needed: the API is what is under test.
      WEB_DIST_DIR: path.join(dataDir, "no-web"),
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** Until a transaction of the test database has been assigned an xid, i.e. has written rows. */
async function waitForWritingTransaction(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_xid is not null`;
      if (row!.n > 0) return;
      if (Date.now() > deadline) throw new Error("the import never started writing");
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await sql.end();
  }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-faults-"));
  if (pgUrl) {
    dbName = `prite_t_${crypto.randomBytes(6).toString("hex")}`;
    const admin = postgres(adminUrl(pgUrl), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${dbName}" template "${templateDbName()}"`);
    await admin.end();
    databaseUrl = adminUrl(pgUrl, dbName);
  }
});

afterAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (pgUrl && dbName) {
    const admin = postgres(adminUrl(pgUrl), { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
  }
});

describe("a server killed during a bulk import", () => {
  it("leaves no partial rows, and the next start serves the bank as it was", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let server = await startServer(port);
    try {
      const registered = await fetch(`${base}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          username: "chief",
          email: "chief@example.test",
          password: "a long password",
          confirmPassword: "a long password",
          pgyLevel: "4",
        }),
      });
      expect(registered.status).toBe(201);
      const { token } = (await registered.json()) as { token: string };
      const headers = { "content-type": "application/json", "x-auth-token": token };
      // The list answers a page; the total is in X-Total-Count (decision 010).
      const count = async () => {
        const res = await fetch(`${base}/api/questions?limit=1`, { headers });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        return Number(res.headers.get("x-total-count"));
      };
      expect(await count()).toBe(0);

      const items = Array.from({ length: 20_000 }, (_, i) => ({
        question: {
          text: `Imported question ${i}: which neurotransmitter is most associated with reward?`,
          options: { A: "Dopamine", B: "Serotonin", C: "GABA", D: "Glutamate" },
          correctAnswer: "A",
          part: "1",
          year: 2024,
          number: i + 1,
        },
        action: "create",
      }));
      const started = Date.now();
      const pending = fetch(`${base}/trpc/imports.commit`, {
        method: "POST",
        headers,
        body: JSON.stringify({ items }),
      }).then(
        (res) => ({ status: res.status }),
        () => ({ status: 0 }),
      );
      if (databaseUrl) {
        // On PostgreSQL, kill only once the import's transaction has written (it holds an xid).
        await waitForWritingTransaction(databaseUrl);
      } else {
        // PGlite lives inside the server: long enough for the transaction to be writing, far shorter
        // than the whole import.
        await new Promise((r) => setTimeout(r, 1_500));
      }
      await killHard(server);
      const outcome = await pending;
      const elapsed = Date.now() - started;

      server = await startServer(port);
      const after = await count();
      if (outcome.status === 200) {
        // The import finished before the kill: then every row must be there.
        expect(after).toBe(20_000);
      } else {
        expect(outcome.status).toBe(0);
        expect(after).toBe(0);
      }
      // The run must actually have exercised the interrupted case on this machine.
      expect({ interrupted: outcome.status === 0, elapsed }).toMatchObject({ interrupted: true });
    } finally {
      await killHard(server);
    }
  }, 120_000);
});

describe("a server killed between an offline sync and its answer", () => {
  it("keeps every answer once: the device resends the batch and nothing is lost or counted twice", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let server = await startServer(port);
    try {
      const registered = await fetch(`${base}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          username: "offline",
          email: "offline@example.test",
          password: "a long password",
          confirmPassword: "a long password",
          pgyLevel: "2",
        }),
      });
      expect(registered.status).toBe(201);
      const { token } = (await registered.json()) as { token: string };
      const headers = { "content-type": "application/json", "x-auth-token": token };
      const questionIds: string[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await fetch(`${base}/api/questions`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            text: `Offline question ${i}: which neurotransmitter is most associated with reward?`,
            options: { A: "Dopamine", B: "Serotonin", C: "GABA", D: "Glutamate" },
            correctAnswer: "A",
            part: "1",
            year: 2024,
          }),
        });
        expect(res.status).toBe(201);
        questionIds.push(((await res.json()) as { _id: string })._id);
      }
      // 200 answers given offline over the last hours: five rounds through the forty questions.
      const started = Date.now();
      const batch = Array.from({ length: 200 }, (_, i) => ({
        id: crypto.randomUUID(),
        questionId: questionIds[i % 40],
        selected: [i % 3 === 0 ? "B" : "A"],
        timeSpentMs: 5_000,
        reviewedAt: new Date(started - (200 - i) * 60_000).toISOString(),
        difficulty: i % 3 === 0 ? null : 1,
      }));
      const send = () =>
        fetch(`${base}/api/study/sync`, {
          method: "POST",
          headers,
          body: JSON.stringify({ reviews: batch }),
        }).then(
          async (res) => ({
            status: res.status,
            body: (await res.json()) as Record<string, number>,
          }),
          () => ({ status: 0, body: {} as Record<string, number> }),
        );
      const pending = send();
      if (databaseUrl) await waitForWritingTransaction(databaseUrl);
      else await new Promise((r) => setTimeout(r, 40));
      await killHard(server);
      const first = await pending;

      server = await startServer(port);
      const second = await send();
      expect(second.status).toBe(200);
      // Whatever the first attempt got to store before the kill is a duplicate now, the rest applied.
      expect(second.body.applied! + second.body.duplicates!).toBe(200);
      if (first.status === 200) expect(second.body.duplicates).toBe(200);
      const exported = await fetch(`${base}/api/users/export/study-data`, { headers });
      const { data } = (await exported.json()) as { data: { reviews: { reviewedAt: string }[] } };
      expect(data.reviews).toHaveLength(200);
      expect(data.reviews.map((r) => r.reviewedAt)).toEqual(batch.map((r) => r.reviewedAt));
      const third = await send();
      expect(third.body).toMatchObject({ applied: 0, duplicates: 200 });
    } finally {
      await killHard(server);
    }
  }, 120_000);
});
