import fs from "node:fs";
import type { Command } from "commander";
import type { AnswerKeyJson } from "../../src/server/features/answer-keys/answer-keys.types";
import { action } from "../command";
import { CliError, table } from "../output";
import type { Api } from "../runtime";

interface PartYearOptions {
  part: string;
  year: string;
}

export function partYear(opts: PartYearOptions): { part: "1" | "2"; year: number } {
  if (opts.part !== "1" && opts.part !== "2") throw new CliError("--part must be 1 or 2", 2);
  const year = Number(opts.year);
  if (!Number.isInteger(year) || year < 1990 || year > 2100)
    throw new CliError("--year must be a year from 1990 to 2100", 2);
  return { part: opts.part, year };
}

/** The key's text from a file, or standard input for '-'. */
export function readKeyText(file: string, stdin: NodeJS.ReadableStream = process.stdin) {
  if (file !== "-") {
    try {
      return Promise.resolve(fs.readFileSync(file, "utf8"));
    } catch {
      return Promise.reject(new CliError(`Cannot read ${file}: no such file, or no permission.`));
    }
  }
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    stdin.on("data", (c: Buffer | string) => chunks.push(Buffer.from(c)));
    stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stdin.on("error", reject);
  });
}

export async function importAnswerKey(api: Api, text: string, opts: PartYearOptions) {
  const { key, warnings } = await api.answerKeys.importText.mutate({ ...partYear(opts), text });
  return { key, warnings };
}

export async function listAnswerKeys(api: Api): Promise<AnswerKeyJson[]> {
  return api.answerKeys.list.query();
}

export async function applyAnswerKey(api: Api, opts: PartYearOptions & { overwrite?: boolean }) {
  return api.answerKeys.applyToQuestions.mutate({
    ...partYear(opts),
    overwrite: Boolean(opts.overwrite),
  });
}

export function registerAnswerKeyCommands(program: Command): void {
  const keys = program
    .command("answer-keys")
    .description("Your answer keys, one per part and year, and applying them to your questions")
    .addHelpText(
      "after",
      `
Examples:
  $ prite answer-keys import key-2024-part1.txt --part 1 --year 2024
  $ prite answer-keys list
  $ prite answer-keys apply --part 1 --year 2024 --overwrite`,
    );

  keys
    .command("import")
    .description("Save an answer key from text ('1. A', '2 B', '3-C' …), replacing the old one")
    .argument("<file>", "text file with the key, or - for standard input")
    .requiredOption("--part <1|2>", "PRITE part")
    .requiredOption("--year <year>", "PRITE year")
    .addHelpText(
      "after",
      `
Examples:
  $ prite answer-keys import key.txt --part 1 --year 2024
  $ pbpaste | prite answer-keys import - --part 2 --year 2023`,
    )
    .action(
      action(async (ctx, file: string, opts: PartYearOptions) => {
        const text = await readKeyText(file);
        const { key, warnings } = await importAnswerKey(ctx.session.api, text, opts);
        for (const w of warnings) if (!ctx.opts.json) process.stderr.write(`Warning: ${w}\n`);
        ctx.out(`Saved the answer key for Part ${key.part} ${key.year}: ${key.count} answers.`, {
          key,
          warnings,
        });
      }),
    );

  keys
    .command("list")
    .description("List your answer keys")
    .addHelpText("after", "\nExample:\n  $ prite answer-keys list --json")
    .action(
      action(async (ctx) => {
        const list = await listAnswerKeys(ctx.session.api);
        const human =
          list.length === 0
            ? "No answer keys yet. Add one with `prite answer-keys import FILE --part 1 --year 2024`."
            : table(
                list.map((k) => ({
                  part: k.part,
                  year: k.year,
                  answers: k.count,
                  updated: k.updatedAt.slice(0, 10),
                })),
                ["part", "year", "answers", "updated"],
              );
        ctx.out(human, list);
      }),
    );

  keys
    .command("apply")
    .description("Set the correct answer of your questions of that part and year from the key")
    .requiredOption("--part <1|2>", "PRITE part")
    .requiredOption("--year <year>", "PRITE year")
    .option("--overwrite", "also replace answers your questions already have")
    .addHelpText(
      "after",
      "\nExample:\n  $ prite answer-keys apply --part 1 --year 2024 --overwrite",
    )
    .action(
      action(async (ctx, opts: PartYearOptions & { overwrite?: boolean }) => {
        const r = await applyAnswerKey(ctx.session.api, opts);
        ctx.out(
          `Matched ${r.matched} questions: ${r.applied} answers set, ${r.kept} kept their answer${
            r.skippedMultipleCorrect
              ? `, ${r.skippedMultipleCorrect} multiple-correct left alone`
              : ""
          }.`,
          r,
        );
      }),
    );
}
