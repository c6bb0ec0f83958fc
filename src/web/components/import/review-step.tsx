import { BULK_IMPORT } from "@/core/constants";
import { issueGroupLine, type IssueGroup } from "@/core/import/issue-groups";
import type { ImportSettings, ParsedQuestion, RowError } from "@/core/import/types";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import {
  VisibilityChoice,
  type VisibilityChoiceState,
} from "@/web/components/questions/visibility-choice";
import { AnswerBadge, OptionList } from "./question-fields";

interface ReviewStepProps {
  questions: readonly ParsedQuestion[];
  /** Rows that could not become questions. */
  errors: readonly RowError[];
  /** Rows that became questions with a note. */
  warnings: readonly RowError[];
  skipped: number;
  settings: ImportSettings;
  /** Who sees the imported questions. */
  visibility: VisibilityChoiceState;
  onBack: () => void;
  onImport: () => void;
  importing: boolean;
}

/** docs/product/screens.md Bulk Import step 3 'Review Questions': the first 10 parsed questions and a summary. */
export function ReviewStep({
  questions,
  errors,
  warnings,
  skipped,
  settings,
  visibility,
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

      {errors.length > 0 && <RowNoteList kind="errors" notes={errors} />}
      {warnings.length > 0 && <RowNoteList kind="warnings" notes={warnings} />}

      <VisibilityChoice state={visibility} />

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
                {errors.length} {errors.length === 1 ? "row" : "rows"} will not be imported (listed
                above)
              </li>
            )}
            {warnings.length > 0 && (
              <li>
                {warnings.length} {warnings.length === 1 ? "question comes" : "questions come"} in
                with a note (listed above)
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

const NOTES_SHOWN = 50;

const DECK_NOTE_KINDS = {
  errors: {
    title: "Notes not imported",
    intro: "These cards could not become questions:",
    className: "border-destructive/40 bg-error-soft text-error-soft-foreground",
  },
  warnings: {
    title: "Warnings",
    intro: "These notes were imported; check them after the import:",
    className: "border-warning/40 bg-warning-soft text-warning-soft-foreground",
  },
  skipped: {
    title: "Notes skipped",
    intro: "These notes did not become questions:",
    className: "border-input bg-muted/60",
  },
} as const;

const NOTE_KINDS = {
  errors: {
    title: "Rows not imported",
    intro: "These rows could not become questions:",
    className: "border-destructive/40 bg-error-soft text-error-soft-foreground",
  },
  warnings: {
    title: "Rows imported with a note",
    intro: "These rows became questions; check them after the import:",
    className: "border-warning/40 bg-warning-soft text-warning-soft-foreground",
  },
} as const;

/**
 * Rows of the file with what happened to them and why: 'errors' could not become questions (the
 * 'Errors' count), 'warnings' did, with a note (e.g. imported without an answer).
 */
export function RowNoteList({
  kind,
  notes,
  unit = "Row",
  groups,
}: {
  kind: keyof typeof DECK_NOTE_KINDS;
  notes: readonly RowError[];
  /** An Anki deck's problems are by note ('Note 12: …'). */
  unit?: "Row" | "Note";
  /** One line per kind instead of one per row (a deck can warn on every note). */
  groups?: readonly IssueGroup[];
}) {
  const shown = notes.slice(0, NOTES_SHOWN);
  const { title, intro, className } =
    unit === "Note" || kind === "skipped" ? DECK_NOTE_KINDS[kind] : NOTE_KINDS[kind];
  const headingId = `${unit.toLowerCase()}-${kind}-heading`;
  return (
    <section
      aria-labelledby={headingId}
      className={`grid gap-2 rounded-md border p-3 ${className}`}
    >
      <h3 id={headingId} className="font-semibold">
        {title} ({notes.length})
      </h3>
      <p className="text-sm">{intro}</p>
      <ul className="grid max-h-64 gap-1 overflow-y-auto text-sm">
        {groups?.map((group, i) => (
          <li key={i} className="break-words">
            {issueGroupLine(group, unit === "Note" ? "note" : "row")}
          </li>
        ))}
        {!groups &&
          shown.map((note, i) => (
            <li key={i} className="break-words">
              {note.message.startsWith(`${unit} ${note.row}`)
                ? note.message
                : `${unit} ${note.row}: ${note.message}`}
            </li>
          ))}
      </ul>
      {!groups && notes.length > shown.length && (
        <p className="text-sm">and {notes.length - shown.length} more</p>
      )}
    </section>
  );
}

/** How many figures stand in a row from the `sm` width up (whole class names, so Tailwind sees them). */
const WIDE_COLUMNS = { 4: "sm:grid-cols-4", 5: "sm:grid-cols-5" } as const;

/**
 * A labelled row of figures, each a name above its number: a deck's contents (`anki-deck-steps.tsx`)
 * and an import's results (`import-complete.tsx`). Two to a row on a phone, all in one row from `sm` up.
 * Here beside `RowNoteList` because both screens already load this chunk for it: in a file of its own
 * it was a chunk of its own, one more request for half a kilobyte (decisions 255 and 421).
 */
export function StatGrid({
  label,
  stats,
  columns,
}: {
  /** The list's accessible name. */
  label: string;
  stats: readonly (readonly [label: string, value: number])[];
  columns: keyof typeof WIDE_COLUMNS;
}) {
  return (
    <dl className={`grid grid-cols-2 gap-3 ${WIDE_COLUMNS[columns]}`} aria-label={label}>
      {stats.map(([name, value]) => (
        <div key={name} className="rounded-md bg-muted/60 p-3 text-center">
          <dt className="text-sm text-muted-foreground">{name}</dt>
          <dd className="text-2xl font-semibold">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
