import type { Command } from "commander";
import {
  REPORT_KIND_LABELS,
  REPORT_KINDS,
  REPORT_STATUS_LABELS,
  type ReportKind,
  type ReportOutcome,
} from "../../src/core/reports";
import type { ReportJson } from "../../src/server/features/reports/reports-queue.service";
import { action } from "../command";
import { usage } from "../options";
import { table } from "../output";
import type { Api } from "../runtime";

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "");
const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The queue or "My reports" as a terminal reads it. */
export function formatReports(reports: ReportJson[], empty: string): string {
  if (reports.length === 0) return empty;
  return table(
    reports.map((r) => ({
      id: r.id,
      filed: day(r.createdAt),
      kind: REPORT_KIND_LABELS[r.kind],
      status:
        r.question.takedownPending && r.kind === "copyright" && r.status === "open"
          ? "Open (taken down)"
          : REPORT_STATUS_LABELS[r.status],
      question: oneLine(r.question.excerpt || "(no longer visible)", 50),
      comment: oneLine(r.comment, 50),
      answer: oneLine(r.response, 50),
    })),
    ["id", "filed", "kind", "status", "question", "comment", "answer"],
  );
}

/** `prite reports list [--open] [--mine]`: the review queue, or the caller's own reports. */
export async function listReportsCommand(api: Api, opts: { open?: boolean; mine?: boolean }) {
  if (opts.mine) {
    const mine = await api.reports.mine.query();
    const shown = opts.open ? mine.filter((r) => r.status === "open") : mine;
    return { human: formatReports(shown, "You have not reported any question."), json: shown };
  }
  const queue = await api.reports.queue.query({ open: Boolean(opts.open) });
  const head = `${queue.openCount} open report${queue.openCount === 1 ? "" : "s"} to handle.`;
  const body = formatReports(queue.reports, "No reports on questions you handle.");
  return { human: `${head}\n${body}`, json: queue };
}

export interface ResolveOptions {
  fix?: boolean;
  dismiss?: boolean;
  answer?: boolean;
  note?: string;
}

/** Which one of --fix, --dismiss and --answer was given. */
export function outcomeOf(opts: ResolveOptions): ReportOutcome {
  const chosen = (
    [
      ["fixed", opts.fix],
      ["dismissed", opts.dismiss],
      ["answered", opts.answer],
    ] as const
  ).filter(([, on]) => on);
  if (chosen.length !== 1) throw usage("Give one of --fix, --dismiss or --answer.");
  return chosen[0]![0];
}

/** `prite reports resolve ID --fix|--dismiss|--answer --note "…"`. */
export async function resolveReportCommand(api: Api, id: string, opts: ResolveOptions) {
  const outcome = outcomeOf(opts);
  const report = await api.reports.resolve.mutate({ id, outcome, note: opts.note ?? "" });
  const human = `Report ${report.id} is ${REPORT_STATUS_LABELS[report.status].toLowerCase()}${
    report.response ? `: "${report.response}"` : "."
  } The reporter sees it under My reports.`;
  return { human, json: report };
}

/** `prite reports add QUESTION_ID --kind KIND [--comment "…"]`. */
export async function addReportCommand(
  api: Api,
  questionId: string,
  opts: { kind: string; comment?: string },
) {
  const { report, takenDown } = await api.reports.create.mutate({
    questionId,
    kind: opts.kind as ReportKind,
    comment: opts.comment ?? "",
  });
  const human = takenDown
    ? `Reported (${REPORT_KIND_LABELS[report.kind]}). With the other copyright reports, the question is now out of public view until an admin decides.`
    : `Reported (${REPORT_KIND_LABELS[report.kind]}): report ${report.id}. Its owner will answer it.`;
  return { human, json: { report, takenDown } };
}

/** `prite reports takedown QUESTION_ID --restore|--keep [--note "…"]` (admins). */
export async function takedownCommand(
  api: Api,
  questionId: string,
  opts: { restore?: boolean; keep?: boolean; note?: string },
) {
  if (Boolean(opts.restore) === Boolean(opts.keep)) throw usage("Give one of --restore or --keep.");
  const decision = opts.restore ? "restore" : "keep";
  const done = await api.reports.decideTakedown.mutate({
    questionId,
    decision,
    note: opts.note ?? "",
  });
  const human =
    decision === "restore"
      ? `Restored to public view; ${done.closedReports} copyright report(s) dismissed.`
      : `Kept out of public view; ${done.closedReports} copyright report(s) closed as fixed.`;
  return { human, json: done };
}

/** `prite reports …`: the review queue of reports on questions (issue 36, docs/product/reports.md). */
export function registerReportCommands(program: Command): void {
  const reports = program
    .command("reports")
    .description(
      "Reports on questions: your review queue, your own reports, resolving and takedowns",
    )
    .addHelpText(
      "after",
      `
Examples:
  $ prite reports list --open
  $ prite reports list --mine --json
  $ prite reports resolve 6f1c… --fix --note "Key corrected to C"
  $ prite reports resolve 6f1c… --answer --note "B is right: see the 2023 guideline"
  $ prite reports add 0b7e… --kind wrong_answer --comment "The key says A; the explanation says C"
  $ prite reports takedown 0b7e… --restore --note "Written by the owner"`,
    );

  reports
    .command("list")
    .description("Reports on the questions you handle, takedowns first (--mine: those you filed)")
    .option("--open", "only open reports")
    .option("--mine", "the reports you filed, with their answers")
    .action(
      action(async (ctx, opts: { open?: boolean; mine?: boolean }) => {
        const { human, json } = await listReportsCommand(ctx.session.api, opts);
        ctx.out(human, json);
      }),
    );

  reports
    .command("resolve")
    .description("Close a report: fixed, dismissed or answered, with a note the reporter reads")
    .argument("<id>", "the report's id (from `prite reports list`)")
    .option("--fix", "you corrected the question (edit it first)")
    .option("--dismiss", "nothing needs changing")
    .option("--answer", "reply to the reporter (needs --note)")
    .option("--note <text>", "what the reporter reads")
    .action(
      action(
        async (ctx, id: string, opts: ResolveOptions) => {
          const { human, json } = await resolveReportCommand(ctx.session.api, id, opts);
          ctx.out(human, json);
        },
        { validate: ([, opts]) => void outcomeOf(opts) },
      ),
    );

  reports
    .command("add")
    .description("Report a problem with a question you can see")
    .argument("<questionId>", "the question's id")
    .requiredOption("--kind <kind>", `one of: ${REPORT_KINDS.join(", ")}`)
    .option("--comment <text>", "what is wrong (required for other)")
    .action(
      action(
        async (ctx, questionId: string, opts: { kind: string; comment?: string }) => {
          const { human, json } = await addReportCommand(ctx.session.api, questionId, opts);
          ctx.out(human, json);
        },
        {
          validate: ([, opts]) => {
            if (!(REPORT_KINDS as readonly string[]).includes(opts.kind))
              throw usage(`--kind must be one of: ${REPORT_KINDS.join(", ")}.`);
          },
        },
      ),
    );

  reports
    .command("takedown")
    .description("Decide on a question taken down for copyright: --restore or --keep (admins)")
    .argument("<questionId>", "the question's id")
    .option("--restore", "back to public view; its copyright reports are dismissed")
    .option("--keep", "keep it private to its owner; its copyright reports are closed")
    .option("--note <text>", "what the reporters and the owner read")
    .action(
      action(
        async (
          ctx,
          questionId: string,
          opts: { restore?: boolean; keep?: boolean; note?: string },
        ) => {
          const { human, json } = await takedownCommand(ctx.session.api, questionId, opts);
          ctx.out(human, json);
        },
        {
          validate: ([, opts]) => {
            if (Boolean(opts.restore) === Boolean(opts.keep))
              throw usage("Give one of --restore or --keep.");
          },
        },
      ),
    );
}
