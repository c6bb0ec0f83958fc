import crypto from "node:crypto";
import fs from "node:fs";
import postgres from "postgres";
import { createDb, type DbHandle } from "../db/client";
import { adminUrl, goldenImagePath, templateDbName } from "./golden";

export interface TestDb extends DbHandle {
  /** Which database the suite runs on, for test names and skips of engine-specific checks. */
  engine: "pglite" | "postgres";
}

/** A private, migrated database for one test file: PGlite from the golden image, or a clone on PostgreSQL. */
export async function createTestDb(): Promise<TestDb> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const bytes = fs.readFileSync(goldenImagePath());
    const handle = await createDb({ memory: true, loadDataDir: new Blob([bytes]) });
    return { ...handle, engine: "pglite" };
  }
  const name = `prite_t_${crypto.randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl(url), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}" template "${templateDbName()}"`);
  } finally {
    await admin.end();
  }
  const handle = await createDb({ databaseUrl: adminUrl(url, name), maxConnections: 5 });
  return {
    ...handle,
    engine: "postgres",
    close: async () => {
      await handle.close();
      const cleanup = postgres(adminUrl(url), { max: 1, onnotice: () => {} });
      try {
        await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
