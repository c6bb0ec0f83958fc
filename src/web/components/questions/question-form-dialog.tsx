import { Check } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import {
  CATEGORIES,
  NUM_CORRECT_ANSWERS_MAX,
  NUM_CORRECT_ANSWERS_MIN,
  QUESTION_TYPES,
  UNCATEGORIZED,
  yearChoices,
  type QuestionType,
} from "@/core/constants";
import { Alert } from "@/web/components/ui/alert";
import { EditDialogFooter } from "./edit-dialog-footer";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { OptionSelect, type SelectOption } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { trpc, type RouterOutputs } from "@/web/lib/trpc";
import { cn } from "@/web/lib/utils";
import { useEditDialog } from "./use-edit-dialog";
import {
  changeType,
  draftError,
  draftFromQuestion,
  draftToPayload,
  draftWarning,
  emptyDraft,
  isCorrect,
  toggleCorrect,
  visibleLetters,
  type QuestionDraft,
} from "./question-draft";

export type QuestionJson = RouterOutputs["questions"]["get"];

export const QUESTION_FORM_TEXT = {
  EDIT_TITLE: "Edit Question",
  NEW_TITLE: "New Question",
  SAVE: "Save Changes",
  CREATE: "Save Question",
  UPDATED: "Question updated successfully",
  CREATED: "Question created successfully",
  UPDATE_FAILED: "Failed to update question",
  CREATE_FAILED: "Failed to create question",
  DELETE_FAILED: "Failed to delete question",
  DELETE_CONFIRM: "Are you sure you want to delete this question?",
} as const;

const TYPE_LABELS: Record<QuestionType, string> = {
  standard: "Standard (5 options)",
  fourOptions: "Four Options",
  multipleCorrect: "Multiple Correct",
};
const TYPE_OPTIONS: SelectOption[] = QUESTION_TYPES.map((t) => ({
  value: t,
  label: TYPE_LABELS[t],
}));
export const PART_OPTIONS: SelectOption[] = [
  { value: "1", label: "Part 1" },
  { value: "2", label: "Part 2" },
];
/** Radix reserves '' for "nothing chosen": the empty category needs a value of its own. */
export const NO_CATEGORY = "__uncategorized__";

export function categoryOptions(current: string): SelectOption[] {
  const list: SelectOption[] = [{ value: NO_CATEGORY, label: UNCATEGORIZED }];
  const names: string[] = [...CATEGORIES];
  if (current && !names.includes(current)) names.unshift(current);
  return [...list, ...names.map((c) => ({ value: c, label: c }))];
}

interface QuestionFormDialogProps {
  /** The question to edit, or null for 'New Question' (the same form, empty). */
  question: QuestionJson | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Public Profile: the default of the public checkbox for a new question. */
  defaultPublic: boolean;
  /** After the success message has shown for 1.5 s (SPEC §4): the parent refreshes and the form closes. */
  onSaved: (question: QuestionJson) => void;
  onDeleted?: (id: string) => void;
}

/**
 * The Edit Question modal of SPEC §2/§4/§5: every field, the type switch, the count warning that does
 * not block, success then close after 1.5 s. Everything typed is shown as text, never as HTML.
 */
export function QuestionFormDialog({
  question,
  open,
  onOpenChange,
  defaultPublic,
  onSaved,
  onDeleted,
}: QuestionFormDialogProps) {
  const [draft, setDraft] = useState<QuestionDraft>(() =>
    question ? draftFromQuestion(question) : emptyDraft(new Date(), defaultPublic),
  );
  const create = trpc.questions.create.useMutation();
  const {
    isNew,
    message,
    setMessage,
    save: send,
    deleteQuestion: deleteQuestion,
    confirmDialog,
    saving,
    deleting,
    busy,
  } = useEditDialog({
    question: question,
    text: QUESTION_FORM_TEXT,
    create: create.mutateAsync as never,
    creating: create.isPending,
    onOpenChange,
    onSaved,
    onDeleted,
  });
  const id = useId();

  const set = <K extends keyof QuestionDraft>(key: K, value: QuestionDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const save = () => void send(draftError(draft), draftToPayload(draft));

  const warning = draftWarning(draft);
  const multiple = draft.questionType === "multipleCorrect";
  const years = yearChoices(new Date(), question?.year).map((y) => ({
    value: String(y),
    label: String(y),
  }));

  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent showClose={false} className="max-w-2xl" aria-describedby={`${id}-desc`}>
        <DialogHeader>
          <DialogTitle>
            {isNew ? QUESTION_FORM_TEXT.NEW_TITLE : QUESTION_FORM_TEXT.EDIT_TITLE}
          </DialogTitle>
          <DialogDescription id={`${id}-desc`}>
            {isNew ? "Type a question in by hand." : "Change any field, then save."}
          </DialogDescription>
        </DialogHeader>

        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <div className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-3">
            <Field label="Part" htmlFor={`${id}-part`}>
              <OptionSelect
                id={`${id}-part`}
                value={draft.part}
                onValueChange={(v) => set("part", v === "2" ? "2" : "1")}
                options={PART_OPTIONS}
              />
            </Field>
            <Field label="Year" htmlFor={`${id}-year`}>
              <OptionSelect
                id={`${id}-year`}
                value={String(draft.year)}
                onValueChange={(v) => set("year", Number(v))}
                options={years}
              />
            </Field>
            <Field label="Question Number" htmlFor={`${id}-number`}>
              <Input
                id={`${id}-number`}
                inputMode="numeric"
                value={draft.number}
                onChange={(e) => set("number", e.target.value)}
              />
            </Field>
          </div>

          <div className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-2">
            <Field label="Category" htmlFor={`${id}-category`}>
              <OptionSelect
                id={`${id}-category`}
                value={draft.category || NO_CATEGORY}
                onValueChange={(v) => set("category", v === NO_CATEGORY ? "" : v)}
                options={categoryOptions(draft.category)}
              />
            </Field>
            <Field label="Question Type" htmlFor={`${id}-type`}>
              <OptionSelect
                id={`${id}-type`}
                value={draft.questionType}
                onValueChange={(v) => setDraft((d) => changeType(d, v as QuestionType))}
                options={TYPE_OPTIONS}
              />
            </Field>
          </div>

          <div className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-[1fr_auto]">
            <Field label="Instructions" htmlFor={`${id}-instructions`}>
              <Input
                id={`${id}-instructions`}
                value={draft.instructions}
                onChange={(e) => set("instructions", e.target.value)}
              />
            </Field>
            <Field label="Number of Correct Answers" htmlFor={`${id}-count`}>
              <Input
                id={`${id}-count`}
                type="number"
                min={NUM_CORRECT_ANSWERS_MIN}
                max={NUM_CORRECT_ANSWERS_MAX}
                disabled={!multiple}
                value={draft.numCorrectAnswers}
                onChange={(e) => set("numCorrectAnswers", e.target.value)}
                className="min-[420px]:w-32"
              />
            </Field>
          </div>

          <Field label="Question Text" htmlFor={`${id}-text`}>
            <Textarea
              id={`${id}-text`}
              rows={4}
              value={draft.text}
              onChange={(e) => set("text", e.target.value)}
            />
          </Field>

          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">
              Options{" "}
              <span className="font-normal text-muted-foreground">
                ({multiple ? "tick every correct answer" : "tick the correct answer"})
              </span>
            </legend>
            {visibleLetters(draft).map((letter) => {
              const correct = isCorrect(draft, letter);
              return (
                <div key={letter} className="flex items-center gap-2">
                  <button
                    type="button"
                    role={multiple ? "checkbox" : "radio"}
                    aria-checked={correct}
                    aria-label={`${letter} is correct`}
                    onClick={() => setDraft((d) => toggleCorrect(d, letter))}
                    className={cn(
                      "inline-flex size-11 shrink-0 items-center justify-center rounded-md border text-sm font-semibold",
                      "outline-none focus-visible:ring-2 focus-visible:ring-ring",
                      correct
                        ? "border-success bg-success text-white"
                        : "border-input bg-card hover:bg-accent",
                    )}
                  >
                    {correct ? <Check className="size-4" aria-hidden="true" /> : letter}
                  </button>
                  <Label htmlFor={`${id}-opt-${letter}`} className="sr-only">
                    Option {letter}
                  </Label>
                  <Input
                    id={`${id}-opt-${letter}`}
                    placeholder={`Option ${letter}`}
                    value={draft.options[letter]}
                    onChange={(e) =>
                      setDraft((d) => ({
                        ...d,
                        options: { ...d.options, [letter]: e.target.value },
                      }))
                    }
                  />
                </div>
              );
            })}
          </fieldset>

          {warning && (
            <Alert
              type="warning"
              dismissible={false}
              autoCloseMs={null}
              data-testid="count-warning"
            >
              {warning}
            </Alert>
          )}

          <Field label="Explanation" htmlFor={`${id}-explanation`}>
            <Textarea
              id={`${id}-explanation`}
              rows={3}
              value={draft.explanation}
              onChange={(e) => set("explanation", e.target.value)}
            />
          </Field>

          <EditDialogFooter
            id={id}
            isPublic={draft.isPublic}
            onPublicChange={(v) => set("isPublic", v)}
            message={message}
            onMessageClose={() => setMessage(null)}
            isNew={isNew}
            busy={busy}
            saving={saving}
            deleting={deleting}
            onDelete={() => void deleteQuestion()}
            onCancel={() => onOpenChange(false)}
            submitLabel={isNew ? QUESTION_FORM_TEXT.CREATE : QUESTION_FORM_TEXT.SAVE}
          />
        </form>
        {confirmDialog}
      </DialogContent>
    </Dialog>
  );
}

export function Field({
  label,
  htmlFor,
  children,
}: {
  label: string;
  htmlFor: string;
  children: ReactNode;
}) {
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={htmlFor}>{label}</Label>
      {children}
    </div>
  );
}
