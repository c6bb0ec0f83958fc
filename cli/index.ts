import { Command, CommanderError } from "commander";
import { registerAnswerKeyCommands } from "./commands/answer-keys";
import { registerAuthCommands } from "./commands/auth";
import { registerDbCommands } from "./commands/db";
import { registerExportCommands } from "./commands/export";
import { registerImportCommands } from "./commands/import";
import { registerSeedCommands } from "./commands/seed";
import { registerUserCommands } from "./commands/users";

export function buildProgram(): Command {
  const program = new Command();
  program
    .name("prite")
    .description(
      "PRITE Study from the terminal: bulk-load question banks, answer keys, exports, users",
    )
    .option("--server <url>", "speak to a running server (after `prite login`)")
    .option(
      "--local",
      "open DATABASE_URL or the embedded DATA_DIR database directly, even after a login",
    )
    .option(
      "--user <name>",
      "local mode: act as this user (default: PRITE_USER, else the first admin)",
    )
    .option("--json", "machine-readable output")
    .option("--verbose", "show stack traces on errors")
    .showHelpAfterError()
    .exitOverride()
    .addHelpText(
      "after",
      `
Modes:
  local   (default on the server's machine) opens the database directly and acts as --user NAME
  remote  after \`prite login --server URL\`, commands speak to that server with your token

Examples:
  $ prite login --server https://prite.example.org --username chief
  $ prite whoami
  $ prite import bank.xlsx --part 1 --year 2024 --on-duplicate skip
  $ prite answer-keys import key.txt --part 1 --year 2024
  $ prite export study-data
  $ prite users promote alice`,
    );
  registerAuthCommands(program);
  registerDbCommands(program);
  registerImportCommands(program);
  registerAnswerKeyCommands(program);
  registerExportCommands(program);
  registerUserCommands(program);
  registerSeedCommands(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  program.commands.forEach((c) => c.exitOverride());
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are successes; anything else commander reports is a usage error.
      process.exitCode =
        err.code === "commander.helpDisplayed" ||
        err.code === "commander.version" ||
        err.code === "commander.help"
          ? 0
          : 2;
      return;
    }
    throw err;
  }
}
