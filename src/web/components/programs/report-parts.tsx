import type { ReactNode } from "react";
import { flagText, type Flag, type HeatmapCell } from "@/core/programs/report";
import type { RouterOutputs } from "@/web/lib/trpc";

export type ProgramReport = RouterOutputs["programReport"]["report"];
export type ResidentFigures = ProgramReport["residents"][number];

export const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? "—" : `${x}%`;
export const pgyLabel = (pgy: string) => (/^\d+$/.test(pgy) ? `PGY-${pgy}` : pgy || "No PGY");
export const dayOf = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" }) : "Never";

/** A heatmap cell's colour band: the number is always printed too (never colour alone). */
export function cellClass(accuracy: number | null): string {
  if (accuracy === null) return "bg-muted/40 text-muted-foreground";
  if (accuracy >= 80)
    return "bg-emerald-100 text-emerald-950 dark:bg-emerald-900 dark:text-emerald-50";
  if (accuracy >= 65) return "bg-sky-100 text-sky-950 dark:bg-sky-900 dark:text-sky-50";
  if (accuracy >= 50) return "bg-amber-100 text-amber-950 dark:bg-amber-900 dark:text-amber-50";
  return "bg-red-100 text-red-950 dark:bg-red-900 dark:text-red-50";
}

export function FlagList({ flags }: { flags: readonly Flag[] }) {
  if (flags.length === 0) return <span className="text-muted-foreground">None</span>;
  return (
    <ul className="flex flex-col gap-1">
      {flags.map((f) => (
        <li key={f.kind}>
          <span className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-medium text-red-950 dark:bg-red-900 dark:text-red-50">
            {flagText(f)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function HeatCell({ cell }: { cell: HeatmapCell | undefined }) {
  const answered = cell?.answered ?? 0;
  const accuracy = cell?.accuracy ?? null;
  return (
    <td
      className={`min-w-16 border px-2 py-1 text-center tabular-nums ${cellClass(accuracy)}`}
      title={
        accuracy === null
          ? `${answered} answered (fewer than 5: no accuracy shown)`
          : `${accuracy}% correct of ${answered}`
      }
    >
      <span className="block font-medium">{accuracy === null ? "—" : `${accuracy}%`}</span>
      <span className="block text-xs">n={answered}</span>
    </td>
  );
}

/** Definition rows of one resident's figures: the roster's columns, for "What my program sees". */
export function FiguresList({ row }: { row: ResidentFigures }) {
  const items: [string, ReactNode][] = [
    ["PGY", pgyLabel(row.pgyLevel)],
    ["Last active", dayOf(row.lastActive)],
    ["Answered, last 7 days", row.answered7],
    ["Answered, last 30 days", row.answered30],
    ["Answered in all", row.answered],
    ["Accuracy", pct(row.accuracy)],
    ["Due backlog", row.dueBacklog],
    ["Assignments done", `${row.assignmentsDone} of ${row.assignmentsTotal}`],
    ["Flags", <FlagList key="flags" flags={row.flags} />],
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-2">
      {items.map(([label, value]) => (
        <div key={label} className="flex justify-between gap-4 border-b py-1">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="text-right font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
