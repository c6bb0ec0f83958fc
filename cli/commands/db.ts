import type { Command } from "commander";
import type { DbHandle } from "../../src/server/db/client";
import { runMigrations } from "../../src/server/db/migrate";
import { appliedMigrations } from "../../src/server/features/backup/catalog";
import { action } from "../command";
import { openDatabase, requireLocal } from "../runtime";
import { registerBackupCommands } from "./db-backup";

export interface MigrateResult {
  database: DbHandle["kind"];
  /** Migrations applied by this run (0 when the database was already up to date). */
  applied: number;
  /** Migrations the database has now. */
  total: number;
}

/** `prite db migrate`: applies the pending migrations of drizzle/ and says how many it applied. */
export async function migrateDatabase(handle: DbHandle): Promise<MigrateResult> {
  const before = (await appliedMigrations(handle.db)).count;
  await runMigrations(handle);
  const total = (await appliedMigrations(handle.db)).count;
  return { database: handle.kind, applied: total - before, total };
}

export function registerDbCommands(program: Command): void {
  const db = program
    .command("db")
    .description("Database maintenance: migrate, backup, restore")
    .addHelpText("after", "\nExample:\n  $ DATABASE_URL=postgres://… prite db migrate");
  db.command("migrate")
    .description("Apply pending migrations to DATABASE_URL or the embedded database in DATA_DIR")
    .addHelpText(
      "after",
      `
Examples:
  $ prite db migrate                                     # the embedded database in DATA_DIR
  $ DATABASE_URL=postgres://localhost/prite prite db migrate`,
    )
    .action(
      action(
        async (ctx) => {
          const handle = await openDatabase(ctx.opts);
          try {
            const result = await migrateDatabase(handle);
            const what =
              result.applied === 0
                ? "no pending migrations"
                : `applied ${result.applied} migration${result.applied === 1 ? "" : "s"}`;
            ctx.out(
              `Database is up to date (${result.database}, ${result.total} migrations): ${what}.`,
              { success: true, ...result },
            );
          } finally {
            await handle.close();
          }
        },
        { needsSession: false, validate: (_args, opts) => requireLocal(opts, "db migrate") },
      ),
    );
  registerBackupCommands(db);
}
