import { Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { Alert } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Checkbox } from "@/web/components/ui/checkbox";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";
import { Label } from "@/web/components/ui/label";
import type { EditDialogState } from "./use-edit-dialog";

/**
 * What every question editor shares (multiple choice and flashcard): the modal that cannot be closed
 * while saving, the title, the form, and at its end the Public switch, the save result, and
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

          <div className="flex min-h-11 items-center gap-3">
            <Checkbox
              id={`${id}-public`}
              checked={dialog.isPublic}
              onCheckedChange={(v) => dialog.setPublic(v === true)}
            />
            <Label htmlFor={`${id}-public`}>Public (visible to all users)</Label>
          </div>

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
