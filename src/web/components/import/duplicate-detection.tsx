import { CircleCheck, TriangleAlert } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ParsedQuestion } from "@/core/import/types";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Progress } from "@/web/components/ui/progress";
import { SpinnerIcon } from "@/web/components/ui/spinner";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { DuplicateDialog } from "./duplicate-dialog";
import {
  DUPLICATE_CHECK_BATCH,
  buildCommitItems,
  chunk,
  percentDone,
  previewText,
  toImportItem,
  type CommitItem,
  type DuplicateItem,
  type Resolution,
} from "@/core/import/plan";
import { ImportError } from "@/core/import/errors";
import type { VisibilityRequest } from "@/web/components/questions/visibility-draft";

export interface CommitSummary {
  total: number;
  duplicates: number;
  merged: number;
  imported: number;
  skipped: number;
}

type Stage =
  | { kind: "checking"; done: number }
  | { kind: "checked"; duplicates: DuplicateItem[] }
  | { kind: "resolving"; duplicates: DuplicateItem[] }
  | { kind: "saving" }
  | { kind: "checkFailed" }
  | { kind: "saveFailed"; retry: () => void };

/** What imports.commit is sent: a file's rows or a deck's drafts, and the deck's options. */
export interface CommitInput extends VisibilityRequest {
  items: CommitItem<unknown>[];
  keepProgress?: boolean;
}

interface DuplicateDetectionProps {
  questions: readonly ParsedQuestion[];
  onCancel: () => void;
  onComplete: (summary: CommitSummary) => void;
  /** Who sees the created questions (docs/product/visibility.md), chosen before the import. */
  visibility: VisibilityRequest;
  /** What the check is sent for each question; a file's rows by default. */
  checkItems?: readonly object[];
  /**
   * Builds the commit from the resolutions (an Anki deck uploads its images here first); a file's
   * rows by default.
   */
  prepare?: (
    duplicates: readonly DuplicateItem[],
    resolutions: ReadonlyMap<number, Resolution>,
  ) => Promise<CommitInput>;
}

/** The message for a failed call: the server's words after the screen's prefix, or the bare default. */
function withDetail(prefix: string, error: unknown, bare: string): string {
  const detail = errorMessage(error, error instanceof Error ? error.message : "").trim();
  return detail ? `${prefix}: ${detail}` : bare;
}

/**
 * docs/product/screens.md 'Duplicate detection screen': checks the parsed questions against the bank in batches
 * (a percentage while it runs), then either saves at once or lets the user review the duplicates.
 * The save is one imports.commit call: all questions or none.
 */
export function DuplicateDetection({
  questions,
  onCancel,
  onComplete,
  visibility,
  checkItems,
  prepare,
}: DuplicateDetectionProps) {
  const { show, clear, banner } = useBanner({ autoCloseMs: null });
  const [stage, setStage] = useState<Stage>({ kind: "checking", done: 0 });
  const [attempt, setAttempt] = useState(0);
  const checkDuplicates = trpc.imports.checkDuplicates.useMutation();
  const commit = trpc.imports.commit.useMutation();
  const utils = trpc.useUtils();

  // Stable references for the effect below (a mutation object changes on every render).
  const checkRef = useRef(checkDuplicates.mutateAsync);
  checkRef.current = checkDuplicates.mutateAsync;
  const completeRef = useRef(onComplete);
  completeRef.current = onComplete;
  const commitRef = useRef(commit.mutateAsync);
  commitRef.current = commit.mutateAsync;
  const visibilityRef = useRef(visibility);
  visibilityRef.current = visibility;

  const save = useCallback(
    async (duplicates: readonly DuplicateItem[], resolutions: ReadonlyMap<number, Resolution>) => {
      clear();
      let items: CommitItem<unknown>[] = [];
      try {
        if (!prepare) items = buildCommitItems(questions, duplicates, resolutions);
      } catch (error) {
        show(
          "error",
          withDetail("Error resolving duplicates", error, "Error resolving duplicates"),
        );
        setStage({ kind: "resolving", duplicates: [...duplicates] });
        return;
      }
      setStage({ kind: "saving" });
      try {
        const input = {
          ...(prepare ? await prepare(duplicates, resolutions) : { items }),
          ...visibilityRef.current,
        };
        const result = await commitRef.current(input as Parameters<typeof commitRef.current>[0]);
        if (!result) throw new Error("");
        // The bank, the due list and the stats all changed.
        void utils.invalidate();
        completeRef.current({
          total: result.total,
          duplicates: result.duplicates,
          merged: result.merged,
          imported: result.imported,
          skipped: result.skipped,
        });
      } catch (error) {
        show(
          "error",
          error instanceof ImportError
            ? error.message
            : withDetail("Failed to save questions", error, "Failed to save questions"),
        );
        setStage({ kind: "saveFailed", retry: () => void save(duplicates, resolutions) });
      }
    },
    [questions, prepare, clear, show, utils],
  );

  // Cancel (or leaving the page) sends no further batch and ignores the one in flight (the check
  // is read-only): nothing is saved before the check is over, so the bank stays as it was.
  useEffect(() => {
    let cancelled = false;
    const run = async () => {
      setStage({ kind: "checking", done: 0 });
      const items = checkItems ?? questions.map(toImportItem);
      const duplicates: DuplicateItem[] = [];
      let done = 0;
      try {
        for (const batch of chunk(items, DUPLICATE_CHECK_BATCH)) {
          const offset = done;
          const { results } = await checkRef.current({
            questions: batch as Parameters<typeof checkRef.current>[0]["questions"],
          });
          if (cancelled) return;
          for (const result of results) {
            const question = questions[offset + result.index];
            if (result.isDuplicate && question && result.matches.length > 0) {
              duplicates.push({ index: offset + result.index, question, matches: result.matches });
            }
          }
          done += batch.length;
          setStage({ kind: "checking", done });
        }
      } catch (error) {
        if (cancelled) return;
        show(
          "error",
          withDetail("Error detecting duplicates", error, "Error detecting duplicates"),
        );
        setStage({ kind: "checkFailed" });
        return;
      }
      if (cancelled) return;
      setStage({ kind: "checked", duplicates });
    };
    void run();
    return () => {
      cancelled = true;
    };
  }, [questions, checkItems, attempt, show]);

  // With nothing to resolve the import goes ahead by itself (docs/product/screens.md).
  const checkedClean = stage.kind === "checked" && stage.duplicates.length === 0;
  useEffect(() => {
    if (!checkedClean) return;
    const timer = window.setTimeout(() => void save([], new Map()), 600);
    return () => window.clearTimeout(timer);
  }, [checkedClean, save]);

  const total = questions.length;
  const duplicates =
    stage.kind === "checked" || stage.kind === "resolving" ? stage.duplicates : null;

  return (
    <div className="grid gap-4">
      {banner}
      <Card>
        {stage.kind === "checking" && (
          <>
            <CardHeader>
              <CardTitle className="flex items-center gap-2 text-base">
                <SpinnerIcon className="size-5 text-primary" />
                Checking for duplicate questions...
              </CardTitle>
            </CardHeader>
            <CardContent className="grid gap-2">
              <Progress
                value={percentDone(stage.done, total)}
                aria-label="Duplicate check progress"
              />
              <p className="text-sm text-muted-foreground" aria-live="polite">
                {percentDone(stage.done, total)}% ({stage.done} of {total})
              </p>
            </CardContent>
            <CardFooter>
              <Button variant="outline" onClick={onCancel}>
                Cancel
              </Button>
            </CardFooter>
          </>
        )}

        {duplicates && (
          <>
            <CardHeader>
              <CardTitle className="flex items-center gap-2 text-base">
                {duplicates.length === 0 ? (
                  <CircleCheck className="size-5 text-success" aria-hidden="true" />
                ) : (
                  <TriangleAlert className="size-5 text-warning" aria-hidden="true" />
                )}
                Duplicate Detection Complete
              </CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              <dl className="grid grid-cols-2 gap-3">
                <Stat label="Total Questions" value={total} />
                <Stat label="Potential Duplicates" value={duplicates.length} />
              </dl>
              {duplicates.length === 0 && (
                <p role="status">No duplicates found. Proceeding with import.</p>
              )}
              {duplicates.length > 0 && (
                <DuplicateSummaryList duplicates={duplicates} checkItems={checkItems} />
              )}
            </CardContent>
            {duplicates.length > 0 && (
              <CardFooter className="flex-wrap justify-between">
                <Button variant="outline" onClick={onCancel}>
                  Cancel
                </Button>
                <Button onClick={() => setStage({ kind: "resolving", duplicates })}>
                  Review Duplicates
                </Button>
              </CardFooter>
            )}
          </>
        )}

        {stage.kind === "saving" && (
          <CardHeader>
            <CardTitle className="flex items-center gap-2 text-base">
              <SpinnerIcon className="size-5 text-primary" />
              Importing...
            </CardTitle>
          </CardHeader>
        )}

        {(stage.kind === "checkFailed" || stage.kind === "saveFailed") && (
          <>
            <CardHeader>
              <CardTitle className="text-base">
                {stage.kind === "checkFailed"
                  ? "The duplicate check did not finish"
                  : "The questions were not saved"}
              </CardTitle>
            </CardHeader>
            <CardContent>
              <p className="text-sm text-muted-foreground">
                Nothing was imported. You can try again or go back to the file.
              </p>
            </CardContent>
            <CardFooter className="flex-wrap justify-between">
              <Button variant="outline" onClick={onCancel}>
                Back
              </Button>
              <Button
                onClick={() => {
                  clear();
                  if (stage.kind === "saveFailed") stage.retry();
                  else setAttempt((a) => a + 1);
                }}
              >
                Try Again
              </Button>
            </CardFooter>
          </>
        )}
      </Card>

      {stage.kind === "resolving" && (
        <DuplicateDialog
          items={stage.duplicates}
          onCancel={onCancel}
          onDone={(resolutions) => void save(stage.duplicates, resolutions)}
        />
      )}
    </div>
  );
}

const SUMMARY_SHOWN = 20;

/** Each flagged question beside the start of its best match (docs/product/constants.md 'existing' preview). */
function DuplicateSummaryList({
  duplicates,
  checkItems,
}: {
  duplicates: readonly DuplicateItem[];
  checkItems?: readonly object[];
}) {
  const shown = duplicates.slice(0, SUMMARY_SHOWN);
  return (
    <ul aria-label="Potential duplicates" className="grid gap-1 text-sm">
      {shown.map((d) => {
        const best = d.matches[0];
        return (
          <li key={d.index} className="break-words">
            <span className="font-medium">
              {d.question.sourceRow
                ? `${checkItems ? "Note" : "Row"} ${d.question.sourceRow}`
                : `Question ${d.index + 1}`}
            </span>
            {best && (
              <span className="text-muted-foreground">
                {" "}
                matches &ldquo;{previewText(best.question.text)}&rdquo; (
                {Math.round(best.similarity.score * 100)}%)
              </span>
            )}
          </li>
        );
      })}
      {duplicates.length > shown.length && (
        <li className="text-muted-foreground">and {duplicates.length - shown.length} more</li>
      )}
    </ul>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-md bg-muted/60 p-3 text-center">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold">{value}</dd>
    </div>
  );
}
