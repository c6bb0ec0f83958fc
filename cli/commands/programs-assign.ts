/**
 * `prite programs assign|assignments|close|extend|reserve|release` (issue 32): a program's assignments
 * and reserved questions over the same procedures as the SPA and REST (docs/product/assignments.md).
 * `registerAssignmentCommands` adds them to the `programs` command, which programs.ts creates.
 */
import type { Command } from "commander";
import { EXAM_LIMITS, EXAM_MODES, EXAM_PARTS } from "../../src/core/exams";
import { pgyLabel } from "../../src/core/constants";
import {
  ASSIGNMENT_LIMITS,
  ASSIGNMENT_STATUS_LABELS,
  ZCreateAssignment,
  ZReserveQuestions,
  ZUpdateAssignment,
  type TCreateAssignment,
} from "../../src/core/programs/assignments";
import type {
  AssignmentList,
  AssignmentSummary,
} from "../../src/server/features/programs/assignments.service";
import { action } from "../command";
import { CliError, table } from "../output";
import type { Api } from "../runtime";

export interface AssignOptions {
  exam?: boolean;
  study?: boolean;
  size?: string;
  mode?: string;
  part?: string;
  secondsPerQuestion?: string;
  categories?: string;
  count?: string;
  due?: string;
  pgy?: string;
  title?: string;
}

const list = (text: string | undefined) =>
  text
    ?.split(",")
    .map((c) => c.trim())
    .filter(Boolean);

/** The options as the procedure's input, parsed by its own schema: a bad option is a usage error (2). */
export function assignInput(opts: AssignOptions): TCreateAssignment {
  if (!!opts.exam === !!opts.study) throw new CliError("Choose one: --exam or --study.", 2);
  if (!opts.due) throw new CliError("A due date is required: --due YYYY-MM-DD.", 2);
  const common = {
    title: opts.title,
    due: opts.due,
    pgyLevel: opts.pgy,
    categories: list(opts.categories),
  };
  const parsed = ZCreateAssignment.safeParse(
    opts.exam
      ? {
          kind: "exam",
          ...common,
          size: opts.size,
          mode: opts.mode,
          part: opts.part,
          secondsPerQuestion: opts.secondsPerQuestion,
        }
      : { kind: "study", ...common, count: opts.count },
  );
  if (!parsed.success) throw new CliError(parsed.error.issues[0]?.message ?? "Invalid options", 2);
  return parsed.data;
}

const minute = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

function describeAssignment(a: AssignmentSummary): string {
  const who = a.pgyLevel ? pgyLabel(a.pgyLevel) : "the whole program";
  const what =
    a.kind === "exam"
      ? `a ${a.mode} exam of ${a.questionCount} questions`
      : `a study set of ${a.questionCount} answers${a.categories.length ? ` in ${a.categories.join(", ")}` : ""}`;
  return `${what} for ${who}, due ${minute(a.dueAt)}`;
}

/** `prite programs assign`: an exam (the same questions for everyone) or a study set. */
export async function assignCommand(api: Api, opts: AssignOptions) {
  const { assignment, notice } = await api.assignments.create.mutate(assignInput(opts));
  return {
    human: [
      `Assigned ${describeAssignment(assignment)}.`,
      ...(notice ? [notice] : []),
      `Id: ${assignment.id}`,
    ].join("\n"),
    json: { ...assignment, notice },
  };
}

/** What `prite programs assignments` prints: per-resident statuses for directors, one's own otherwise. */
export function formatAssignments(result: AssignmentList): string {
  if (result.assignments.length === 0) return "No assignments yet.";
  if (result.role === "resident") {
    return table(
      result.assignments.map((a) => ({
        due: minute(a.dueAt),
        kind: a.kind,
        title: a.title,
        status: a.closedAt ? "closed" : ASSIGNMENT_STATUS_LABELS[a.status],
        progress: a.kind === "study" ? `${a.answered}/${a.questionCount}` : "",
        score: a.scorePercent === null ? "" : `${a.scorePercent}%`,
        id: a.id,
      })),
      ["due", "kind", "title", "status", "progress", "score", "id"],
    );
  }
  return result.assignments
    .map((a) => {
      const head = `${a.title || (a.kind === "exam" ? "Exam" : "Study set")} (${a.id}): ${describeAssignment(a)}${a.closedAt ? ", closed" : ""}`;
      const counts = Object.entries(a.counts)
        .map(([status, n]) => `${ASSIGNMENT_STATUS_LABELS[status as keyof typeof a.counts]} ${n}`)
        .join(", ");
      if (a.residents.length === 0) return `${head}\n  No residents in this class yet.`;
      const rows = table(
        a.residents.map((r) => ({
          resident: r.displayName || r.username,
          pgy: pgyLabel(r.pgyLevel),
          status: ASSIGNMENT_STATUS_LABELS[r.status],
          progress: a.kind === "study" ? `${r.answered}/${a.questionCount}` : "",
          score: r.scorePercent === null ? "" : `${r.scorePercent}%`,
        })),
        ["resident", "pgy", "status", "progress", "score"],
      );
      return `${head}\n${counts}\n${rows}`;
    })
    .join("\n\n");
}

export async function listAssignmentsCommand(api: Api) {
  const result = await api.assignments.list.query();
  return { human: formatAssignments(result), json: result };
}

function updateInput(id: string, change: { closed?: true; due?: string }) {
  const parsed = ZUpdateAssignment.safeParse({ assignmentId: id, ...change });
  if (!parsed.success) throw new CliError(parsed.error.issues[0]?.message ?? "Invalid options", 2);
  return parsed.data;
}

export async function closeCommand(api: Api, id: string) {
  const a = await api.assignments.update.mutate(updateInput(id, { closed: true }));
  return { human: `Closed ${a.title || a.id}: it takes no new work.`, json: a };
}

export async function extendCommand(api: Api, id: string, due: string | undefined) {
  if (!due) throw new CliError("A new due date is required: --due YYYY-MM-DD.", 2);
  const a = await api.assignments.update.mutate(updateInput(id, { due }));
  return { human: `${a.title || a.id} is now due ${minute(a.dueAt)}.`, json: a };
}

/** `prite programs reserve|release --ids a,b`: the program's own questions only, all or nothing. */
export async function reserveCommand(api: Api, ids: string | undefined, reserved: boolean) {
  const parsed = ZReserveQuestions.safeParse({ questionIds: list(ids) ?? [], reserved });
  if (!parsed.success) throw new CliError(parsed.error.issues[0]?.message ?? "Invalid options", 2);
  const result = await api.assignments.reserve.mutate(parsed.data);
  const n = `${result.updated} question${result.updated === 1 ? "" : "s"}`;
  return {
    human: reserved
      ? `Reserved ${n} for assessments: residents no longer see them outside an exam.`
      : `Released ${n}: residents see them again.`,
    json: result,
  };
}

/** Adds the assignment subcommands to `prite programs`. */
export function registerAssignmentCommands(programs: Command): void {
  programs
    .command("assign")
    .description(
      "Give the program or a PGY class an exam or a study set, due by a date (directors)",
    )
    .option("--exam", "a practice exam, the same questions for every resident")
    .option("--study", "a study set: a number of answers in Study")
    .option("--size <n>", `exam: questions, ${EXAM_LIMITS.SIZE_MIN}-${EXAM_LIMITS.SIZE_MAX}`)
    .option("--mode <mode>", `exam: ${EXAM_MODES.join(" or ")} (default timed)`)
    .option("--part <part>", `exam: PRITE part, ${EXAM_PARTS.join(", ")} (default both)`)
    .option(
      "--seconds-per-question <s>",
      `timed exam, ${EXAM_LIMITS.SECONDS_MIN}-${EXAM_LIMITS.SECONDS_MAX} (default ${EXAM_LIMITS.SECONDS_DEFAULT})`,
    )
    .option("--categories <list>", "comma-separated categories (default: all)")
    .option(
      "--count <n>",
      `study set: answers to give, ${ASSIGNMENT_LIMITS.STUDY_COUNT_MIN}-${ASSIGNMENT_LIMITS.STUDY_COUNT_MAX}`,
    )
    .option("--due <date>", "due date, YYYY-MM-DD (the end of that day in your time zone)")
    .option("--pgy <n>", "only this PGY class (1-5, 6+); default the whole program")
    .option("--title <text>", "a title residents see")
    .action(
      action(async (ctx, opts: AssignOptions) => {
        const { human, json } = await assignCommand(ctx.session.api, opts);
        ctx.out(human, json);
      }),
    );

  programs
    .command("assignments")
    .description(
      "The program's assignments: each resident's status and score (directors), or yours",
    )
    .action(
      action(async (ctx) => {
        const { human, json } = await listAssignmentsCommand(ctx.session.api);
        ctx.out(human, json);
      }),
    );

  programs
    .command("close")
    .description("Close an assignment: it takes no new work (directors)")
    .argument("<id>", "the assignment's id")
    .action(
      action(async (ctx, id: string) => {
        const { human, json } = await closeCommand(ctx.session.api, id);
        ctx.out(human, json);
      }),
    );

  programs
    .command("extend")
    .description("Give an assignment a new due date, reopening it if closed (directors)")
    .argument("<id>", "the assignment's id")
    .requiredOption("--due <date>", "the new due date, YYYY-MM-DD")
    .action(
      action(async (ctx, id: string, opts: { due?: string }) => {
        const { human, json } = await extendCommand(ctx.session.api, id, opts.due);
        ctx.out(human, json);
      }),
    );

  for (const [name, reserved, description] of [
    [
      "reserve",
      true,
      "Reserve program questions for assessments: hidden from residents (directors)",
    ],
    ["release", false, "Release reserved program questions back to residents (directors)"],
  ] as const) {
    programs
      .command(name)
      .description(description)
      .requiredOption("--ids <list>", "comma-separated question ids of the program's bank")
      .action(
        action(async (ctx, opts: { ids?: string }) => {
          const { human, json } = await reserveCommand(ctx.session.api, opts.ids, reserved);
          ctx.out(human, json);
        }),
      );
  }
}
