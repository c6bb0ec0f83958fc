import { lazy, Suspense, useId, useState } from "react";
import { REPORT_KIND_LABELS, REPORT_STATUS_LABELS, type ReportOutcome } from "@/core/reports";
import { PageHeader } from "@/web/components/layout/page-header";
import { isFlashcard, type QuestionJson } from "@/web/components/questions/question-kind";
import { useBanner } from "@/web/components/ui/alert";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Field } from "@/web/components/ui/field";
import { Spinner } from "@/web/components/ui/spinner";
import { Textarea } from "@/web/components/ui/textarea";
import { useSessionUser } from "@/web/lib/session";
import { errorMessage, trpc, type RouterOutputs } from "@/web/lib/trpc";

type Report = RouterOutputs["reports"]["mine"][number];

// The editors load when one is opened, as in Browse.
const QuestionFormDialog = lazy(() =>
  import("@/web/components/questions/question-form-dialog").then((m) => ({
    default: m.QuestionFormDialog,
  })),
);
const FlashcardFormDialog = lazy(() =>
  import("@/web/components/questions/flashcard-form-dialog").then((m) => ({
    default: m.FlashcardFormDialog,
  })),
);

const day = (iso: string) => new Date(iso).toLocaleDateString();

const TAKEN_DOWN_TEXT =
  "Taken down: three readers reported it as copied from a copyrighted source. It is private to its owner until an admin restores it or keeps it down.";
const KEPT_DOWN_TEXT =
  "Kept down: an admin reviewed the copyright reports. It stays private to its owner.";

/** A report's question, kind, status and what both sides wrote. */
function ReportSummary({ report }: { report: Report }) {
  return (
    <div className="grid gap-1.5 text-sm">
      <div className="flex flex-wrap items-center gap-1.5">
        <Badge variant="outline">{REPORT_KIND_LABELS[report.kind]}</Badge>
        <Badge variant={report.status === "open" ? "warning" : "secondary"}>
          {REPORT_STATUS_LABELS[report.status]}
        </Badge>
        <span className="text-xs text-muted-foreground">
          {day(report.createdAt)} · {report.question.category || "Uncategorized"}
        </span>
      </div>
      <p className="line-clamp-3 break-words" data-testid="report-question">
        {report.question.excerpt || "(You can no longer see this question.)"}
      </p>
      {report.question.takedownPending && (
        <p
          className="rounded-md bg-warning-soft px-3 py-2 text-warning-soft-foreground"
          data-testid="takedown-notice"
        >
          {TAKEN_DOWN_TEXT}
        </p>
      )}
      {!report.question.takedownPending && report.question.takenDownAt && report.question.own && (
        <p className="text-muted-foreground">{KEPT_DOWN_TEXT}</p>
      )}
      {report.comment && (
        <p className="break-words">
          <span className="font-medium">Report: </span>“{report.comment}”
        </p>
      )}
      {report.response && (
        <p className="break-words" data-testid="report-response">
          <span className="font-medium">Answer: </span>
          {report.response}
        </p>
      )}
    </div>
  );
}

/** One report of the queue: the editor for the owner, then answer, fixed or dismiss with a note. */
function QueueItem({
  report,
  isAdmin,
  onEdit,
  onDone,
}: {
  report: Report;
  isAdmin: boolean;
  onEdit: (questionId: string) => void;
  onDone: (message: string) => void;
}) {
  const id = useId();
  const utils = trpc.useUtils();
  const resolve = trpc.reports.resolve.useMutation();
  const decide = trpc.reports.decideTakedown.useMutation();
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const open = report.status === "open";
  const takedown = report.question.takedownPending && report.kind === "copyright";

  const refresh = () =>
    Promise.all([utils.reports.queue.invalidate(), utils.reports.openCount.invalidate()]);
  const close = async (outcome: ReportOutcome) => {
    setError(null);
    try {
      await resolve.mutateAsync({ id: report.id, outcome, note });
      await refresh();
      onDone(`Report ${REPORT_STATUS_LABELS[outcome].toLowerCase()}: the reporter sees your note`);
    } catch (err) {
      setError(errorMessage(err, "The report could not be closed"));
    }
  };
  const onDecide = async (decision: "restore" | "keep") => {
    setError(null);
    try {
      await decide.mutateAsync({ questionId: report.questionId, decision, note });
      await refresh();
      onDone(decision === "restore" ? "Restored to public view" : "Kept out of public view");
    } catch (err) {
      setError(errorMessage(err, "The decision could not be saved"));
    }
  };

  return (
    <li className="grid gap-3 rounded-md border p-3" data-testid="queue-item">
      <ReportSummary report={report} />
      {open && (
        <div className="grid gap-2">
          {report.question.own && (
            <div>
              <Button variant="outline" size="sm" onClick={() => onEdit(report.questionId)}>
                Edit the question
              </Button>
            </div>
          )}
          <Field id={`${id}-note`} label="Note to the reporter" error={error}>
            {(control) => (
              <Textarea {...control} value={note} onChange={(e) => setNote(e.target.value)} />
            )}
          </Field>
          <div className="flex flex-wrap gap-2">
            {takedown && isAdmin ? (
              <>
                <Button size="sm" busy={decide.isPending} onClick={() => void onDecide("restore")}>
                  Restore to public
                </Button>
                <Button
                  size="sm"
                  variant="destructive"
                  busy={decide.isPending}
                  onClick={() => void onDecide("keep")}
                >
                  Keep it down
                </Button>
              </>
            ) : (
              <>
                <Button size="sm" busy={resolve.isPending} onClick={() => void close("fixed")}>
                  Mark fixed
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  busy={resolve.isPending}
                  onClick={() => void close("answered")}
                >
                  Answer
                </Button>
                <Button
                  size="sm"
                  variant="outline"
                  busy={resolve.isPending}
                  onClick={() => void close("dismissed")}
                >
                  Dismiss
                </Button>
              </>
            )}
          </div>
        </div>
      )}
    </li>
  );
}

/**
 * The Reports page (issue 36, docs/product/reports.md): the review queue of reports on the questions
 * the user handles (takedowns first), and "My reports" with their answers.
 */
export function ReportsPage() {
  const user = useSessionUser();
  const utils = trpc.useUtils();
  const [onlyOpen, setOnlyOpen] = useState(true);
  const queue = trpc.reports.queue.useQuery({ open: onlyOpen });
  const mine = trpc.reports.mine.useQuery();
  const { show, banner } = useBanner();
  const [editingId, setEditingId] = useState<string | null>(null);
  const editing = trpc.questions.get.useQuery(
    { id: editingId ?? "" },
    { enabled: editingId !== null },
  );
  const question = (editingId && editing.data ? editing.data : null) as QuestionJson | null;
  const editorProps = {
    open: true,
    onOpenChange: (open: boolean) => !open && setEditingId(null),
    onSaved: () => {
      show("success", "Question saved. Now mark the report fixed with a note.");
      void utils.reports.queue.invalidate();
    },
  };

  return (
    <div className="grid gap-4">
      <PageHeader
        title="Reports"
        description="Problems readers reported with questions, and your own reports."
      />
      {banner}
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
          <CardTitle>To handle{queue.data ? ` (${queue.data.openCount} open)` : ""}</CardTitle>
          <Button variant="ghost" size="sm" onClick={() => setOnlyOpen(!onlyOpen)}>
            {onlyOpen ? "Show closed too" : "Open only"}
          </Button>
        </CardHeader>
        <CardContent>
          {queue.isPending ? (
            <Spinner label="Loading reports..." showLabel />
          ) : (queue.data?.reports ?? []).length === 0 ? (
            <p className="text-muted-foreground">
              No reports on your questions{user.isAdmin ? " or on public questions" : ""}.
            </p>
          ) : (
            <ul className="grid gap-3" aria-label="Reports to handle">
              {queue.data!.reports.map((r) => (
                <QueueItem
                  key={r.id}
                  report={r}
                  isAdmin={user.isAdmin}
                  onEdit={setEditingId}
                  onDone={(message) => show("success", message)}
                />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>My reports</CardTitle>
        </CardHeader>
        <CardContent>
          {mine.isPending ? (
            <Spinner label="Loading your reports..." showLabel />
          ) : (mine.data ?? []).length === 0 ? (
            <p className="text-muted-foreground">
              You have not reported a question. “Report a problem” is under a question in Study, an
              exam's review and Browse.
            </p>
          ) : (
            <ul className="grid gap-3" aria-label="My reports">
              {mine.data!.map((r) => (
                <li key={r.id} className="rounded-md border p-3" data-testid="my-report">
                  <ReportSummary report={r} />
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Suspense fallback={null}>
        {question && isFlashcard(question) && (
          <FlashcardFormDialog key={question._id} flashcard={question} {...editorProps} />
        )}
        {question && !isFlashcard(question) && (
          <QuestionFormDialog key={question._id} question={question} {...editorProps} />
        )}
      </Suspense>
    </div>
  );
}
