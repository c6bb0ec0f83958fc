import fs from "node:fs";
import type { Command } from "commander";
import { exportFileName } from "../../src/core/file-names";
import { action } from "../command";
import { CliError } from "../output";
import type { Api } from "../runtime";

export type ExportKind = "study-data" | "questions";

/** The same JSON the Settings page downloads (docs/decisions/042-exports.md). */
export async function fetchExport(api: Api, kind: ExportKind): Promise<unknown> {
  if (kind === "study-data") return (await api.users.exportStudyData.query()).data;
  if (kind === "questions") return (await api.users.exportQuestions.query()).questions;
  throw new CliError("Choose what to export: study-data or questions.", 2);
}

export function defaultExportFile(kind: ExportKind, now = new Date()): string {
  return exportFileName(kind === "study-data" ? "prite_study_data_" : "prite_questions_", now);
}

/** Writes the export to `output` ('-' for standard output); returns where it went. */
export async function runExport(
  api: Api,
  kind: ExportKind,
  output?: string,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<{ file: string | null; bytes: number }> {
  if (kind !== "study-data" && kind !== "questions")
    throw new CliError("Choose what to export: study-data or questions.", 2);
  const text = `${JSON.stringify(await fetchExport(api, kind), null, 2)}\n`;
  if (output === "-") {
    stdout.write(text);
    return { file: null, bytes: Buffer.byteLength(text) };
  }
  const file = output ?? defaultExportFile(kind);
  try {
    fs.writeFileSync(file, text);
  } catch {
    throw new CliError(`Cannot write ${file}: check the folder exists and you may write to it.`);
  }
  return { file, bytes: Buffer.byteLength(text) };
}

export function registerExportCommands(program: Command): void {
  program
    .command("export")
    .description("Save your study data or your questions as JSON, as the Settings page does")
    .argument("<what>", "study-data | questions")
    .option("-o, --output <file>", "file to write, - for standard output (default: dated name)")
    .addHelpText(
      "after",
      `
Examples:
  $ prite export study-data                 # writes prite_study_data_YYYY-MM-DD.json
  $ prite export questions -o bank.json
  $ prite export questions -o - | jq length`,
    )
    .action(
      action(async (ctx, what: string, opts: { output?: string }) => {
        const result = await runExport(ctx.session.api, what as ExportKind, opts.output);
        if (result.file === null) return;
        ctx.out(`Wrote ${result.file} (${result.bytes} bytes).`, result);
      }),
    );
}
