import type { Command } from "commander";
import { flagText, heatmapCsv, rosterCsv } from "../../src/core/programs/report";
import type { ProgramReport } from "../../src/server/features/programs/program-report.service";
import { action } from "../command";
import { CliError, table } from "../output";
import type { Api } from "../runtime";
import { writeCsv } from "./exams";

export interface ReportOptions {
  csv?: boolean;
  output?: string;
  table?: string;
}

const pct = (x: number | null) => (x === null ? "" : `${x}%`);
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "never");

/** The dashboard as a terminal reads it: the roster by PGY, then the class means beside the server's. */
export function formatReport(report: ProgramReport): string {
  const { program } = report;
  const head = `${program.name}${program.institution ? ` (${program.institution})` : ""}: ${report.residents.length} residents. Flags: inactive ${program.inactiveDays}+ days, accuracy below ${Math.round(program.accuracyFlag * 1000) / 10}%.`;
  if (report.residents.length === 0) return `${head}\nNo residents yet: share the join code.`;
  const roster = table(
    report.residents.map((r) => ({
      pgy: r.pgyLevel,
      username: r.username,
      "last active": day(r.lastActive),
      "7d": r.answered7,
      "30d": r.answered30,
      accuracy: pct(r.accuracy),
      due: r.dueBacklog,
      assignments: `${r.assignmentsDone}/${r.assignmentsTotal}`,
      flags: r.flags.map(flagText).join("; "),
    })),
    ["pgy", "username", "last active", "7d", "30d", "accuracy", "due", "assignments", "flags"],
  );
  const means = table(
    report.categories.map((c) => ({
      category: c,
      program: pct(report.programMeans[c]?.mean ?? null),
      server: pct(report.serverMeans[c]?.mean ?? null),
    })),
    ["category", "program", "server"],
  );
  return [
    head,
    "",
    roster,
    "",
    "Mean accuracy per category (residents with 5+ answers):",
    means,
  ].join("\n");
}

/** `prite programs report`: the human text, the JSON, and the CSV of the chosen table. */
export async function programReportCommand(api: Api, opts: ReportOptions) {
  const which = opts.table ?? "roster";
  if (which !== "roster" && which !== "heatmap") {
    throw new CliError("--table must be roster or heatmap", 2);
  }
  const report = await api.programReport.report.query();
  const csv =
    which === "roster"
      ? rosterCsv(report.residents)
      : heatmapCsv(report.categories, report.residents);
  return { human: formatReport(report), json: report, csv };
}

/**
 * Adds `report [--csv] [--table roster|heatmap] [-o FILE]` to the `programs` command (`--json` is the
 * global option): the program dashboard over `programReport.report`, for the program's directors.
 */
export function addProgramReportCommand(programs: Command): void {
  programs
    .command("report")
    .description(
      "Your program's dashboard: roster by PGY, flags, class and server means (directors)",
    )
    .option("--csv", "write a table as CSV instead (the roster unless --table heatmap)")
    .option("--table <table>", "with --csv: roster or heatmap (default roster)")
    .option("-o, --output <file>", "with --csv: the file to write (default: standard output)")
    .action(
      action(
        async (ctx, opts: ReportOptions) => {
          const { human, json, csv } = await programReportCommand(ctx.session.api, opts);
          if (opts.csv) {
            const file = writeCsv(csv, opts.output);
            if (file) process.stderr.write(`Wrote ${file}.\n`);
            return;
          }
          ctx.out(human, json);
        },
        {
          validate: ([opts]) => {
            if (opts.table && opts.table !== "roster" && opts.table !== "heatmap") {
              throw new CliError("--table must be roster or heatmap", 2);
            }
          },
        },
      ),
    );
}
