import { Trash2 } from "lucide-react";
import { Alert } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Checkbox } from "@/web/components/ui/checkbox";
import { DialogFooter } from "@/web/components/ui/dialog";
import { Label } from "@/web/components/ui/label";

/**
 * The end every question editor shares (multiple choice and flashcard): the Public switch, the save
 * result, and Delete / Cancel / Create-or-Save.
 */
export function EditDialogFooter(props: {
  id: string;
  isPublic: boolean;
  onPublicChange: (isPublic: boolean) => void;
  message: { type: "success" | "error"; text: string } | null;
  onMessageClose: () => void;
  isNew: boolean;
  busy: boolean;
  saving: boolean;
  deleting: boolean;
  onDelete: () => void;
  onCancel: () => void;
  submitLabel: string;
}) {
  return (
    <>
      <div className="flex min-h-11 items-center gap-3">
        <Checkbox
          id={`${props.id}-public`}
          checked={props.isPublic}
          onCheckedChange={(v) => props.onPublicChange(v === true)}
        />
        <Label htmlFor={`${props.id}-public`}>Public (visible to all users)</Label>
      </div>

      {props.message && (
        <Alert
          type={props.message.type}
          onClose={props.onMessageClose}
          autoCloseMs={props.message.type === "success" ? null : undefined}
        >
          {props.message.text}
        </Alert>
      )}

      <DialogFooter className="sm:justify-between">
        {!props.isNew ? (
          <Button
            variant="destructive"
            onClick={props.onDelete}
            disabled={props.busy}
            busy={props.deleting}
          >
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        ) : (
          <span />
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button variant="outline" onClick={props.onCancel} disabled={props.busy}>
            Cancel
          </Button>
          <Button type="submit" busy={props.saving} disabled={props.busy}>
            {props.submitLabel}
          </Button>
        </div>
      </DialogFooter>
    </>
  );
}
