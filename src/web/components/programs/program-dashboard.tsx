import { Download } from "lucide-react";
import { lazy, Suspense, useState, type FormEvent } from "react";
import { heatmapCsv, rosterCsv } from "@/core/programs/report";
import { PageHeader } from "@/web/components/layout/page-header";
import { ProgramNav } from "@/web/components/programs/program-nav";
import { downloadText } from "@/web/components/settings/download";
import { Alert, useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Spinner } from "@/web/components/ui/spinner";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { dayOf, FlagList, HeatCell, pct, pgyLabel, type ProgramReport } from "./report-parts";

const ClassScoreChart = lazy(() => import("./class-score-chart"));

function Roster({ report }: { report: ProgramReport }) {
  return (
    <div
      className="w-full overflow-x-auto rounded-md border"
      tabIndex={0}
      role="region"
      aria-label="Roster"
    >
      <table className="w-full text-sm" data-testid="program-roster">
        <caption className="sr-only">
          Residents by PGY with their activity, accuracy, backlog, assignments and flags
        </caption>
        <thead className="bg-muted/50">
          <tr>
            {[
              "PGY",
              "Resident",
              "Last active",
              "7 days",
              "30 days",
              "Accuracy",
              "Due",
              "Assignments",
              "Flags",
            ].map((h) => (
              <th key={h} scope="col" className="whitespace-nowrap px-2 py-2 text-left font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.residents.map((r) => (
            <tr key={r.userId} className="border-t">
              <td className="whitespace-nowrap px-2 py-2">{pgyLabel(r.pgyLevel)}</td>
              <th scope="row" className="whitespace-nowrap px-2 py-2 text-left font-medium">
                {r.displayName || r.username}
                {r.displayName && (
                  <span className="block text-xs text-muted-foreground">{r.username}</span>
                )}
              </th>
              <td className="whitespace-nowrap px-2 py-2">{dayOf(r.lastActive)}</td>
              <td className="px-2 py-2 tabular-nums">{r.answered7}</td>
              <td className="px-2 py-2 tabular-nums">{r.answered30}</td>
              <td className="px-2 py-2 tabular-nums">{pct(r.accuracy)}</td>
              <td className="px-2 py-2 tabular-nums">{r.dueBacklog}</td>
              <td className="px-2 py-2 tabular-nums">
                {r.assignmentsDone}/{r.assignmentsTotal}
              </td>
              <td className="px-2 py-2">
                <FlagList flags={r.flags} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Heatmap({ report }: { report: ProgramReport }) {
  return (
    <div
      className="w-full overflow-x-auto rounded-md border"
      tabIndex={0}
      role="region"
      aria-label="Heatmap"
    >
      <table className="border-collapse text-sm" data-testid="program-heatmap">
        <caption className="sr-only">
          Accuracy per resident and category, with the number answered; empty under 5 answers
        </caption>
        <thead>
          <tr>
            <th scope="col" className="sticky left-0 bg-card px-2 py-2 text-left font-medium">
              Resident
            </th>
            {report.categories.map((c) => (
              <th key={c} scope="col" className="px-2 py-2 text-left text-xs font-medium">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.residents.map((r) => (
            <tr key={r.userId}>
              <th
                scope="row"
                className="sticky left-0 whitespace-nowrap bg-card px-2 py-1 text-left font-medium"
              >
                {r.username}{" "}
                <span className="text-xs text-muted-foreground">{pgyLabel(r.pgyLevel)}</span>
              </th>
              {report.categories.map((c) => (
                <HeatCell key={c} cell={r.cells[c]} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Means({ report }: { report: ProgramReport }) {
  return (
    <div
      className="w-full overflow-x-auto rounded-md border"
      tabIndex={0}
      role="region"
      aria-label="Class and server means"
    >
      <table className="w-full text-sm" data-testid="program-means">
        <caption className="sr-only">
          Mean accuracy per category: each class, the program and the server
        </caption>
        <thead className="bg-muted/50">
          <tr>
            <th scope="col" className="px-2 py-2 text-left font-medium">
              Category
            </th>
            {report.classMeans.map((c) => (
              <th
                key={c.pgyLevel}
                scope="col"
                className="whitespace-nowrap px-2 py-2 text-left font-medium"
              >
                {pgyLabel(c.pgyLevel)}
              </th>
            ))}
            <th scope="col" className="px-2 py-2 text-left font-medium">
              Program
            </th>
            <th scope="col" className="px-2 py-2 text-left font-medium">
              Server
            </th>
          </tr>
        </thead>
        <tbody>
          {report.categories.map((cat) => (
            <tr key={cat} className="border-t">
              <th scope="row" className="px-2 py-1 text-left font-medium">
                {cat}
              </th>
              {report.classMeans.map((c) => (
                <td key={c.pgyLevel} className="px-2 py-1 tabular-nums">
                  {pct(c.means[cat]?.mean)}
                </td>
              ))}
              <td className="px-2 py-1 tabular-nums">{pct(report.programMeans[cat]?.mean)}</td>
              <td className="px-2 py-1 tabular-nums">{pct(report.serverMeans[cat]?.mean)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Thresholds({ report }: { report: ProgramReport }) {
  const utils = trpc.useUtils();
  const save = trpc.programReport.setThresholds.useMutation({
    onSuccess: () => utils.programReport.report.invalidate(),
  });
  const { show, banner } = useBanner();
  const [days, setDays] = useState(String(report.program.inactiveDays));
  const [accuracy, setAccuracy] = useState(String(Math.round(report.program.accuracyFlag * 100)));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await save.mutateAsync({ inactiveDays: Number(days), accuracyFlag: Number(accuracy) / 100 });
      show("success", "Flag thresholds saved");
    } catch (error) {
      show("error", errorMessage(error, "Failed to save the thresholds"));
    }
  };
  return (
    <form className="flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={(e) => void submit(e)}>
      {banner}
      <div className="flex flex-col gap-1">
        <Label htmlFor="flag-days">Flag when inactive for (days)</Label>
        <Input
          id="flag-days"
          type="number"
          min={1}
          max={365}
          value={days}
          onChange={(e) => setDays(e.target.value)}
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="flag-accuracy">Flag accuracy below (%)</Label>
        <Input
          id="flag-accuracy"
          type="number"
          min={0}
          max={100}
          value={accuracy}
          onChange={(e) => setAccuracy(e.target.value)}
        />
      </div>
      <Button type="submit" disabled={save.isPending}>
        Save Thresholds
      </Button>
    </form>
  );
}

/** `/program` for directors (docs/product/program-dashboard.md): figures only, never an answer. */
export function ProgramDashboard() {
  const report = trpc.programReport.report.useQuery();
  const r = report.data;
  const flagged = r?.residents.filter((x) => x.flags.length > 0) ?? [];
  return (
    <div className="space-y-4">
      <PageHeader
        title="Program Dashboard"
        description={
          r
            ? `${r.program.name}${r.program.institution ? ` · ${r.program.institution}` : ""}`
            : undefined
        }
      />
      <ProgramNav />
      {report.isError && (
        <Alert type="error" autoCloseMs={null}>
          {errorMessage(report.error, "Failed to load the program dashboard")}
        </Alert>
      )}
      {report.isPending && <Spinner label="Loading..." showLabel />}
      {r && (
        <>
          <Card>
            <CardHeader>
              <CardTitle>Flags</CardTitle>
              <CardDescription>
                Inactive for {r.program.inactiveDays} days or more, or accuracy below{" "}
                {Math.round(r.program.accuracyFlag * 100)}% (from 5 answers).
              </CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              {flagged.length === 0 ? (
                <p className="text-sm text-muted-foreground">No resident is flagged.</p>
              ) : (
                <ul className="space-y-2" data-testid="program-flags">
                  {flagged.map((x) => (
                    <li key={x.userId} className="flex flex-wrap items-center gap-2 text-sm">
                      <span className="font-medium">{x.username}</span>
                      <FlagList flags={x.flags} />
                    </li>
                  ))}
                </ul>
              )}
              <Thresholds report={r} />
            </CardContent>
          </Card>

          <Card>
            <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
              <CardTitle>Roster</CardTitle>
              <Button
                variant="outline"
                size="sm"
                onClick={() => downloadText(rosterCsv(r.residents), "program-roster.csv")}
              >
                <Download className="size-4" aria-hidden="true" /> Roster CSV
              </Button>
            </CardHeader>
            <CardContent>
              {r.residents.length === 0 ? (
                <p className="text-sm text-muted-foreground">
                  No residents yet: share the join code from Members.
                </p>
              ) : (
                <Roster report={r} />
              )}
            </CardContent>
          </Card>

          <Card>
            <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
              <div>
                <CardTitle>Heatmap</CardTitle>
                <CardDescription>
                  Accuracy per category with the number answered; empty under 5 answers.
                </CardDescription>
              </div>
              <Button
                variant="outline"
                size="sm"
                onClick={() =>
                  downloadText(heatmapCsv(r.categories, r.residents), "program-heatmap.csv")
                }
              >
                <Download className="size-4" aria-hidden="true" /> Heatmap CSV
              </Button>
            </CardHeader>
            <CardContent>
              <Heatmap report={r} />
              <p className="mt-2 text-xs text-muted-foreground">
                Bands: 80%+ green, 65-79% blue, 50-64% amber, under 50% red.
              </p>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Class and Server Means</CardTitle>
              <CardDescription>
                Mean of each resident&apos;s accuracy (5+ answers in the category); the
                server&apos;s from users who share usage data.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Means report={r} />
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>PRITE Score History</CardTitle>
              <CardDescription>
                Mean overall percentile per class, from residents who share their scores.
              </CardDescription>
            </CardHeader>
            <CardContent>
              {r.scoreHistory.length === 0 ? (
                <p className="text-sm text-muted-foreground">
                  No resident shares their scores yet.
                </p>
              ) : (
                <Suspense fallback={<Spinner label="Loading chart..." />}>
                  <ClassScoreChart history={r.scoreHistory} />
                </Suspense>
              )}
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}
