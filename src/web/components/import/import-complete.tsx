import { Link } from "@tanstack/react-router";
import { CircleCheck } from "lucide-react";
import type { RowError } from "@/core/import/types";
import { Alert } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/web/components/ui/card";
import type { CommitSummary } from "./duplicate-detection";
import { StepIndicator } from "./step-indicator";
import { RowNoteList, StatGrid } from "./review-step";

interface ImportCompleteProps {
  summary: CommitSummary;
  /** Rows of the file that could not become questions: the 'Errors' count. */
  rowErrors: readonly RowError[];
  /** Rows that became questions with a note (e.g. without an answer): listed, not counted. */
  rowWarnings: readonly RowError[];
  onImportMore: () => void;
  /** An Anki deck's results: problems by note, flashcards counted as questions. */
  unit?: "Row" | "Note";
}

/** docs/product/screens.md 'Import Complete' and the page flow's complete screen, as one screen. */
export function ImportComplete({
  summary,
  rowErrors,
  rowWarnings,
  onImportMore,
  unit = "Row",
}: ImportCompleteProps) {
  const stats: [string, number][] = [
    ["Total", summary.total],
    ["Duplicates", summary.duplicates],
    ["Merged", summary.merged],
    ["Imported", summary.imported],
    ["Errors", rowErrors.length],
  ];
  return (
    <div className="grid gap-4">
      <StepIndicator step={4} />
      <Alert type="success">Successfully imported {summary.imported} questions!</Alert>
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <CircleCheck className="size-6 text-success" aria-hidden="true" />
            Import Complete
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          <StatGrid label="Import results" stats={stats} columns={5} />
          {summary.skipped > 0 && (
            <p className="text-sm text-muted-foreground">
              {summary.skipped} {summary.skipped === 1 ? "question was" : "questions were"} skipped.
            </p>
          )}
          {rowErrors.length > 0 && <RowNoteList kind="errors" notes={rowErrors} unit={unit} />}
          {rowWarnings.length > 0 && (
            <RowNoteList kind="warnings" notes={rowWarnings} unit={unit} />
          )}
        </CardContent>
        <CardFooter className="flex-wrap justify-between">
          <Button variant="outline" onClick={onImportMore}>
            Import More Questions
          </Button>
          <Button asChild>
            <Link to="/browse">View Questions</Link>
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}
