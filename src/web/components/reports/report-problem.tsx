import { Flag, TriangleAlert } from "lucide-react";
import { useId, useState } from "react";
import {
  REPORT_COMMENT_MAX,
  REPORT_KIND_LABELS,
  REPORT_KINDS,
  REPORTED_NOTICE,
  type ReportKind,
} from "@/core/reports";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";
import { Field } from "@/web/components/ui/field";
import { Textarea } from "@/web/components/ui/textarea";
import { errorMessage, trpc } from "@/web/lib/trpc";

/**
 * "Report a problem" (issue 36, docs/product/reports.md): what is wrong with a question and a comment,
 * sent to its owner's review queue. Shown in Study after checking, in the exam review and in Browse.
 */
export function ReportProblem({
  questionId,
  size = "sm",
}: {
  questionId: string;
  size?: "sm" | "default";
}) {
  const utils = trpc.useUtils();
  const create = trpc.reports.create.useMutation();
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<ReportKind>("wrong_answer");
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const id = useId();

  const send = async () => {
    setError(null);
    try {
      const { takenDown } = await create.mutateAsync({ questionId, kind, comment });
      setSent(
        takenDown
          ? "Reported. With the other copyright reports, the question has left public view until an admin decides."
          : "Reported. Its owner will look at it; their answer shows under Reports › My reports.",
      );
      setOpen(false);
      setComment("");
      void utils.reports.mine.invalidate();
    } catch (err) {
      setError(errorMessage(err, "The report could not be sent"));
    }
  };

  return (
    <div className="grid gap-1">
      <div>
        <Button
          variant="ghost"
          size={size}
          onClick={() => {
            setSent(null);
            setError(null);
            setOpen(true);
          }}
        >
          <Flag aria-hidden="true" />
          Report a problem
        </Button>
      </div>
      {sent && (
        <p role="status" className="text-sm text-muted-foreground">
          {sent}
        </p>
      )}
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Report a problem</DialogTitle>
            <DialogDescription>
              The question's owner sees your report (not your name) and can answer, fix or dismiss
              it.
            </DialogDescription>
          </DialogHeader>
          <form
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              void send();
            }}
          >
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">What is wrong?</legend>
              {REPORT_KINDS.map((k) => (
                <label key={k} className="flex min-h-11 items-center gap-3 rounded-md border px-3">
                  <input
                    type="radio"
                    name={`${id}-kind`}
                    value={k}
                    checked={kind === k}
                    onChange={() => setKind(k)}
                    className="size-4"
                  />
                  <span className="text-sm">{REPORT_KIND_LABELS[k]}</span>
                </label>
              ))}
            </fieldset>
            <Field
              id={`${id}-comment`}
              label="Comment"
              hint={kind === "other" ? "Required: say what is wrong." : "What should it say?"}
              error={error}
            >
              {(control) => (
                <Textarea
                  {...control}
                  value={comment}
                  maxLength={REPORT_COMMENT_MAX}
                  onChange={(e) => setComment(e.target.value)}
                />
              )}
            </Field>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" busy={create.isPending}>
                Send report
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** The quiet notice on a question with an open wrong-answer report (decision 381). */
export function ReportedNoticeBox({
  reported,
}: {
  reported: { count: number; comment: string } | null | undefined;
}) {
  if (!reported) return null;
  return (
    <div
      className="flex gap-2 rounded-md border border-dashed px-3 py-2 text-sm text-muted-foreground"
      data-testid="reported-notice"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p>
        <span className="font-medium text-foreground">{REPORTED_NOTICE}</span>
        {reported.comment && <> — “{reported.comment}”</>}
        {reported.count > 1 && <> ({reported.count} reports)</>}
      </p>
    </div>
  );
}
