import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../src/server/db/client";
import { registerUser } from "../../src/server/features/auth/auth.service";
import { NOT_EMPTY } from "../../src/server/features/backup/restore.service";
import { verifyBackup } from "../../src/server/features/backup/format";
import { emptyPgliteImage } from "../../src/server/features/backup/test-databases";
import { goldenImagePath } from "../../src/server/test/golden";
import { createHarness, type Harness } from "../../src/server/test/harness";
import { writeConfig } from "../config";
import { main } from "../index";
import { captureRun } from "../test-output";

/** `prite db backup` and `prite db restore` (issue 33 item 3), run in-process as a user types them. */
const prite = (...args: string[]) => captureRun(() => main(["node", "prite", ...args]));

let tmp: string;
const saved = {
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  XDG: process.env.XDG_CONFIG_HOME,
};

/** An embedded data folder from an image, optionally with an account in it. */
async function dataDir(name: string, image: Blob, username?: string): Promise<string> {
  const dir = path.join(tmp, name);
  const handle = await createDb({ dataDir: dir, loadDataDir: image });
  if (username) {
    await registerUser(
      handle.db,
      {
        username,
        email: `${username}@example.test`,
        password: "correct horse battery",
        confirmPassword: "correct horse battery",
        pgyLevel: "3",
      } as never,
      { now: new Date(), timeZone: "UTC" },
    );
  }
  await handle.close();
  return dir;
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cli-backup-"));
  process.env.XDG_CONFIG_HOME = path.join(tmp, "config");
  delete process.env.DATABASE_URL;
});
afterAll(() => {
  for (const [key, value] of Object.entries({
    DATA_DIR: saved.DATA_DIR,
    DATABASE_URL: saved.DATABASE_URL,
    XDG_CONFIG_HOME: saved.XDG,
  })) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("prite db backup / restore (local mode)", () => {
  it("backs up the embedded database and restores it into a new one; a second restore is refused", async () => {
    const golden = new Blob([fs.readFileSync(goldenImagePath())]);
    process.env.DATA_DIR = await dataDir("source", golden, "ada");
    const file = path.join(tmp, "prite.jsonl.gz");
    const backup = await prite("db", "backup", "-o", file);
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(
      new RegExp(
        `^Backup written to ${file} \\(\\d+ tables, \\d+ rows, schema \\d{4}_\\w+\\)\\.\\n$`,
      ),
    );
    expect((await verifyBackup(file)).rows).toBeGreaterThan(0);

    process.env.DATA_DIR = await dataDir("target", await emptyPgliteImage());
    const restore = await prite("--json", "db", "restore", file);
    expect(restore.code).toBe(0);
    expect(JSON.parse(restore.stdout)).toMatchObject({ success: true, migratedAfter: 0 });
    const whoami = await prite("--json", "users", "list");
    expect(whoami.stdout).toContain('"ada"');
    // `prite audit --json` reads the restore from the restored database's log (issue 33 item 6).
    const audit = await prite("--json", "audit", "--kind", "backup.restored");
    expect(audit.code).toBe(0);
    expect(JSON.parse(audit.stdout)).toMatchObject([
      { kind: "backup.restored", username: "", ip: "local", detail: { file: "prite.jsonl.gz" } },
    ]);
    const badSince = await prite("audit", "--since", "someday");
    expect([badSince.code, badSince.stderr]).toEqual([
      2,
      'Error: --since must be a date, e.g. 2026-11-01 (got "someday").\n',
    ]);

    const again = await prite("db", "restore", file);
    expect([again.code, again.stderr]).toEqual([1, `Error: ${NOT_EMPTY}\n`]);
  }, 60_000);

  it("restore works on the local database only; backup needs -o", async () => {
    const remote = await prite("--server", "http://localhost:9", "db", "restore", "x.gz");
    expect([remote.code, remote.stderr]).toEqual([
      2,
      "Error: db restore works on the local database only: drop --server http://localhost:9.\n",
    ]);
    expect((await prite("db", "backup")).code).toBe(2);
  });
});

describe("prite --server URL db backup", () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    h = await createHarness();
    const app = await h.app();
    url = await app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await h.close();
  });

  it("downloads the running server's backup for an admin, and refuses anyone else", async () => {
    const admin = await h.user();
    const resident = await h.user();
    writeConfig({ server: url, token: admin.token, username: admin.user.username });
    const file = path.join(tmp, "remote.jsonl.gz");
    const ok = await prite("db", "backup", "-o", file);
    expect([ok.code, ok.stderr]).toEqual([0, ""]);
    expect((await verifyBackup(file)).header.database).toBe(h.db.kind);

    writeConfig({ server: url, token: resident.token, username: resident.user.username });
    const refused = await prite("db", "backup", "-o", path.join(tmp, "refused.jsonl.gz"));
    expect([refused.code, refused.stderr]).toEqual([
      1,
      "Error: You do not have permission to access this page.\n",
    ]);
    expect(fs.readdirSync(tmp).filter((n) => n.startsWith("refused"))).toEqual([]);
  });
});
