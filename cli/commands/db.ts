import type { Command } from "commander";
import { action } from "../command";
import { CliError } from "../output";

export function registerDbCommands(program: Command): void {
  const db = program
    .command("db")
    .description("Database maintenance (local mode)")
    .addHelpText("after", "\nExample:\n  $ DATABASE_URL=postgres://… prite db migrate");
  db.command("migrate")
    .description("Apply pending migrations to DATABASE_URL or the embedded database in DATA_DIR")
    .addHelpText(
      "after",
      "\nExample:\n  $ DATABASE_URL=postgres://localhost/prite prite db migrate",
    )
    .action(
      action(async (ctx) => {
        // Opening a local session already migrates; this command makes it explicit for operators.
        if (ctx.session.mode !== "local")
          throw new CliError("db migrate works on the local database only (drop --server).", 2);
        ctx.out(`Database is up to date (${ctx.session.handle!.kind}).`, {
          success: true,
          database: ctx.session.handle!.kind,
        });
      }),
    );
}
