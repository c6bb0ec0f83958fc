import path from "node:path";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { projectRoot } from "../env";
import type { DbHandle } from "./client";

/** Resolved from the project root (or MIGRATIONS_DIR) so a bundled build finds it too. */
export function migrationsFolder(): string {
  return process.env.MIGRATIONS_DIR
    ? path.resolve(process.env.MIGRATIONS_DIR)
    : path.join(projectRoot(), "drizzle");
}

export async function runMigrations(handle: DbHandle): Promise<void> {
  const config = { migrationsFolder: migrationsFolder() };
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as unknown as PgliteDatabase, config);
  } else {
    await migratePostgres(handle.db as unknown as PostgresJsDatabase, config);
  }
}
