import fs from "node:fs";
import type { Command } from "commander";
import { ANKI_EXPORT_MESSAGES } from "../../src/core/export/anki/messages";
import { exportFileName } from "../../src/core/file-names";
import { action } from "../command";
import { CliError } from "../output";
import type { Api } from "../runtime";

export type ExportKind = "study-data" | "questions" | "anki";

const KINDS: readonly string[] = ["study-data", "questions", "anki"];
const CHOOSE = "Choose what to export: study-data, questions or anki.";
export const NOTHING_TO_EXPORT = ANKI_EXPORT_MESSAGES.NOTHING;

/** The same JSON the Settings page downloads (docs/decisions/042-exports.md). */
export async function fetchExport(api: Api, kind: ExportKind): Promise<unknown> {
  if (kind === "study-data") return (await api.users.exportStudyData.query()).data;
  if (kind === "questions") return (await api.users.exportQuestions.query()).questions;
  throw new CliError(CHOOSE, 2);
}

export function defaultExportFile(kind: ExportKind, now = new Date()): string {
  if (kind === "anki") return exportFileName("prite_questions_", now, "apkg");
  return exportFileName(kind === "study-data" ? "prite_study_data_" : "prite_questions_", now);
}

export interface AnkiCounts {
  multipleChoice: number;
  flashcards: number;
  images: number;
}

/** The .apkg the Settings page's "Export for Anki" downloads (decision 245), and what it holds. */
async function fetchAnki(api: Api): Promise<{ bytes: Buffer; counts: AnkiCounts }> {
  const out = await api.users.exportAnki.query();
  const counts = out.counts;
  if (counts.multipleChoice + counts.flashcards === 0) throw new CliError(NOTHING_TO_EXPORT);
  return { bytes: Buffer.from(out.package, "base64"), counts };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function describeAnki(counts: AnkiCounts): string {
  return [
    `${counts.multipleChoice} multiple choice`,
    plural(counts.flashcards, "flashcard", "flashcards"),
    plural(counts.images, "image", "images"),
  ].join(", ");
}

/** Writes the export to `output` ('-' for standard output); returns where it went. */
export async function runExport(
  api: Api,
  kind: ExportKind,
  output?: string,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<{ file: string | null; bytes: number; counts?: AnkiCounts }> {
  if (!KINDS.includes(kind)) throw new CliError(CHOOSE, 2);
  let data: string | Buffer;
  let counts: AnkiCounts | undefined;
  if (kind === "anki") {
    const anki = await fetchAnki(api);
    data = anki.bytes;
    counts = anki.counts;
  } else {
    data = `${JSON.stringify(await fetchExport(api, kind), null, 2)}\n`;
  }
  const bytes = Buffer.byteLength(data);
  if (output === "-") {
    stdout.write(data);
    return { file: null, bytes, ...(counts ? { counts } : {}) };
  }
  const file = output ?? defaultExportFile(kind);
  try {
    fs.writeFileSync(file, data);
  } catch {
    throw new CliError(`Cannot write ${file}: check the folder exists and you may write to it.`);
  }
  return { file, bytes, ...(counts ? { counts } : {}) };
}

export function registerExportCommands(program: Command): void {
  program
    .command("export")
    .description(
      "Save your study data or your questions as JSON, or your questions as an Anki deck (.apkg), as the Settings page does",
    )
    .argument("<what>", "study-data | questions | anki")
    .option("-o, --output <file>", "file to write, - for standard output (default: dated name)")
    .addHelpText(
      "after",
      `
Examples:
  $ prite export study-data                 # writes prite_study_data_YYYY-MM-DD.json
  $ prite export questions -o bank.json
  $ prite export questions -o - | jq length
  $ prite export anki -o bank.apkg          # your questions as an Anki deck`,
    )
    .action(
      action(async (ctx, what: string, opts: { output?: string }) => {
        const result = await runExport(ctx.session.api, what as ExportKind, opts.output);
        if (result.file === null) return;
        const held = result.counts ? `${describeAnki(result.counts)}; ` : "";
        ctx.out(`Wrote ${result.file} (${held}${result.bytes} bytes).`, result);
      }),
    );
}
