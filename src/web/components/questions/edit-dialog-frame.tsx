import { Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { Alert } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";
import type { EditDialogState } from "./use-edit-dialog";
import { VisibilityChoice } from "./visibility-choice";

/**
 * What every question editor shares (multiple choice and flashcard): the modal that cannot be closed
 * while saving, the title, the form, and at its end who may see it (private, program or public), the save result, and
 * Delete / Cancel / Create-or-Save.
 */
export function EditDialogFrame({
  dialog,
  open,
  onOpenChange,
  description,
  children,
}: {
  dialog: EditDialogState;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  description: string;
  children: ReactNode;
}) {
  const { id, text, isNew, busy } = dialog;
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent showClose={false} className="max-w-2xl" aria-describedby={`${id}-desc`}>
        <DialogHeader>
          <DialogTitle>{isNew ? text.NEW_TITLE : text.EDIT_TITLE}</DialogTitle>
          <DialogDescription id={`${id}-desc`}>{description}</DialogDescription>
        </DialogHeader>

        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            dialog.save();
          }}
        >
          {children}

          <VisibilityChoice state={dialog.visibility} legend="Who can see this question" />

          {dialog.message && (
            <Alert
              type={dialog.message.type}
              onClose={dialog.clearMessage}
              autoCloseMs={dialog.message.type === "success" ? null : undefined}
            >
              {dialog.message.text}
            </Alert>
          )}

          <DialogFooter className="sm:justify-between">
            {!isNew ? (
              <Button
                variant="destructive"
                onClick={dialog.deleteQuestion}
                disabled={busy}
                busy={dialog.deleting}
              >
                <Trash2 aria-hidden="true" />
                Delete
              </Button>
            ) : (
              <span />
            )}
            <div className="flex flex-col-reverse gap-2 sm:flex-row">
              <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" busy={dialog.saving} disabled={busy}>
                {isNew ? text.CREATE : text.SAVE}
              </Button>
            </div>
          </DialogFooter>
        </form>
        {dialog.confirmDialog}
      </DialogContent>
    </Dialog>
  );
}
