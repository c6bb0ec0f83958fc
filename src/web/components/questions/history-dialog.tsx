import { useState } from "react";
import type { FieldChange } from "@/core/question-history";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  useConfirm,
} from "@/web/components/ui/dialog";
import { Spinner } from "@/web/components/ui/spinner";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { RichContent } from "./rich-content";

/** docs/product/history.md: the screen's texts. */
export const HISTORY_TEXT = {
  TITLE: "Question history",
  DESCRIPTION: "Every change, newest first, with who made it and when.",
  RESTORE_NOTE: "Restoring brings back a version's content; visibility stays as it is now.",
  LOADING: "Loading history...",
  LOAD_FAILED: "The history could not be loaded",
  CURRENT: "Current",
  FIRST: "First version",
  SYSTEM: "System",
  RESTORE: "Restore this version",
  RESTORE_FAILED: "The version could not be restored",
  CONFIRM_TITLE: (v: number) => `Restore version ${v}?`,
  CONFIRM_DESCRIPTION: (v: number) =>
    `The question's content becomes version ${v}'s again, as a new version. Visibility stays as it is now.`,
  CONFIRM: "Restore",
  RESTORED_FROM: (v: number) => `Restored from version ${v}`,
  BEFORE: "Before",
  AFTER: "After",
} as const;

/** Fields whose values are long texts: shown as before and after blocks, not on one line. */
const LONG_FIELDS = new Set([
  "text",
  "back",
  "instructions",
  "explanation",
  "generatedExplanation",
  "shareStatement",
]);

interface HistoryDialogProps {
  questionId: string;
  /** A flashcard's sides are HTML: shown as the card shows them. */
  flashcard: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After a restore, so the list behind the dialog reads the question again. */
  onRestored?: () => void;
}

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * A question's versions (issue 36 item 4, docs/product/history.md): each with its author, time and the
 * differences from the one before; the owner (and a director for a program question) may restore an
 * older one, after a confirmation.
 */
export function HistoryDialog({
  questionId,
  flashcard,
  open,
  onOpenChange,
  onRestored,
}: HistoryDialogProps) {
  const utils = trpc.useUtils();
  const history = trpc.questions.history.useQuery({ id: questionId }, { enabled: open });
  const { confirm, dialog } = useConfirm();
  const [status, setStatus] = useState<{ kind: "success" | "error"; text: string } | null>(null);
  const restore = trpc.questions.restoreVersion.useMutation({
    onSuccess: (result) => {
      utils.questions.history.setData({ id: questionId }, result.history);
      setStatus({ kind: "success", text: result.message });
      onRestored?.();
    },
    onError: (error) =>
      setStatus({ kind: "error", text: errorMessage(error, HISTORY_TEXT.RESTORE_FAILED) }),
  });

  const ask = async (version: number) => {
    const yes = await confirm({
      title: HISTORY_TEXT.CONFIRM_TITLE(version),
      description: HISTORY_TEXT.CONFIRM_DESCRIPTION(version),
      confirmLabel: HISTORY_TEXT.CONFIRM,
    });
    if (!yes) return;
    setStatus(null);
    await restore.mutateAsync({ id: questionId, version }).catch(() => undefined);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl" data-testid="history-dialog">
        <DialogHeader>
          <DialogTitle>{HISTORY_TEXT.TITLE}</DialogTitle>
          <DialogDescription>
            {HISTORY_TEXT.DESCRIPTION}
            {history.data?.canRestore && ` ${HISTORY_TEXT.RESTORE_NOTE}`}
          </DialogDescription>
        </DialogHeader>
        {status && (
          <p
            role={status.kind === "error" ? "alert" : "status"}
            data-testid="history-status"
            className={
              status.kind === "error"
                ? "rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive"
                : "rounded-md bg-success-soft px-3 py-2 text-sm text-success-soft-foreground"
            }
          >
            {status.text}
          </p>
        )}
        {history.isPending ? (
          <Spinner label={HISTORY_TEXT.LOADING} showLabel className="justify-center py-6" />
        ) : history.error ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(history.error, HISTORY_TEXT.LOAD_FAILED)}
          </p>
        ) : (
          <ol className="grid gap-3" aria-label="Versions">
            {history.data.versions.map((v) => (
              <li
                key={v.version}
                data-testid="history-version"
                data-version={v.version}
                className="grid gap-2 rounded-lg border p-3"
              >
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold">Version {v.version}</span>
                  {v.current && <Badge variant="success">{HISTORY_TEXT.CURRENT}</Badge>}
                  {v.restoredFrom !== null && (
                    <Badge variant="outline">{HISTORY_TEXT.RESTORED_FROM(v.restoredFrom)}</Badge>
                  )}
                </div>
                <p className="text-xs text-muted-foreground">
                  {v.editor?.username ?? HISTORY_TEXT.SYSTEM} ·{" "}
                  <time dateTime={v.at}>{when(v.at)}</time>
                </p>
                {v.changes.length === 0 ? (
                  <p className="text-sm text-muted-foreground">{HISTORY_TEXT.FIRST}</p>
                ) : (
                  <ul className="grid gap-2" aria-label={`Changes in version ${v.version}`}>
                    {v.changes.map((change) => (
                      <ChangeRow key={change.field} change={change} flashcard={flashcard} />
                    ))}
                  </ul>
                )}
                {history.data.canRestore && !v.current && (
                  <Button
                    variant="outline"
                    size="sm"
                    className="justify-self-start"
                    busy={restore.isPending && restore.variables?.version === v.version}
                    onClick={() => void ask(v.version)}
                    aria-label={`${HISTORY_TEXT.RESTORE} (version ${v.version})`}
                  >
                    {HISTORY_TEXT.RESTORE}
                  </Button>
                )}
              </li>
            ))}
          </ol>
        )}
        {dialog}
      </DialogContent>
    </Dialog>
  );
}

function ChangeRow({ change, flashcard }: { change: FieldChange; flashcard: boolean }) {
  if (!LONG_FIELDS.has(change.field)) {
    return (
      <li className="text-sm break-words" data-testid="history-change" data-field={change.field}>
        <span className="font-medium">{change.label}:</span>{" "}
        <span className="text-muted-foreground">{change.before}</span>
        {" → "}
        <span>{change.after}</span>
      </li>
    );
  }
  const html = flashcard && (change.field === "text" || change.field === "back");
  const side = (label: string, value: string) => (
    <div className="grid gap-0.5 rounded-md bg-muted px-2 py-1.5">
      <span className="text-xs font-medium text-muted-foreground">{label}</span>
      {html ? (
        <RichContent html={value} className="text-sm" />
      ) : (
        <p className="text-sm break-words whitespace-pre-line">{value}</p>
      )}
    </div>
  );
  return (
    <li className="grid gap-1" data-testid="history-change" data-field={change.field}>
      <span className="text-sm font-medium">{change.label}</span>
      {side(HISTORY_TEXT.BEFORE, change.before)}
      {side(HISTORY_TEXT.AFTER, change.after)}
    </li>
  );
}
