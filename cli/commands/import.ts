import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import {
  detectColumns,
  ImportError,
  parseRows,
  readSpreadsheet,
  suggestImportSettings,
  type ImportFormat,
  type ImportSettings,
  type ParsedQuestion,
  type RowError,
} from "../../src/core/import";
import { ANKI_WARNING_KINDS } from "../../src/core/import/anki/messages";
import { NO_VALID_QUESTIONS_MESSAGE } from "../../src/core/import/errors";
import { groupIssues, issueGroupLine } from "../../src/core/import/issue-groups";
import { splitImportable, toImportItem, type CommitItem } from "../../src/core/import/plan";
import { COMMIT_MAX } from "../../src/server/features/imports/imports.types";
import { action } from "../command";
import { parsePart, parseYear, usage } from "../options";
import { CliError } from "../output";
import type { Api } from "../runtime";
import { checkAnkiFiles, formatTagCategories, runAnkiImport } from "./import-anki";
import {
  ON_DUPLICATE,
  resolveDuplicates,
  silentProgress,
  withCommitCounts,
  type ImportOptions,
  type ImportRowError,
  type ImportSummary,
  type OnDuplicate,
  type Progress,
  visibilityFields,
} from "./import-common";

export type { ImportOptions, ImportRowError, ImportSummary, Progress } from "./import-common";

/** 'B' or '2' → 1 (0-based column); spreadsheet letters or 1-based numbers, as a user reads them. */
export function parseColumn(flag: string, value: string): number {
  const v = value.trim().toUpperCase();
  if (/^[1-9]\d{0,3}$/.test(v)) return Number(v) - 1;
  if (/^[A-Z]{1,2}$/.test(v)) {
    return [...v].reduce((n, ch) => n * 26 + (ch.charCodeAt(0) - 64), 0) - 1;
  }
  throw usage(`--${flag}: '${value}' is not a column (use a letter like C or a number like 3)`);
}

/** The wizard's auto-detected settings for this sheet, with the flags the user gave on top. */
export function settingsFor(rows: string[][], opts: ImportOptions): ImportSettings {
  const part = parsePart(opts.part ?? "1");
  const year = opts.year === undefined ? new Date().getFullYear() : parseYear(opts.year);
  const base: Partial<ImportSettings> = { part, year };
  let headerRow: number | undefined = opts.header === false ? -1 : undefined;
  if (opts.headerRow !== undefined) {
    const n = Number(opts.headerRow);
    if (!Number.isInteger(n) || n < 1) throw usage("--header-row must be a row number from 1");
    headerRow = n - 1;
  }
  let settings = suggestImportSettings(rows, base).settings;
  if (headerRow !== undefined && headerRow !== settings.headerRow) {
    // As the wizard does when the header row is changed: detect the columns again from its labels.
    const header = headerRow >= 0 ? rows[headerRow] : undefined;
    const detected = header
      ? detectColumns(header, {
          dataRows: rows.slice(headerRow + 1, headerRow + 201),
          base: { ...base, headerRow },
        }).settings
      : null;
    settings = detected && detected.questionColumn !== null ? detected : { ...settings, headerRow };
  }
  if (opts.format !== undefined) {
    if (!["standard", "questionPerRow", "qa"].includes(opts.format))
      throw usage("--format must be standard, questionPerRow or qa");
    settings.format = opts.format as ImportFormat;
  }
  if (opts.questionCol !== undefined)
    settings.questionColumn = parseColumn("question-col", opts.questionCol);
  if (opts.optionCols !== undefined) {
    const cols = opts.optionCols
      .split(",")
      .map((c) => c.trim())
      .filter(Boolean);
    if (cols.length < 2 || cols.length > 5)
      throw usage("--option-cols needs 2 to 5 columns, e.g. B,C,D,E");
    const keys = [
      "optionAColumn",
      "optionBColumn",
      "optionCColumn",
      "optionDColumn",
      "optionEColumn",
    ] as const;
    keys.forEach((key, k) => {
      settings[key] = cols[k] === undefined ? null : parseColumn("option-cols", cols[k]);
    });
    settings.hasOptions = true;
    if (opts.format === undefined) settings.format = "questionPerRow";
  }
  if (opts.answerCol !== undefined)
    settings.answerColumn = parseColumn("answer-col", opts.answerCol);
  if (opts.categoryCol !== undefined) {
    settings.categoryColumn = parseColumn("category-col", opts.categoryCol);
    settings.hasCategory = true;
  }
  if (opts.explanationCol !== undefined)
    settings.explanationColumn = parseColumn("explanation-col", opts.explanationCol);
  return settings;
}

function onDuplicateOf(value: string | undefined): OnDuplicate {
  const mode = (value ?? "skip") as OnDuplicate;
  if (!ON_DUPLICATE.includes(mode))
    throw usage("--on-duplicate must be skip, keep-both, newer or metadata");
  return mode;
}

/** The flags' usage errors (exit code 2), found without reading a file or opening a database. */
export function checkImportFlags(opts: ImportOptions): void {
  onDuplicateOf(opts.onDuplicate);
  settingsFor([], opts);
}

/** Reads and parses every file with the wizard's parser; nothing is sent to the server. */
export async function readImportFiles(
  files: string[],
  opts: ImportOptions,
): Promise<{
  questions: ParsedQuestion[];
  errors: ImportRowError[];
  warnings: ImportRowError[];
  files: ImportSummary["files"];
}> {
  const questions: ParsedQuestion[] = [];
  const errors: ImportRowError[] = [];
  const warnings: ImportRowError[] = [];
  const summaries: ImportSummary["files"] = [];
  for (const file of files) {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(fs.readFileSync(file));
    } catch {
      throw new CliError(`Cannot read ${file}: no such file, or no permission.`);
    }
    const name = path.basename(file);
    try {
      const sheet = await readSpreadsheet(name, bytes, opts.sheet ? { sheet: opts.sheet } : {});
      const result = splitImportable(
        parseRows(sheet.rows, settingsFor(sheet.rows, opts)),
        new Date(),
      );
      const notes = result.warnings;
      const inFile = (e: RowError) => ({ file: name, row: e.row, message: e.message });
      questions.push(...result.questions);
      errors.push(...result.errors.map(inFile));
      warnings.push(...notes.map(inFile));
      summaries.push({
        file: name,
        sheet: sheet.sheet,
        questions: result.questions.length,
        errors: result.errors.length,
        warnings: notes.length,
      });
    } catch (err) {
      if (err instanceof ImportError) throw new CliError(`${name}: ${err.message}`);
      throw err;
    }
  }
  return { questions, errors, warnings, files: summaries };
}

/**
 * `prite import`: the web wizard's parse → duplicate check → one commit, with the duplicate resolution
 * chosen up front by --on-duplicate instead of per question (docs/decisions/050-cli-import.md).
 */
export async function runImport(
  api: Api,
  files: string[],
  opts: ImportOptions,
  progress: Progress = silentProgress,
): Promise<ImportSummary> {
  const mode = onDuplicateOf(opts.onDuplicate);
  if (files.length === 0) throw usage("Name at least one file to import.");
  const deck = checkAnkiFiles(files, opts);
  if (deck !== null) return runAnkiImport(api, deck, opts, mode, progress);
  const read = await readImportFiles(files, opts);
  const { questions, errors, warnings } = read;
  if (questions.length === 0) throw new CliError(NO_VALID_QUESTIONS_MESSAGE);
  if (questions.length > COMMIT_MAX)
    throw new CliError(`At most ${COMMIT_MAX} questions can be imported at once`);

  const items = questions.map(toImportItem);
  const resolved = await resolveDuplicates(api, items, mode, progress);
  const commitItems: CommitItem[] = items.map((question, i) => ({
    question,
    ...resolved.items[i]!,
  }));
  const { duplicates, merged, skipped, notMergeable } = resolved;

  const summary: ImportSummary = {
    dryRun: Boolean(opts.dryRun),
    files: read.files,
    total: items.length,
    duplicates,
    merged,
    imported: items.length - merged - skipped,
    skipped,
    notMergeable,
    errors,
    warnings,
  };
  if (opts.dryRun) {
    progress.done();
    return summary;
  }
  progress.update("Saving", 0, summary.imported + summary.merged);
  try {
    const result = await api.imports.commit.mutate({
      items: commitItems,
      ...visibilityFields(opts),
    });
    return withCommitCounts(summary, result);
  } finally {
    progress.done();
  }
}

/**
 * The summary as the terminal shows it. Warnings of one kind are one line with their count and
 * first rows (a deck can warn on every note); `verbose` lists every one, as --json always does.
 */
export function formatImportSummary(s: ImportSummary, { verbose = false } = {}): string {
  const verb = s.dryRun ? "Would import" : "Imported";
  const d = s.deck;
  const lines = [
    ...s.files.map((f) =>
      d
        ? `${f.file}: ${d.multipleChoice} multiple choice, ${d.flashcards} flashcards, ${d.skippedNotes.length} notes skipped, ${f.errors} with errors${f.warnings ? `, ${f.warnings} warnings` : ""}, ${d.images} images`
        : `${f.file}${/\.csv$/i.test(f.file) ? "" : ` [${f.sheet}]`}: ${f.questions} questions, ${f.errors} rows with errors${f.warnings ? `, ${f.warnings} with warnings` : ""}`,
    ),
    `${s.dryRun ? "Dry run, nothing saved. " : ""}Total: ${s.total}, duplicates: ${s.duplicates}, merged: ${s.merged}, ${verb.toLowerCase()}: ${s.imported}, skipped: ${s.skipped}, errors: ${s.errors.length}`,
  ];
  if (s.notMergeable > 0)
    lines.push(
      `${s.notMergeable} duplicates match another user's question: skipped (you can only merge into your own questions; use --on-duplicate keep-both to add them anyway).`,
    );
  if (d && d.progressKept > 0) lines.push(`Anki progress kept for ${d.progressKept} questions.`);
  // The parser's messages start 'Row N: ' (a deck's 'Note N: '); the file name goes in front instead.
  const row = (e: ImportRowError) =>
    `  ${e.file} ${e.unit ?? "row"} ${e.row}: ${e.message.replace(/^(?:Row|Note) \d+:\s*/, "")}`;
  if (d && d.skippedNotes.length > 0) lines.push(`Skipped notes: ${d.skippedNotes.length}`);
  for (const e of d?.skippedNotes ?? []) lines.push(row(e));
  for (const e of s.errors) lines.push(row(e));
  if (s.warnings.length > 0) lines.push(`Warnings: ${s.warnings.length}`);
  if (verbose) for (const w of s.warnings) lines.push(row(w));
  else lines.push(...groupedWarnings(s.warnings));
  if (d) lines.push(...formatTagCategories(d.tags));
  return lines.join("\n");
}

/** Per file, one line per kind of warning: '  ham.apkg, 590 notes: Answer inferred … (notes 2, 3, …)'. */
function groupedWarnings(warnings: readonly ImportRowError[]): string[] {
  const files = [...new Set(warnings.map((w) => w.file))];
  const lines = files.flatMap((file) => {
    const own = warnings.filter((w) => w.file === file);
    const unit = own[0]?.unit ?? "row";
    return groupIssues(own, (w) => w.row, ANKI_WARNING_KINDS).map(
      (g) => `  ${file}${g.count === 1 ? "" : ","} ${issueGroupLine(g, unit)}`,
    );
  });
  return lines.length < warnings.length ? [...lines, "  (--verbose lists each one)"] : lines;
}

/** A one-line bar on stderr, redrawn in place; only on a terminal and never with --json. */
export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  let shown = false;
  return {
    update(label, done, total) {
      const width = 30;
      const filled = total > 0 ? Math.round((done / total) * width) : width;
      const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
      stream.write(
        `\r${label} [${"#".repeat(filled)}${" ".repeat(width - filled)}] ${percent}% (${done}/${total})\x1b[K`,
      );
      shown = true;
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
      shown = false;
    },
  };
}

/** With --verbose off a terminal: one line per step on stderr, e.g. `Saving: 0/20000`. */
export function lineProgress(stream: NodeJS.WritableStream = process.stderr): Progress {
  return {
    update(label, done, total) {
      stream.write(`${label}: ${done}/${total}\n`);
    },
    done() {},
  };
}

export function registerImportCommands(program: Command): void {
  program
    .command("import")
    .description(
      "Import questions from CSV/XLS/XLSX files or an Anki deck (.apkg, .colpkg), with the web's parser and duplicate check",
    )
    .argument(
      "<files...>",
      "spreadsheet files (.csv, .xls, .xlsx) or one Anki deck (.apkg, .colpkg)",
    )
    .option("--part <1|2>", "PRITE part", "1")
    .option("--year <year>", "PRITE year (default: this year)")
    .option("--format <format>", "standard | questionPerRow | qa (default: detected)")
    .option("--header-row <n>", "row holding the column labels (1-based; default: detected)")
    .option("--no-header", "the file has no header row")
    .option("--sheet <name>", "worksheet to read (default: the first visible one)")
    .option("--question-col <col>", "question column, as a letter (C) or number (3)")
    .option("--option-cols <cols>", "option A-E columns, comma-separated, e.g. B,C,D,E")
    .option("--answer-col <col>", "correct-answer column")
    .option("--category-col <col>", "category column")
    .option("--explanation-col <col>", "explanation column")
    .option("--public", "share the imported questions with everyone (same as --visibility public)")
    .option(
      "--visibility <level>",
      "private | program | public (default: program for a program's member, else your profile's)",
    )
    .option(
      "--share-source <source>",
      "with --visibility public: where the questions come from; you state you may share them",
    )
    .option(
      "--on-duplicate <mode>",
      "skip | keep-both | newer | metadata (merges only into your own questions)",
      "skip",
    )
    .option(
      "--keep-progress",
      "Anki decks: keep each card's interval, ease, due date, reps and lapses",
    )
    .option(
      "--tag-map <file>",
      "Anki decks: CSV of tag,category rows choosing the category each tag sets",
    )
    .option("--dry-run", "show what would happen; save nothing")
    .addHelpText(
      "after",
      `
Columns are detected from the header as in the web wizard; the flags override the detection.
An Anki deck's notes become multiple-choice questions (options A-E) or flashcards (one per card), its
images are uploaded with them, its deck name kept as their source; the column flags do not apply.
Each tag sets a category (printed with the summary); --tag-map changes what a tag sets.
The whole import is one transaction: either every question is saved or none is.

Examples:
  $ prite import bank.xlsx --part 1 --year 2024
  $ prite import mmlu.csv --no-header --year 2023 --dry-run
  $ prite import quiz.xlsx --sheet "Tesla Coils" --on-duplicate newer --public
  $ prite import bank.csv --visibility program
  $ prite import own.csv --visibility public --share-source "written by me"
  $ prite import a.csv b.csv --question-col A --option-cols B,C,D,E --answer-col F --json
  $ prite import psychiatry.apkg --part 2 --year 2025 --keep-progress --on-duplicate newer
  $ prite import psychiatry.apkg --tag-map tags.csv --dry-run   # tags.csv: tag,category rows`,
    )
    .action(
      action(
        async (ctx, files: string[], opts: ImportOptions) => {
          const progress =
            process.stderr.isTTY && !ctx.opts.json
              ? terminalProgress()
              : ctx.opts.verbose
                ? lineProgress()
                : silentProgress;
          const summary = await runImport(ctx.session.api, files, opts, progress);
          ctx.out(formatImportSummary(summary, { verbose: ctx.opts.verbose }), summary);
        },
        {
          validate: ([files, opts]) => {
            checkImportFlags(opts);
            checkAnkiFiles(files, opts);
          },
        },
      ),
    );
}
