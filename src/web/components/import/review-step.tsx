import { BULK_IMPORT } from "@/core/constants";
import type { ImportSettings, ParsedQuestion, RowError } from "@/core/import/types";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { AnswerBadge, OptionList } from "./question-fields";

interface ReviewStepProps {
  questions: readonly ParsedQuestion[];
  errors: readonly RowError[];
  skipped: number;
  settings: ImportSettings;
  onBack: () => void;
  onImport: () => void;
  importing: boolean;
}

/** SPEC §2 Bulk Import step 3 'Review Questions': the first 10 parsed questions and a summary. */
export function ReviewStep({
  questions,
  errors,
  skipped,
  settings,
  onBack,
  onImport,
  importing,
}: ReviewStepProps) {
  const shown = questions.slice(0, BULK_IMPORT.REVIEW_QUESTIONS_SHOWN);
  const withAnswers = questions.some((q) => q.correctAnswer !== "");
  const withCategories = settings.hasCategory && questions.some((q) => q.category !== "");

  return (
    <div className="grid gap-6">
      <section aria-labelledby="review-heading" className="grid gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id="review-heading" className="font-semibold">
            Review Questions
          </h3>
          <p className="text-sm text-muted-foreground">
            Showing {shown.length} of {questions.length} questions
          </p>
        </div>
        <ol className="grid gap-3">
          {shown.map((q, i) => (
            <li key={i} className="grid gap-2 rounded-md border p-3">
              <div className="flex flex-wrap gap-1.5">
                {q.number != null && <Badge variant="outline">#{q.number}</Badge>}
                <AnswerBadge answer={q.correctAnswer} />
                {q.category && <Badge variant="info">{q.category}</Badge>}
                <Badge variant="secondary">Part {q.part}</Badge>
                <Badge variant="secondary">{q.year}</Badge>
              </div>
              <p className="break-words whitespace-pre-wrap">{q.text}</p>
              <OptionList options={q.options} correctAnswer={q.correctAnswer} />
              {q.explanation && (
                <p className="text-sm break-words whitespace-pre-wrap text-muted-foreground">
                  <span className="font-medium text-foreground">Explanation: </span>
                  {q.explanation}
                </p>
              )}
            </li>
          ))}
        </ol>
      </section>

      {errors.length > 0 && <RowErrorList errors={errors} />}

      <Card className="gap-3 py-4">
        <CardHeader>
          <CardTitle className="text-base">Import Summary</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-1 text-sm">
            <li>
              <span className="text-muted-foreground">PRITE Part:</span> {settings.part}
            </li>
            <li>
              <span className="text-muted-foreground">PRITE Year:</span> {settings.year}
            </li>
            <li>
              <span className="text-muted-foreground">Questions:</span> {questions.length}
            </li>
            <li>Questions will be assigned to your account</li>
            <li>
              {withCategories ? "Categories will be imported" : "Categories will not be imported"}
            </li>
            <li>{withAnswers ? "Answers will be imported" : "Answers will not be imported"}</li>
            {errors.length > 0 && (
              <li>
                {errors.length} {errors.length === 1 ? "row has" : "rows have"} problems (listed
                above)
              </li>
            )}
            {skipped > 0 && (
              <li className="text-muted-foreground">
                {skipped} {skipped === 1 ? "row was" : "rows were"} skipped (no question text)
              </li>
            )}
          </ul>
        </CardContent>
      </Card>

      <div className="flex flex-wrap justify-between gap-2">
        <Button variant="outline" onClick={onBack} disabled={importing}>
          Back
        </Button>
        <Button onClick={onImport} busy={importing}>
          {importing ? "Importing..." : "Import Questions"}
        </Button>
      </div>
    </div>
  );
}

const ERRORS_SHOWN = 50;

/** The rows that could not become (complete) questions, with the reason for each. */
export function RowErrorList({ errors }: { errors: readonly RowError[] }) {
  const shown = errors.slice(0, ERRORS_SHOWN);
  return (
    <section
      aria-labelledby="row-errors-heading"
      className="grid gap-2 rounded-md border border-warning/40 bg-warning-soft p-3 text-warning-soft-foreground"
    >
      <h3 id="row-errors-heading" className="font-semibold">
        Rows with problems ({errors.length})
      </h3>
      <ul className="grid max-h-64 gap-1 overflow-y-auto text-sm">
        {shown.map((error, i) => (
          <li key={i} className="break-words">
            {error.message.startsWith(`Row ${error.row}`)
              ? error.message
              : `Row ${error.row}: ${error.message}`}
          </li>
        ))}
      </ul>
      {errors.length > shown.length && (
        <p className="text-sm">and {errors.length - shown.length} more</p>
      )}
    </section>
  );
}
