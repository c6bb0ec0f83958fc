import { ArrowLeft, Pencil, Plus, Trash2 } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { scoreImprovement, SCORE_SUBJECT_LABELS, SCORE_SUBJECTS } from "@/core/stats";
import { Alert, useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { useConfirm } from "@/web/components/ui/dialog";
import { Spinner } from "@/web/components/ui/spinner";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/web/components/ui/table";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { cn } from "@/web/lib/utils";
import {
  bandTextClass,
  byYearNewestFirst,
  changeClass,
  formatChange,
  formatPercentile,
  SCORE_CALL_DEFAULTS,
  scoreFailureText,
  type PriteScore,
} from "./score-format";
import { PriteScoreForm } from "./score-form";

// recharts is large: it loads only when a trend can be drawn, never with the first page.
const ScoreTrendChart = lazy(() => import("./score-trend-chart"));

type View = { mode: "list" } | { mode: "form"; score: PriteScore | null };

function ImprovementSummary({ scores }: { scores: readonly PriteScore[] }) {
  const summary = scoreImprovement(scores);
  if (!summary) return null;
  return (
    <Card aria-labelledby="score-improvement-title" data-testid="score-improvement">
      <CardHeader>
        <CardTitle id="score-improvement-title">{summary.title}</CardTitle>
        <p className="text-sm text-muted-foreground">
          {summary.fromYear === summary.toYear
            ? `PRITE ${summary.toYear}`
            : `PRITE ${summary.fromYear} to ${summary.toYear}`}
        </p>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-3 gap-2 text-center sm:grid-cols-5">
          {SCORE_SUBJECTS.map((subject) => {
            const change = summary.changes[subject];
            return (
              <div key={subject} className="flex min-w-0 flex-col gap-1 rounded-md bg-muted/50 p-2">
                <dt className="text-xs break-words text-muted-foreground">
                  {SCORE_SUBJECT_LABELS[subject]}
                </dt>
                <dd className={cn("text-lg font-semibold", changeClass(change))}>
                  {formatChange(change)}
                </dd>
              </div>
            );
          })}
        </dl>
      </CardContent>
    </Card>
  );
}

function ScoreTable({
  scores,
  onEdit,
  onDelete,
}: {
  scores: readonly PriteScore[];
  onEdit: (score: PriteScore) => void;
  onDelete: (score: PriteScore) => void;
}) {
  return (
    <Table aria-label="PRITE scores">
      <TableHeader>
        <TableRow>
          <TableHead>Year</TableHead>
          {SCORE_SUBJECTS.map((subject) => (
            <TableHead key={subject}>{SCORE_SUBJECT_LABELS[subject]}</TableHead>
          ))}
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {scores.map((score) => (
          <TableRow key={score._id}>
            <TableCell className="font-medium">{score.year}</TableCell>
            <TableCell className={cn("font-semibold", bandTextClass(score.overallPercentile))}>
              {formatPercentile(score.overallPercentile)}
            </TableCell>
            <TableCell>
              {formatPercentile(score.psychiatryPercentile, { optional: true })}
            </TableCell>
            <TableCell>
              {formatPercentile(score.neurosciencePercentile, { optional: true })}
            </TableCell>
            <TableCell>{formatPercentile(score.somaPercentile, { optional: true })}</TableCell>
            <TableCell>{formatPercentile(score.growthPercentile, { optional: true })}</TableCell>
            <TableCell className="text-right whitespace-nowrap">
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Edit ${score.year} score`}
                onClick={() => onEdit(score)}
              >
                <Pencil aria-hidden="true" />
              </Button>
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Delete ${score.year} score`}
                onClick={() => onDelete(score)}
                className="text-destructive hover:text-destructive"
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Settings › PRITE Scores (docs/product/screens.md Score history, states.md and validation.md). */
export function ScoreHistory() {
  const scoresQuery = trpc.scores.list.useQuery(undefined);
  const utils = trpc.useUtils();
  const remove = trpc.scores.delete.useMutation();
  const { confirm, dialog } = useConfirm();
  const { show, banner } = useBanner();
  const [view, setView] = useState<View>({ mode: "list" });

  if (view.mode === "form") {
    return (
      <div className="flex flex-col gap-4">
        <Button variant="link" className="w-fit px-0" onClick={() => setView({ mode: "list" })}>
          <ArrowLeft aria-hidden="true" />
          Back to Score History
        </Button>
        <Card>
          <CardHeader>
            <CardTitle>{view.score ? "Edit PRITE Score" : "Add PRITE Score"}</CardTitle>
          </CardHeader>
          <CardContent>
            <PriteScoreForm initial={view.score} onComplete={() => setView({ mode: "list" })} />
          </CardContent>
        </Card>
      </div>
    );
  }

  const deleteScore = async (score: PriteScore) => {
    const yes = await confirm({
      title: "Delete score record",
      description: "Are you sure you want to delete this score record?",
      confirmLabel: "Delete",
      destructive: true,
    });
    if (!yes) return;
    try {
      await remove.mutateAsync({ id: score._id });
      await utils.scores.list.invalidate();
      show("success", "Score deleted successfully");
    } catch (error) {
      show(
        "error",
        scoreFailureText(error, SCORE_CALL_DEFAULTS.DELETE, "Failed to delete score record"),
      );
    }
  };

  const scores = scoresQuery.data ?? [];
  const ordered = byYearNewestFirst(scores);
  const withSections = ordered.filter((s) => s.sections.length > 0);
  const withNotes = ordered.filter((s) => s.notes.trim() !== "");
  const addButton = (label: string) => (
    <Button onClick={() => setView({ mode: "form", score: null })}>
      <Plus aria-hidden="true" />
      {label}
    </Button>
  );

  return (
    <div className="flex flex-col gap-4">
      {dialog}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold">PRITE Score History</h2>
        {addButton("Add New Score")}
      </div>
      {banner}
      {scoresQuery.error && (
        <div className="flex flex-col items-start gap-3">
          {/* No timer; after a failed first load 'Try again' stays even if the banner is dismissed. */}
          <Alert key={scoresQuery.errorUpdatedAt} type="error" autoCloseMs={null}>
            {errorMessage(scoresQuery.error, SCORE_CALL_DEFAULTS.FETCH_ALL)}
          </Alert>
          {scoresQuery.data === undefined && (
            <Button
              variant="outline"
              busy={scoresQuery.isFetching}
              onClick={() => void scoresQuery.refetch()}
            >
              Try again
            </Button>
          )}
        </div>
      )}
      {scoresQuery.isPending ? (
        <div className="flex justify-center py-8">
          <Spinner label="Loading PRITE scores..." />
        </div>
      ) : scoresQuery.data === undefined ? null : scores.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-start gap-4">
            <p>
              You haven&apos;t added any PRITE scores yet. Adding your scores helps track your
              progress over time.
            </p>
            {addButton("Add Your PRITE Scores")}
          </CardContent>
        </Card>
      ) : (
        <>
          {scores.length >= 2 && <ImprovementSummary scores={scores} />}
          {scores.length >= 2 && (
            <Card>
              <CardHeader>
                <CardTitle>Percentile Trend</CardTitle>
              </CardHeader>
              <CardContent>
                <Suspense
                  fallback={
                    <div className="flex h-72 items-center justify-center">
                      <Spinner label="Loading chart..." />
                    </div>
                  }
                >
                  <ScoreTrendChart scores={scores} />
                </Suspense>
              </CardContent>
            </Card>
          )}
          <ScoreTable
            scores={ordered}
            onEdit={(score) => setView({ mode: "form", score })}
            onDelete={(score) => void deleteScore(score)}
          />
          {withSections.length > 0 && (
            <section aria-labelledby="additional-sections" className="flex flex-col gap-2">
              <h3 id="additional-sections" className="font-semibold">
                Additional Sections
              </h3>
              <Table aria-label="Additional Sections">
                <TableHeader>
                  <TableRow>
                    <TableHead>Year</TableHead>
                    <TableHead>Section</TableHead>
                    <TableHead>Percentile</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {withSections.flatMap((score) =>
                    score.sections.map((section, i) => (
                      <TableRow key={`${score._id}-${i}`}>
                        <TableCell>{score.year}</TableCell>
                        <TableCell>{section.name}</TableCell>
                        <TableCell>{section.percentile}%</TableCell>
                      </TableRow>
                    )),
                  )}
                </TableBody>
              </Table>
            </section>
          )}
          {withNotes.length > 0 && (
            <section aria-labelledby="score-notes" className="flex flex-col gap-2">
              <h3 id="score-notes" className="font-semibold">
                Notes
              </h3>
              <ul className="flex flex-col gap-3">
                {withNotes.map((score) => (
                  <li key={score._id} className="rounded-md border bg-card p-3">
                    <p className="text-sm font-medium">{score.year} PRITE Notes:</p>
                    <p className="mt-1 text-sm whitespace-pre-wrap">{score.notes}</p>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </div>
  );
}
