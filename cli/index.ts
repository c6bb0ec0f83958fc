import { Command, CommanderError } from "commander";
import { registerAnswerKeyCommands } from "./commands/answer-keys";
import { registerAuditCommands } from "./commands/audit";
import { registerAuthCommands } from "./commands/auth";
import { registerDbCommands } from "./commands/db";
import { registerExamCommands } from "./commands/exams";
import { registerExportCommands } from "./commands/export";
import { registerFsrsCommands } from "./commands/fsrs";
import { registerImportCommands } from "./commands/import";
import { registerProgramCommands } from "./commands/programs";
import { registerAssignmentCommands } from "./commands/programs-assign";
import { addProgramReportCommand } from "./commands/programs-report";
import { registerReportCommands } from "./commands/reports";
import { registerSeedCommands } from "./commands/seed";
import { registerStudyCommands } from "./commands/study";
import { registerUserCommands } from "./commands/users";

export interface ProgramOptions {
  /** --json is on: commander's own usage errors are printed as `{"error": …}` and without help. */
  json?: boolean;
}

/** One line of commander's error output ('error: unknown option …' + a suggestion), in plain words. */
function usageMessage(text: string): string {
  return text
    .trim()
    .replace(/^error:\s*/i, "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join(" ");
}

export function buildProgram({ json = false }: ProgramOptions = {}): Command {
  const program = new Command();
  // Set before the commands are added: subcommands copy these settings when they are created.
  program.exitOverride();
  if (json) {
    program.configureOutput({
      // No help text on stderr in JSON mode: only the one JSON error line.
      writeErr: () => {},
      outputError: (text) => {
        process.stderr.write(`${JSON.stringify({ error: usageMessage(text) })}\n`);
      },
    });
  } else {
    program.showHelpAfterError();
  }
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
    .option("--verbose", "show stack traces on errors, and each step of an import")
    .addHelpText(
      "after",
      `
Modes:
  local   (default on the server's machine) opens the database directly and acts as --user NAME
  remote  after \`prite login --server URL\`, commands speak to that server with your token

Examples:
  $ prite users add chief --email chief@example.org --pgy 3   # the first account is the admin
  $ prite seed --demo
  $ prite import bank.xlsx --part 1 --year 2024 --on-duplicate skip
  $ prite answer-keys import key.txt --part 1 --year 2024
  $ prite export study-data
  $ prite users promote alice
  $ prite login --server https://prite.example.org --username chief
  $ prite whoami`,
    );
  registerAuthCommands(program);
  registerDbCommands(program);
  registerImportCommands(program);
  registerAnswerKeyCommands(program);
  registerExportCommands(program);
  registerFsrsCommands(program);
  registerStudyCommands(program);
  registerUserCommands(program);
  registerSeedCommands(program);
  registerExamCommands(program);
  registerAuditCommands(program);
  registerReportCommands(program);
  // Assignments and the report live in their own files, on the one `programs` group.
  const programs = registerProgramCommands(program);
  registerAssignmentCommands(programs);
  addProgramReportCommand(programs);
  return program;
}

/** --json anywhere before a `--` turns on machine-readable output, commander's own errors included. */
export function wantsJson(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).includes("--json");
}

/** The command a bare group (`prite users`) names, e.g. ['users'], by walking the words given. */
function commandPath(program: Command, args: readonly string[]): Command {
  let cmd = program;
  for (const word of args) {
    if (word === "--") break;
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) cmd = sub;
  }
  return cmd;
}

function fullName(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/**
 * Runs `prite` with process.argv-style arguments. Exit codes (issue 7): 0 success (and an explicit --help
 * or `prite help`), 1 failure, 2 usage error — commander's own (unknown command or option, missing
 * argument, a group such as `prite users` without its subcommand) included.
 */
export async function main(argv: string[]): Promise<void> {
  const args = argv.slice(2);
  const json = wantsJson(args);
  const program = buildProgram({ json });
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === "commander.helpDisplayed" || err.code === "commander.version") {
      process.exitCode = 0;
      return;
    }
    if (err.code === "commander.help") {
      // `prite help [command]` exits 0; a group without its subcommand shows its help as an error.
      if (err.exitCode === 0) {
        process.exitCode = 0;
        return;
      }
      const cmd = commandPath(program, args);
      const choices = cmd.commands.map((c) => c.name()).filter((n) => n !== "help");
      const message = `Choose a command: ${choices.join(", ")} (see \`${fullName(cmd)} --help\`).`;
      process.stderr.write(json ? `${JSON.stringify({ error: message })}\n` : `\n${message}\n`);
    }
    process.exitCode = 2;
  }
}
