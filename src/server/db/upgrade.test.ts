/**
 * Upgrades keep the data (issue 33 item 4): databases at earlier releases' schemas, filled with raw SQL
 * valid at that schema, are migrated by today's migrations and served by today's app; a failing
 * migration leaves the database as it was and the server stops naming it.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app";
import { hashPassword } from "../auth/password";
import { generateSessionToken, sessionIdFromToken } from "../auth/session";
import { adminUrl, goldenImagePath } from "../test/golden";
import { createTestDb, type TestDb } from "../test/db";
import { freePort, spawnServer } from "../test/server-process";
import {
  MigrationError,
  migrationsFolder,
  rowsOf,
  runMigrations,
  shippedMigrations,
} from "./migrate";

const engine = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
const shipped = shippedMigrations();
const LAST = shipped.length - 1;
const PASSWORD = "correct horse battery";
const config = { throttle: { maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 }, aiModel: null };
/** The journal index that introduced each kind of data (checked against the files below). */
const SINCE = { users: 1, questions: 2, study: 3, scores: 4, answerKeys: 5, exams: 20, media: 21 };
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const PNG_SHA = crypto.createHash("sha256").update(PNG).digest("hex");

let passwordHash: string;
beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD);
  expect(shipped[SINCE.exams]!.tag).toBe("0020_exams");
  expect(shipped[SINCE.media]!.tag).toBe("0021_flashcards_media");
});

/** A test database emptied of every migration's work: what a new install starts from. */
async function emptyDb(): Promise<TestDb> {
  const db = await createTestDb();
  await db.db.execute(sql`drop extension if exists pg_trgm cascade`);
  await db.db.execute(sql`drop schema if exists drizzle cascade`);
  await db.db.execute(sql`drop schema public cascade`);
  await db.db.execute(sql`create schema public`);
  return db;
}

interface Era {
  k: number;
  userId: string;
  username: string;
  token: string;
  questionId: string;
  examId: string;
}

const q = (db: TestDb, text: string) => db.db.execute(sql.raw(text));
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Data of every kind the schema after migration `k` has, written as that release's server would. */
async function fill(db: TestDb, k: number): Promise<Era | undefined> {
  if (k < SINCE.users) return undefined;
  const userId = crypto.randomUUID();
  const username = `era${k}_${crypto.randomBytes(3).toString("hex")}`;
  const token = generateSessionToken();
  const questionId = crypto.randomUUID();
  const examId = crypto.randomUUID();
  const sessionId = crypto.randomUUID();
  const ago = (days: number) => lit(new Date(Date.now() - days * 86_400_000).toISOString());
  await q(
    db,
    `insert into users (id, username, email, password_hash, pgy_level, created_at, last_login)
     values ('${userId}', '${username}', '${username}@example.test', ${lit(passwordHash)}, '2', ${ago(30)}, ${ago(2)})`,
  );
  await q(
    db,
    `insert into sessions (id, user_id, expires_at, created_at)
     values ('${sessionIdFromToken(token)}', '${userId}', ${ago(-20)}, ${ago(10)})`,
  );
  await q(db, `insert into login_attempts (username_key, ip) values ('${username}', '10.0.0.1')`);
  if (k < SINCE.questions) return { k, userId, username, token, questionId, examId };
  await q(
    db,
    `insert into questions (id, creator_id, text, options, correct_answer, correct_answers, category, part, year, number)
     values ('${questionId}', '${userId}', 'Era ${k}: which drug?', '{"A":"Lithium","B":"Haloperidol","C":"Sertraline","D":"Diazepam","E":"Bupropion"}',
             'A', '{A}', 'Era ${k}', '1', 2020, ${k})`,
  );
  if (k >= SINCE.study) {
    await q(
      db,
      `insert into study_sessions (id, user_id, question_count, started_at, ended_at)
       values ('${sessionId}', '${userId}', 1, ${ago(2)}, ${ago(2)})`,
    );
    await q(
      db,
      `insert into reviews (user_id, question_id, session_id, category, difficulty, is_correct, selected, time_spent_ms, reviewed_at)
       values ('${userId}', '${questionId}', '${sessionId}', 'Era ${k}', 3, true, '{A}', 4000, ${ago(2)})`,
    );
    await q(
      db,
      `insert into study_states (user_id, question_id, interval_days, repetitions, due_at, last_reviewed_at)
       values ('${userId}', '${questionId}', 1, 1, ${ago(1)}, ${ago(2)})`,
    );
  }
  if (k >= SINCE.scores) {
    await q(
      db,
      `insert into prite_scores (user_id, year, overall_percentile, psychiatry_percentile)
       values ('${userId}', '2024', 55, 60)`,
    );
  }
  if (k >= SINCE.answerKeys) {
    await q(
      db,
      `insert into answer_keys (user_id, part, year, answers) values ('${userId}', '1', 2020, '{"${k}":"A"}')`,
    );
  }
  if (k >= SINCE.exams) {
    await q(
      db,
      `insert into exams (id, user_id, mode, status, requested_size, question_count, part, pool, seconds_per_question, seed, started_at, submitted_at, correct_count)
       values ('${examId}', '${userId}', 'tutor', 'submitted', 1, 1, '1', 'all', 90, 7, ${ago(3)}, ${ago(3)}, 1)`,
    );
    await q(db, `insert into exam_questions values ('${examId}', 0, '${questionId}')`);
    await q(
      db,
      `insert into exam_answers (exam_id, question_id, user_id, selected, is_correct, category, answered_at)
       values ('${examId}', '${questionId}', '${userId}', '{A}', true, 'Era ${k}', ${ago(3)})`,
    );
  }
  if (k >= SINCE.media) {
    await q(
      db,
      `insert into media (sha256, mime_type, byte_size, bytes, uploaded_by)
       values ('${PNG_SHA}', 'image/png', ${PNG.length}, decode('${PNG.toString("hex")}', 'hex'), '${userId}')
       on conflict do nothing`,
    );
    await q(db, `insert into question_media values ('${questionId}', '${PNG_SHA}', 0)`);
  }
  return { k, userId, username, token, questionId, examId };
}

/** Everything an era's user had is there and usable through today's app. */
async function expectUsable(app: FastifyInstance, era: Era): Promise<void> {
  const headers = { "x-auth-token": era.token };
  const label = `data written after migration ${shipped[era.k]!.tag}`;
  const me = await app.inject({ method: "GET", url: "/api/auth/me", headers });
  expect(me.statusCode, label).toBe(200);
  expect(me.body, label).toContain(era.username);
  if (era.k < SINCE.questions) return;

  const list = await app.inject({ method: "GET", url: "/api/questions", headers });
  expect(list.statusCode, label).toBe(200);
  expect(list.body, label).toContain(era.questionId);

  if (era.k >= SINCE.study) {
    const due = await app.inject({ method: "GET", url: "/api/questions/due", headers });
    expect(due.statusCode, label).toBe(200);
    expect(due.body, label).toContain(era.questionId);
  }
  const answer = await app.inject({
    method: "POST",
    url: "/trpc/study.answer",
    headers: { ...headers, "content-type": "application/json" },
    payload: { questionId: era.questionId, selected: ["A"], timeSpentMs: 1500 },
  });
  expect(answer.statusCode, `${label}: ${answer.body}`).toBe(200);
  const summary = await app.inject({ method: "GET", url: "/trpc/stats.summary", headers });
  expect(summary.statusCode, label).toBe(200);
  const stats = summary.json().result.data as { totalStudied: number; correctAnswers: number };
  // Today's answer, the old review, and the old exam's answer (exams count in statistics, decision 170).
  const answers = 1 + (era.k >= SINCE.study ? 1 : 0) + (era.k >= SINCE.exams ? 1 : 0);
  expect(stats.correctAnswers, label).toBe(answers);

  if (era.k >= SINCE.scores) {
    const scores = await app.inject({ method: "GET", url: "/api/users/prite-scores", headers });
    expect(scores.statusCode, label).toBe(200);
    expect(scores.body, label).toContain('"2024"');
  }
  if (era.k >= SINCE.answerKeys) {
    const keys = await app.inject({ method: "GET", url: "/api/answer-keys/1/2020", headers });
    expect(keys.statusCode, label).toBe(200);
    expect(keys.body, label).toContain(`"${era.k}"`);
  }
  if (era.k >= SINCE.exams) {
    const exams = await app.inject({ method: "GET", url: "/api/exams", headers });
    expect(exams.statusCode, label).toBe(200);
    expect(exams.body, label).toContain(era.examId);
  }
  if (era.k >= SINCE.media) {
    const image = await app.inject({ method: "GET", url: `/api/media/${PNG_SHA}`, headers });
    expect(image.statusCode, label).toBe(200);
    expect(image.rawPayload.equals(PNG), label).toBe(true);
  }
}

const serve = (db: TestDb) => buildApp({ handle: db, config, webDir: null });

/** A copy of the shipped migrations plus one that fails after a statement that works. */
function brokenMigrationsFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-migrations-"));
  fs.cpSync(migrationsFolder(), dir, { recursive: true });
  const tag = `${String(shipped.length).padStart(4, "0")}_broken`;
  fs.writeFileSync(
    path.join(dir, `${tag}.sql`),
    `CREATE TABLE "broken_probe" ("id" integer);\n--> statement-breakpoint\nALTER TABLE "no_such_table" ADD COLUMN "x" integer;`,
  );
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalPath, "utf8"));
  journal.entries.push({
    idx: shipped.length,
    version: "7",
    when: shipped[LAST]!.when + 1000,
    tag,
    breakpoints: true,
  });
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

const count = async (db: TestDb, table: string): Promise<number> =>
  Number(rowsOf<{ n: string }>(await q(db, `select count(*)::text as n from ${table}`))[0]!.n);
const exists = async (db: TestDb, name: string): Promise<boolean> =>
  !!rowsOf<{ t: string | null }>(await q(db, `select to_regclass('${name}')::text as t`))[0]!.t;

describe(`upgrades keep the data (${engine})`, () => {
  let broken: string;
  beforeAll(() => {
    broken = brokenMigrationsFolder();
  });
  afterAll(() => fs.rmSync(broken, { recursive: true, force: true }));

  it("every earlier schema in turn, each filled with data, then today's migrations and server", async () => {
    const db = await emptyDb();
    let app: FastifyInstance | undefined;
    try {
      const eras: Era[] = [];
      for (let k = 0; k < LAST; k++) {
        await runMigrations(db, { upTo: k });
        const era = await fill(db, k);
        if (era) eras.push(era);
      }
      await runMigrations(db);
      app = await serve(db);
      expect((await app.inject({ method: "GET", url: "/api/ready" })).statusCode).toBe(200);
      for (const era of eras) await expectUsable(app, era);
      const signIn = await app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { username: eras[0]!.username, password: PASSWORD },
      });
      expect(signIn.statusCode).toBe(200);
    } finally {
      await app?.close();
      await db.close();
    }
  });

  // A database that only ever saw one release: the first with users and the first with exams (the one
  // before today's is the next test's).
  for (const k of [SINCE.users, SINCE.exams]) {
    it(`a database last migrated by ${shipped[k]!.tag}`, async () => {
      const db = await emptyDb();
      let app: FastifyInstance | undefined;
      try {
        await runMigrations(db, { upTo: k });
        const era = (await fill(db, k))!;
        app = await serve(db);
        const ready = await app.inject({ method: "GET", url: "/api/ready" });
        expect(ready.statusCode).toBe(503);
        expect(ready.json().migrations.missing).toEqual(shipped.slice(k + 1).map((m) => m.tag));
        await app.close();

        await runMigrations(db);
        app = await serve(db);
        expect((await app.inject({ method: "GET", url: "/api/ready" })).statusCode).toBe(200);
        await expectUsable(app, era);
      } finally {
        await app?.close();
        await db.close();
      }
    });
  }

  it(`a database last migrated by ${shipped[LAST - 1]!.tag}: a failing migration leaves it as it was, and its error names the file`, async () => {
    const db = await emptyDb();
    try {
      await runMigrations(db, { upTo: LAST - 1 });
      const era = (await fill(db, LAST - 1))!;
      const old = await serve(db);
      try {
        const ready = await old.inject({ method: "GET", url: "/api/ready" });
        expect(ready.statusCode).toBe(503);
        expect(ready.json().migrations.missing).toEqual([shipped[LAST]!.tag]);
      } finally {
        await old.close();
      }
      const before = await count(db, "drizzle.__drizzle_migrations");
      // The batch is today's last migration and the broken one: neither may stay.
      const failure = await runMigrations(db, { folder: broken }).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(MigrationError);
      expect((failure as Error).message).toMatch(/^Migration .*\/\d{4}_broken\.sql failed: /);
      expect((failure as Error).message).toMatch(/no_such_table/);
      expect(await count(db, "drizzle.__drizzle_migrations")).toBe(before);
      expect(await exists(db, "broken_probe")).toBe(false);
      expect(await count(db, "users")).toBe(1);
      expect(await count(db, "reviews")).toBe(1);

      // Today's migrations still apply on the untouched database.
      await runMigrations(db);
      const app = await serve(db);
      try {
        expect((await app.inject({ method: "GET", url: "/api/ready" })).statusCode).toBe(200);
        await expectUsable(app, era);
      } finally {
        await app.close();
      }
    } finally {
      await db.close();
    }
  });

  it("the server stops with a message naming the failed migration", async () => {
    const db = await createTestDb();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prite-data-"));
    try {
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        MIGRATIONS_DIR: broken,
        LOG_LEVEL: "info",
      };
      if (engine === "postgres") {
        const name = rowsOf<{ d: string }>(await q(db, "select current_database() as d"))[0]!.d;
        env.DATABASE_URL = adminUrl(process.env.TEST_DATABASE_URL!, name);
      } else {
        // An embedded database at today's schema, as a running install has it.
        const { createDb } = await import("./client");
        const disk = await createDb({
          dataDir,
          loadDataDir: new Blob([fs.readFileSync(goldenImagePath())]),
        });
        await disk.close();
        env.DATA_DIR = dataDir;
      }
      const port = await freePort();
      const server = spawnServer(port, { ...env, PORT: String(port) });
      const code = await server.exited;
      expect(code, server.output()).toBe(1);
      expect(server.output()).toMatch(/Migration .*_broken\.sql failed: .*no_such_table/);
      expect(server.output()).toContain("the database is as it was before");
      expect(await exists(db, "broken_probe")).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await db.close();
    }
  });
});
