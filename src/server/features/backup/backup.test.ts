import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrationsFolder } from "../../db/migrate";
import { queryRows } from "../../db/raw";
import { databaseSnapshot } from "../../test/db-snapshot";
import { createTestDb } from "../../test/db";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { storeMedia } from "../media/media.service";
import { seedSynthetic } from "../seed/synthetic";
import { addQuestion } from "../study/test-fixtures";
import { listAudit, SERVER_ORIGIN } from "../audit/audit.service";
import { writeBackupFile } from "./backup.service";
import { publicTables } from "./catalog";
import { DamagedBackupError, verifyBackup } from "./format";
import { migrateWithin, NOT_EMPTY, restoreBackup } from "./restore.service";
import { backupIfDue, scheduledBackups, startScheduledBackups } from "./schedule";
import { dumpDatabase, unmigratedDb } from "./test-databases";

/**
 * Issue 33 item 3: backups and restores, on the suite's database and across the two kinds (with
 * TEST_DATABASE_URL: PostgreSQL → PGlite → PostgreSQL).
 */
let h: Harness;
let resident: TestUser;
let tmp: string;
let full: string;
const engine = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
const NOW = new Date("2026-11-27T12:00:00.000Z");
const BY_TEST = { origin: SERVER_ORIGIN, at: NOW };

const gunzip = (file: string) => zlib.gunzipSync(fs.readFileSync(file)).toString("utf8");
const gzipTo = (file: string, text: string) => fs.writeFileSync(file, zlib.gzipSync(text));

/** Data of every kind, values chosen to catch lossy round trips. */
async function fill(): Promise<void> {
  const admin = await h.user();
  resident = await h.user();
  await seedSynthetic(h.db.db, { users: 3, questions: 30, reviews: 120, now: NOW, prefix: "bk" });
  const odd = await addQuestion(h.db.db, resident.user.id, {
    isPublic: true,
    text: "Quotes \" ' and \\ backslash,\nnew line, tab\t, U+2028 \u2028, emoji 🧠, <b>html</b>",
    options: { A: "ä", B: '{"not": "json"}', C: "{a,b}", D: "null", E: "" },
    explanation: "NULL",
  });
  const bytes = new Uint8Array(600).map((_, i) =>
    i < 8 ? [0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10][i]! : i % 256,
  );
  const { sha256 } = await storeMedia(h.db.db, { bytes, uploadedBy: resident.user.id });
  await resident.caller.questions.createFlashcard({
    front: `Front <img src="${sha256}">`,
    back: "Back",
    part: "1",
    year: 2024,
    isPublic: false,
  });
  await resident.caller.scores.create({ year: 2024, overallPercentile: 55 });
  await resident.caller.answerKeys.save({ part: "1", year: 2023, answers: { "1": "B", "2": "C" } });
  const { session } = await resident.caller.study.startSession();
  await resident.caller.study.answer({
    questionId: odd.id,
    selected: ["A"],
    timeSpentMs: 1234,
    sessionId: session!.id,
  });
  const { exam } = await resident.caller.exams.create({ size: 5, mode: "tutor" });
  await resident.caller.exams.answer({
    examId: exam.id,
    questionId: exam.questions[0]!.questionId,
    selected: ["B"],
  });
  await resident.caller.exams.submit({ examId: exam.id });
  const { exam: shared } = await resident.caller.exams.create({ size: 5, mode: "tutor" });
  await resident.caller.exams.share({ examId: shared.id });
  await h.db.db.execute(sql`
    update users set fsrs_parameters = array[0.1, 1.2345678901234567, 1e-300, -0.5]::float8[],
                     desired_retention = 0.87
     where id = ${resident.user.id}`);
  await h.db.db.execute(sql`
    update reviews set reviewed_at = '2024-02-29 23:59:59.123456+00'
     where id = (select min(id) from reviews)`);
  await h.signIn(admin.user.username, "not the password");
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-backup-test-"));
  h = await createHarness();
  await fill();
  full = path.join(tmp, "full.jsonl.gz");
  await writeBackupFile(h.db.db, full, { kind: h.db.kind, now: NOW });
});

afterAll(async () => {
  await h?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function isUntouched(db: Parameters<typeof publicTables>[0]): Promise<boolean> {
  const [journal] = await queryRows<{ exists: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as "exists"`,
  );
  return (await publicTables(db)).length === 0 && !journal!.exists;
}

describe(`backup and restore (${engine})`, () => {
  it("writes a file that names its schema, every table and its row counts", async () => {
    const { header, rows } = await verifyBackup(full);
    const journal = readMigrationFiles({ migrationsFolder: migrationsFolder() });
    expect(header).toMatchObject({
      format: "prite-backup",
      version: 1,
      createdAt: NOW.toISOString(),
      database: engine,
      schema: { migrations: journal.length, createdAt: journal.at(-1)!.folderMillis },
    });
    expect(header.schema.migration).toMatch(/^\d{4}_/);
    expect(header.tables).toEqual(expect.arrayContaining(["users", "reviews", "media", "exams"]));
    expect(header.tables).toEqual(await publicTables(h.db.db));
    expect(rows).toBeGreaterThan(200);
    expect(gunzip(full).split("\n").at(-2)).toMatch(
      /^\{"trailer":\{"rows":\{.*"sha256":"[0-9a-f]{64}"\}\}$/,
    );
  });

  it("refuses a truncated, altered or unloadable file and writes nothing; then restores it whole into a new database, every table equal", async () => {
    const target = await unmigratedDb(engine);
    try {
      const truncated = path.join(tmp, "truncated.jsonl.gz");
      fs.writeFileSync(truncated, fs.readFileSync(full).subarray(0, -200));
      await expect(restoreBackup(target.db, truncated, BY_TEST)).rejects.toBeInstanceOf(
        DamagedBackupError,
      );

      const text = gunzip(full);
      const altered = path.join(tmp, "altered.jsonl.gz");
      gzipTo(altered, text.replace('"0.87"', '"0.88"'));
      expect(text).toContain('"0.87"');
      await expect(restoreBackup(target.db, altered, BY_TEST)).rejects.toThrow(
        "The backup file is damaged or incomplete (its checksum does not match its content); nothing was restored.",
      );

      // Checksum made to match, but a value PostgreSQL refuses: the load fails part-way and rolls back.
      const lines = text.replace('"0.87"', '"not a number"').split("\n");
      const body = `${lines.slice(0, -2).join("\n")}\n`;
      const trailer = JSON.parse(lines.at(-2)!) as { trailer: { sha256: string } };
      trailer.trailer.sha256 = crypto.createHash("sha256").update(body).digest("hex");
      const unloadable = path.join(tmp, "unloadable.jsonl.gz");
      gzipTo(unloadable, `${body}${JSON.stringify(trailer)}\n`);
      await expect(restoreBackup(target.db, unloadable, BY_TEST)).rejects.toThrow();
      expect(await isUntouched(target.db)).toBe(true);

      const result = await restoreBackup(target.db, full, BY_TEST);
      // Recorded in the restored database, in the restore's transaction (issue 33 item 6).
      const [restored] = (await listAudit(target.db, { kind: "backup.restored", limit: 5 }))
        .entries;
      expect(restored).toMatchObject({ ip: "local", detail: { file: path.basename(full) } });
      expect(result).toMatchObject({ migratedAfter: 0, rows: (await verifyBackup(full)).rows });
      expect(await dumpDatabase(target.db)).toEqual(await dumpDatabase(h.db.db));
    } finally {
      await target.close();
    }
  });

  it.runIf(engine === "postgres")(
    "moves PostgreSQL → PGlite → PostgreSQL with every table equal",
    async () => {
      const source = await dumpDatabase(h.db.db);
      const embedded = await unmigratedDb("pglite");
      const back = await unmigratedDb("postgres");
      try {
        await restoreBackup(embedded.db, full, BY_TEST);
        expect(await dumpDatabase(embedded.db)).toEqual(source);
        const again = path.join(tmp, "from-pglite.jsonl.gz");
        await writeBackupFile(embedded.db, again, { kind: "pglite", now: NOW });
        await restoreBackup(back.db, again, BY_TEST);
        expect(await dumpDatabase(back.db)).toEqual(source);
      } finally {
        await embedded.close();
        await back.close();
      }
    },
  );

  it("restores into a migrated database without accounts (a server started on it once)", async () => {
    const target = await createTestDb();
    try {
      await target.db.execute(
        sql`insert into login_attempts (username_key, ip) values ('x', '1.2.3.4')`,
      );
      await restoreBackup(target.db, full, BY_TEST);
      expect(await dumpDatabase(target.db)).toEqual(await dumpDatabase(h.db.db));
      // The restored sequences go on after the restored rows.
      await target.db.execute(
        sql`insert into login_attempts (username_key, ip) values ('y', '1.2.3.4')`,
      );
    } finally {
      await target.close();
    }
  });

  it("refuses a database with accounts, with a message, writing nothing", async () => {
    const before = await databaseSnapshot(h.db.db);
    await expect(restoreBackup(h.db.db, full, BY_TEST)).rejects.toThrow(NOT_EMPTY);
    expect(await databaseSnapshot(h.db.db)).toBe(before);
  });

  it("migrates a backup of an earlier schema forward, after loading it", async () => {
    const migrations = readMigrationFiles({ migrationsFolder: migrationsFolder() });
    // Before the kept answer figures (0022): the restore's later migrations compute them.
    const at = migrations.findIndex((m) => m.sql.join("").includes('CREATE TABLE "answer_totals"'));
    expect(at).toBeGreaterThan(0);
    const old = await unmigratedDb("pglite");
    const target = await unmigratedDb(engine);
    try {
      await old.db.transaction((tx) => migrateWithin(tx, migrations.slice(0, at)));
      await old.db.execute(sql`
        insert into users (id, username, email, password_hash, pgy_level)
        values ('00000000-0000-4000-8000-000000000001', 'old', 'old@example.test', 'x', '2')`);
      await old.db.execute(sql`
        insert into questions (id, creator_id, text, options, correct_answer, category, part, year)
        values ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001',
                'Old question', '{"A":"a","B":"b"}', 'B', 'Neuroscience', '1', 2020)`);
      await old.db.execute(sql`
        insert into reviews (user_id, question_id, category, is_correct, reviewed_at)
        values ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002',
                'Neuroscience', true, '2026-01-01T00:00:00Z')`);
      const file = path.join(tmp, "old.jsonl.gz");
      await writeBackupFile(old.db, file, { kind: "pglite", now: NOW });
      expect((await verifyBackup(file)).header.schema.migrations).toBe(at);

      const migrated = await createTestDb();
      try {
        await expect(restoreBackup(migrated.db, file, BY_TEST)).rejects.toThrow(
          "The database is already migrated past this backup's schema",
        );
      } finally {
        await migrated.close();
      }

      expect(await restoreBackup(target.db, file, BY_TEST)).toMatchObject({
        migratedAfter: migrations.length - at,
        rows: 3,
      });
      const dump = await dumpDatabase(target.db);
      expect(dump["(migrations)"]).toHaveLength(migrations.length);
      expect(dump.questions).toHaveLength(1);
      const [totals] = await queryRows<{ answered: number; correct: number }>(
        target.db,
        sql`select answered, correct from answer_totals`,
      );
      expect(totals).toEqual({ answered: 1, correct: 1 });
    } finally {
      await old.close();
      await target.close();
    }
  });

  it("takes one snapshot while writers run: the kept figures equal the rows they count", async () => {
    const writer = await h.user();
    const q = await addQuestion(h.db.db, writer.user.id);
    let stop = false;
    const write = async () => {
      let n = 0;
      while (!stop || n < 5) {
        await h.db.db.execute(sql`
          insert into reviews (user_id, question_id, category, is_correct)
          values (${writer.user.id}, ${q.id}, 'Neuroscience', ${n % 2 === 0})`);
        n += 1;
        // Like requests, which arrive between other work: PGlite answers without leaving the microtasks.
        await new Promise((r) => setImmediate(r));
      }
    };
    const writers = [write(), write(), write()];
    const file = path.join(tmp, "busy.jsonl.gz");
    await new Promise((r) => setTimeout(r, 50));
    await writeBackupFile(h.db.db, file, { kind: h.db.kind, now: NOW });
    stop = true;
    await Promise.all(writers);

    const target = await createTestDb();
    try {
      await restoreBackup(target.db, file, BY_TEST);
      const [row] = await queryRows<{ kept: number | null; counted: number; correct: number }>(
        target.db,
        sql`select (select answered from answer_totals where user_id = ${writer.user.id}) as kept,
                   (select count(*)::int from reviews where user_id = ${writer.user.id}) as counted,
                   (select correct from answer_totals where user_id = ${writer.user.id}) -
                   (select count(*)::int from reviews where user_id = ${writer.user.id} and is_correct) as correct`,
      );
      expect(row!.kept ?? 0).toBe(row!.counted);
      expect(row!.correct ?? 0).toBe(0);
    } finally {
      await target.close();
    }
  });
});

describe("backups of a running server", () => {
  it("GET /api/admin/backup streams the backup to an admin; others are refused", async () => {
    const app = await h.app();
    const admin = await h.user({ isAdmin: true });
    const res = await app.inject({
      method: "GET",
      url: "/api/admin/backup",
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/gzip");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="prite-backup-\d{8}T\d{6}Z\.jsonl\.gz"$/,
    );
    const file = path.join(tmp, "remote.jsonl.gz");
    fs.writeFileSync(file, res.rawPayload);
    const { header, rows } = await verifyBackup(file);
    expect(header.tables).toEqual(await publicTables(h.db.db));
    expect(rows).toBeGreaterThan((await verifyBackup(full)).rows);

    const asResident = await app.inject({
      method: "GET",
      url: "/api/admin/backup",
      headers: resident.headers,
    });
    expect([asResident.statusCode, asResident.json()]).toEqual([
      403,
      { message: "You do not have permission to access this page." },
    ]);
    const anonymous = await app.inject({ method: "GET", url: "/api/admin/backup" });
    expect([anonymous.statusCode, anonymous.json()]).toEqual([
      401,
      { message: "Please sign in to continue" },
    ]);
  });

  it("takes scheduled backups when the newest is BACKUP_EVERY old, keeping the newest BACKUP_KEEP, one at a time", async () => {
    const dir = path.join(tmp, "scheduled");
    const hour = 3_600_000;
    let clock = Date.parse("2026-11-27T00:00:00Z");
    const opts = { handle: h.db, dir, everyMs: hour, keep: 2, now: () => new Date(clock) };
    expect(await backupIfDue(opts)).toBe(path.join(dir, "prite-backup-20261127T000000Z.jsonl.gz"));
    clock += hour / 2;
    expect(await backupIfDue(opts)).toBeNull();
    clock += hour / 2;
    expect(await backupIfDue(opts)).not.toBeNull();
    clock += hour;
    // Two server processes looking at once: one takes it.
    const both = await Promise.all([backupIfDue(opts), backupIfDue(opts)]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect(scheduledBackups(dir)).toEqual([
      "prite-backup-20261127T020000Z.jsonl.gz",
      "prite-backup-20261127T010000Z.jsonl.gz",
    ]);
    expect(fs.readdirSync(dir).sort()).toEqual([...scheduledBackups(dir)].sort());
    await verifyBackup(path.join(dir, scheduledBackups(dir)[0]!));

    // The timer: a tick at start, and at every interval.
    const timed = path.join(tmp, "timed");
    let ticks = 0;
    const stop = startScheduledBackups({
      ...opts,
      dir: timed,
      everyMs: 40,
      now: () => new Date(Date.parse("2026-11-28T00:00:00Z") + ticks++ * hour),
    });
    await vi.waitFor(() => expect(scheduledBackups(timed).length).toBe(2), { timeout: 10_000 });
    await stop();
  });
});
