import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { SUCCESS_CLOSE_DELAY_MS } from "@/core/constants";
import { useConfirm } from "@/web/components/ui/dialog";
import { errorMessage, trpc, type RouterInputs } from "@/web/lib/trpc";
import type { QuestionJson } from "./question-kind";
import { useVisibilityChoice, type VisibilityChoiceState } from "./visibility-choice";
import type { VisibilityRequest } from "./visibility-draft";

/** The words of an edit dialog: one set for questions, one for flashcards. */
export interface EditDialogText {
  EDIT_TITLE: string;
  NEW_TITLE: string;
  SAVE: string;
  CREATE: string;
  CREATED: string;
  UPDATED: string;
  CREATE_FAILED: string;
  UPDATE_FAILED: string;
  DELETE_FAILED: string;
  DELETE_CONFIRM: string;
}

/** The props both editors take from their parent (Browse). */
export interface EditDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After the success message has shown for 1.5 s (docs/product/states.md): the parent refreshes and the form closes. */
  onSaved: (question: QuestionJson) => void;
  onDeleted?: (id: string) => void;
}

/** The fields `questions.update` changes; what each editor sends is one. */
type UpdateData = RouterInputs["questions"]["update"]["data"];

/** What the dialog's frame (EditDialogFrame) shows and does, from `useEditDialog`. */
export interface EditDialogState {
  id: string;
  text: EditDialogText;
  isNew: boolean;
  message: { type: "success" | "error"; text: string } | null;
  clearMessage: () => void;
  save: () => void;
  deleteQuestion: () => void;
  confirmDialog: ReactNode;
  /** Private / program / public (docs/product/visibility.md). */
  visibility: VisibilityChoiceState;
  saving: boolean;
  deleting: boolean;
  busy: boolean;
}

/**
 * The draft, saving and deleting of the Edit Question and Edit Flashcard dialogs (docs/product/states.md): a problem
 * found before sending, or the server's words, shows in the dialog; success shows for 1.5 s, then the
 * parent refreshes and the dialog closes; delete asks first.
 */
export function useEditDialog<D, P extends UpdateData>(
  opts: EditDialogProps & {
    question: QuestionJson | null;
    /** The form's state for `question`, or the empty form for a new one. */
    initialDraft: () => D;
    /** The first problem the server would answer, checked before sending; null when none. */
    problem: (draft: D) => string | null;
    payload: (draft: D) => P;
    text: EditDialogText;
    create: (payload: P) => Promise<QuestionJson>;
    creating: boolean;
  },
) {
  const { question, text, create, onOpenChange, onSaved, onDeleted } = opts;
  const [draft, setDraft] = useState<D>(opts.initialDraft);
  const [message, setMessage] = useState<EditDialogState["message"]>(null);
  const [saved, setSaved] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const update = trpc.questions.update.useMutation();
  const remove = trpc.questions.delete.useMutation();
  const { confirm, dialog: confirmDialog } = useConfirm();
  const id = useId();
  const isNew = question === null;
  const visibility = useVisibilityChoice(question?.visibility);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const set = <K extends keyof D>(key: K, value: D[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const save = async () => {
    setMessage(null);
    const problem = opts.problem(draft);
    if (problem) {
      setMessage({ type: "error", text: problem });
      return;
    }
    const level = visibility.check();
    if (!level) return;
    const payload: P & VisibilityRequest = { ...opts.payload(draft), ...level };
    try {
      const result = isNew
        ? await create(payload)
        : await update.mutateAsync({ id: question._id, data: payload });
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

  const dialog: EditDialogState = {
    id,
    text,
    isNew,
    message,
    clearMessage: () => setMessage(null),
    save: () => void save(),
    deleteQuestion: () => void deleteQuestion(),
    confirmDialog,
    visibility: visibility.state,
    saving: opts.creating || update.isPending,
    deleting: remove.isPending,
    busy: opts.creating || update.isPending || remove.isPending || saved,
  };
  return { id, draft, setDraft, set, dialog };
}
