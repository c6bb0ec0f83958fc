import fs from "node:fs";
import type { Command } from "commander";
import { EXAM_LIMITS, EXAM_MODES, EXAM_PARTS, EXAM_POOLS } from "../../src/core/exams";
import type { ExamSummary } from "../../src/server/features/exams/exams.service";
import type {
  MockExamSummary,
  MockResults,
} from "../../src/server/features/exams/mock-exams.service";
import { action } from "../command";
import { CliError, table } from "../output";
import { ZCreateExamRequest, type TCreateExamRequest } from "../../src/core/schemas/exam";
import type { Api } from "../runtime";

export interface CreateExamOptions {
  size?: string;
  part?: string;
  mode?: string;
  secondsPerQuestion?: string;
  categories?: string;
  pool?: string;
  shared?: boolean;
}

/**
 * The command's options as the procedure's input, parsed with the procedure's own schema: a bad
 * option is a usage error in the words the server would answer with.
 */
function settingsOf(opts: CreateExamOptions): TCreateExamRequest {
  const parsed = ZCreateExamRequest.safeParse({
    size: opts.size,
    part: opts.part,
    mode: opts.mode,
    secondsPerQuestion: opts.secondsPerQuestion,
    pool: opts.pool,
    categories: opts.categories
      ?.split(",")
      .map((c) => c.trim())
      .filter(Boolean),
  });
  if (!parsed.success) throw new CliError(parsed.error.issues[0]?.message ?? "Invalid options", 2);
  return parsed.data;
}

const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`;

/**
 * `prite exams create`: an exam for the acting user, or with --shared a mock exam for a program: the
 * exam's settings drawn again from public questions under a join code. The personal exam a shared one
 * is drawn from is not kept (the chief resident joins with the code like everyone else).
 */
export async function createExamCommand(api: Api, opts: CreateExamOptions) {
  const { exam, notice } = await api.exams.create.mutate(settingsOf(opts));
  if (!opts.shared) {
    const timing =
      exam.mode === "timed" ? `timed, ${minutes(exam.remainingMs ?? 0)}` : "tutor, untimed";
    return {
      human: [
        `Created exam ${exam.id}: ${exam.questionCount} questions (${timing}).`,
        ...(notice ? [notice] : []),
      ].join("\n"),
      json: { ...exam, notice, questionIds: exam.questions.map((q) => q.questionId) },
    };
  }
  try {
    const shared = await api.exams.share.mutate({ examId: exam.id });
    const { mockExam } = shared;
    return {
      human: [
        `Join code: ${mockExam.code}`,
        `Mock exam of ${mockExam.questionCount} public questions (${mockExam.mode}${mockExam.mode === "timed" ? `, ${mockExam.secondsPerQuestion} s per question` : ""}).`,
        ...(shared.notice ? [shared.notice] : []),
        `Residents join with the code on the Practice Exam screen; results: prite exams results ${mockExam.code}`,
      ].join("\n"),
      json: { ...mockExam, notice: shared.notice, questionIds: shared.questionIds },
    };
  } finally {
    await api.exams.delete.mutate({ examId: exam.id });
  }
}

const minuteOf = (iso: string) => iso.slice(0, 16).replace("T", " ");

function examsTable(list: ExamSummary[]): string {
  return table(
    list.map((e) => ({
      date: minuteOf(e.startedAt),
      mode: e.mode,
      size: e.questionCount,
      score:
        e.scorePercent === null ? "" : `${e.scorePercent}% (${e.correctCount}/${e.questionCount})`,
      status: e.status.replace("_", " "),
      id: e.id,
    })),
    ["date", "mode", "size", "score", "status", "id"],
  );
}

const mockStatus = (m: MockExamSummary) => (m.closed ? "closed" : "open");

function mockExamsTable(mocks: MockExamSummary[]): string {
  return table(
    mocks.map((m) => ({
      created: minuteOf(m.createdAt),
      code: m.code,
      mode: m.mode,
      size: m.questionCount,
      takers: m.takers,
      "in progress": m.inProgress,
      status: mockStatus(m),
    })),
    ["created", "code", "mode", "size", "takers", "in progress", "status"],
  );
}

/** The exams the user takes, then the mock exams they gave (issue 31: these were missing). */
export function formatExams(list: ExamSummary[], mocks: MockExamSummary[] = []): string {
  if (list.length === 0 && mocks.length === 0)
    return "No exams yet: create one with prite exams create.";
  const sections: string[] = [];
  if (list.length > 0) sections.push(`Exams you take:\n${examsTable(list)}`);
  if (mocks.length > 0)
    sections.push(
      `Mock exams you gave:\n${mockExamsTable(mocks)}\nResults: prite exams results CODE`,
    );
  return sections.join("\n\n");
}

/** `prite exams list`: both lists come from the procedures the Practice Exam screen uses. */
export async function listExamsCommand(api: Api) {
  const [list, mocks] = await Promise.all([api.exams.list.query(), api.exams.mocks.query()]);
  return {
    human: formatExams(list, mocks),
    json: { exams: list, mockExams: mocks.map((m) => ({ ...m, status: mockStatus(m) })) },
  };
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
const fixed = (x: number | null, digits = 2) => (x === null ? "" : x.toFixed(digits));

export function formatResults(results: MockResults): string {
  const { mockExam, takers, spread } = results;
  const head = `Mock exam ${mockExam.code}: ${mockExam.questionCount} questions, ${takers.length} finished, ${mockExam.inProgress} in progress${mockExam.closed ? ", closed" : ""}.`;
  if (takers.length === 0) return `${head}\nNobody has finished it yet.`;
  const summary = `Mean ${fixed(spread.mean, 1)}%, SD ${fixed(spread.standardDeviation, 1)}, median ${fixed(spread.median, 1)}%, range ${spread.min}-${spread.max}%.`;
  const people = table(
    takers.map((t) => ({
      username: t.username,
      score: `${t.percent}% (${t.correct}/${t.total})`,
      time: seconds(t.timeUsedMs),
      status: t.status,
    })),
    ["username", "score", "time", "status"],
  );
  const items = table(
    results.items.map((i) => ({
      "#": i.position,
      category: i.category,
      key: i.correctAnswers.join(""),
      "p-value": fixed(i.pValue),
      "point-biserial": fixed(i.discrimination),
      chose: Object.entries(i.optionShares)
        .map(([l, share]) => `${l} ${Math.round(share * 100)}%`)
        .join(" "),
    })),
    ["#", "category", "key", "p-value", "point-biserial", "chose"],
  );
  return [head, summary, "", people, "", "Item analysis:", items].join("\n");
}

export function writeCsv(csv: string, file: string | undefined): string | null {
  if (!file || file === "-") {
    process.stdout.write(csv);
    return null;
  }
  try {
    fs.writeFileSync(file, csv);
  } catch {
    throw new CliError(`Cannot write ${file}: check the folder exists and you may write to it.`);
  }
  return file;
}

export function registerExamCommands(program: Command): void {
  const exams = program
    .command("exams")
    .description("Practice exams, and mock exams shared with a program by a join code")
    .addHelpText(
      "after",
      `
Examples:
  $ prite exams create --size 100 --part 1 --mode timed --seconds-per-question 90 --shared
  $ prite exams results K7PQ2MZX --csv -o results.csv
  $ prite exams list --json`,
    );

  exams
    .command("create")
    .description(
      "Create an exam balanced by category (with --shared: a mock exam and its join code)",
    )
    .option(
      "--size <n>",
      `questions, ${EXAM_LIMITS.SIZE_MIN}-${EXAM_LIMITS.SIZE_MAX} (default ${EXAM_LIMITS.SIZE_DEFAULT})`,
    )
    .option("--part <part>", `PRITE part: ${EXAM_PARTS.join(", ")} (default both)`)
    .option("--mode <mode>", `${EXAM_MODES.join(" or ")} (default timed)`)
    .option(
      "--seconds-per-question <s>",
      `timed mode, ${EXAM_LIMITS.SECONDS_MIN}-${EXAM_LIMITS.SECONDS_MAX} (default ${EXAM_LIMITS.SECONDS_DEFAULT})`,
    )
    .option("--categories <list>", "comma-separated categories (default: all)")
    .option("--pool <pool>", `${EXAM_POOLS.join(", ")} (default all; not for --shared)`)
    .option("--shared", "make it a mock exam of public questions and print its join code")
    .action(
      action(async (ctx, opts: CreateExamOptions) => {
        const { human, json } = await createExamCommand(ctx.session.api, opts);
        ctx.out(human, json);
      }),
    );

  exams
    .command("results")
    .description("A mock exam's results: takers, mean and spread, item analysis (creator or admin)")
    .argument("<code>", "the join code")
    .option("--csv", "write the results as CSV (takers, then the item analysis)")
    .option("-o, --output <file>", "with --csv: the file to write (default: standard output)")
    .action(
      action(async (ctx, code: string, opts: { csv?: boolean; output?: string }) => {
        const results = await ctx.session.api.exams.mockResults.query({ code });
        if (opts.csv) {
          const file = writeCsv(results.csv, opts.output);
          if (file) process.stderr.write(`Wrote ${file}.\n`);
          return;
        }
        ctx.out(formatResults(results), results);
      }),
    );

  exams
    .command("list")
    .description(
      "Your exams (date, mode, size, score, status) and the mock exams you gave (join code, takers, status)",
    )
    .action(
      action(async (ctx) => {
        const { human, json } = await listExamsCommand(ctx.session.api);
        ctx.out(human, json);
      }),
    );
}
