import { useEffect, useRef, useState } from "react";
import { SUCCESS_CLOSE_DELAY_MS } from "@/core/constants";
import { useConfirm } from "@/web/components/ui/dialog";
import { errorMessage, trpc } from "@/web/lib/trpc";
import type { QuestionJson } from "./question-form-dialog";

/** The words of an edit dialog: one set for questions, one for flashcards. */
export interface EditDialogText {
  CREATED: string;
  UPDATED: string;
  CREATE_FAILED: string;
  UPDATE_FAILED: string;
  DELETE_FAILED: string;
  DELETE_CONFIRM: string;
}

/**
 * Saving and deleting in the Edit Question and Edit Flashcard dialogs (SPEC §4): a problem found before
 * sending, or the server's words, shows in the dialog; success shows for 1.5 s, then the parent refreshes
 * and the dialog closes; delete asks first.
 */
export function useEditDialog(opts: {
  question: QuestionJson | null;
  text: EditDialogText;
  create: (payload: never) => Promise<QuestionJson>;
  creating: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (question: QuestionJson) => void;
  onDeleted?: (id: string) => void;
}) {
  const { question, text, create, onOpenChange, onSaved, onDeleted } = opts;
  const [message, setMessage] = useState<{ type: "success" | "error"; text: string } | null>(null);
  const [saved, setSaved] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const update = trpc.questions.update.useMutation();
  const remove = trpc.questions.delete.useMutation();
  const { confirm, dialog: confirmDialog } = useConfirm();
  const isNew = question === null;

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const save = async (problem: string | null, payload: unknown) => {
    setMessage(null);
    if (problem) {
      setMessage({ type: "error", text: problem });
      return;
    }
    try {
      const result = isNew
        ? await create(payload as never)
        : await update.mutateAsync({ id: question._id, data: payload as never });
      setSaved(true);
      setMessage({ type: "success", text: isNew ? text.CREATED : text.UPDATED });
      timer.current = window.setTimeout(() => {
        onSaved(result);
        onOpenChange(false);
      }, SUCCESS_CLOSE_DELAY_MS);
    } catch (error) {
      setMessage({
        type: "error",
        text: errorMessage(error, isNew ? text.CREATE_FAILED : text.UPDATE_FAILED),
      });
    }
  };

  const deleteQuestion = async () => {
    if (isNew) return;
    const sure = await confirm({
      title: text.DELETE_CONFIRM,
      description: "This cannot be undone.",
      confirmLabel: "Delete",
      destructive: true,
    });
    if (!sure) return;
    setMessage(null);
    try {
      await remove.mutateAsync({ id: question._id });
      onDeleted?.(question._id);
      onOpenChange(false);
    } catch (error) {
      setMessage({ type: "error", text: errorMessage(error, text.DELETE_FAILED) });
    }
  };

  return {
    isNew,
    message,
    setMessage,
    save,
    deleteQuestion,
    confirmDialog,
    saving: opts.creating || update.isPending,
    deleting: remove.isPending,
    busy: opts.creating || update.isPending || remove.isPending || saved,
  };
}
