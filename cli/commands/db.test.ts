import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../src/server/db/client";
import { migrationsFolder } from "../../src/server/db/migrate";
import { queryRows } from "../../src/server/db/raw";
import { createHarness } from "../../src/server/test/harness";
import { writeConfig } from "../config";
import { requireLocal } from "../runtime";
import { migrateDatabase } from "./db";

const journal = JSON.parse(
  fs.readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8"),
) as { entries: unknown[] };

describe("prite db migrate", () => {
  it("applies every migration to a new database, then none", async () => {
    const handle = await createDb({ memory: true });
    try {
      const first = await migrateDatabase(handle);
      expect(first).toEqual({
        database: "pglite",
        applied: journal.entries.length,
        total: journal.entries.length,
      });
      const [users] = await queryRows<{ exists: boolean }>(
        handle.db,
        sql`select to_regclass('public.users') is not null as "exists"`,
      );
      expect(users?.exists).toBe(true);
      expect(await migrateDatabase(handle)).toEqual({
        database: "pglite",
        applied: 0,
        total: journal.entries.length,
      });
    } finally {
      await handle.close();
    }
  });

  it("an up-to-date database (PGlite or PostgreSQL) has nothing pending", async () => {
    const h = await createHarness();
    try {
      expect(await migrateDatabase(h.db)).toEqual({
        database: h.db.kind,
        applied: 0,
        total: journal.entries.length,
      });
    } finally {
      await h.close();
    }
  });
});

describe("local-only commands refuse remote mode as a usage error, naming the flag", () => {
  let tmp: string;
  const saved = process.env.XDG_CONFIG_HOME;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cli-db-"));
    process.env.XDG_CONFIG_HOME = tmp;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = saved;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("no login: local; --server: drop it", () => {
    expect(() => requireLocal({}, "db migrate")).not.toThrow();
    expect(() => requireLocal({ server: "http://localhost:3000" }, "db migrate")).toThrow(
      expect.objectContaining({
        message:
          "db migrate works on the local database only: drop --server http://localhost:3000.",
        exitCode: 2,
      }),
    );
  });

  it("after a login: add --local (not 'drop --server', which was never given)", () => {
    writeConfig({ server: "https://prite.example.org", token: "t", username: "chief" });
    expect(() => requireLocal({}, "seed --synthetic")).toThrow(
      expect.objectContaining({
        message:
          "seed --synthetic works on the local database only: add --local (you are logged in to https://prite.example.org).",
        exitCode: 2,
      }),
    );
    expect(() => requireLocal({ local: true }, "seed --synthetic")).not.toThrow();
  });
});
