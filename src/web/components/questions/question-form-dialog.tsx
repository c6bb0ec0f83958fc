import { Check } from "lucide-react";
import {
  NUM_CORRECT_ANSWERS_MAX,
  NUM_CORRECT_ANSWERS_MIN,
  QUESTION_TYPES,
  type QuestionType,
} from "@/core/constants";
import { Alert } from "@/web/components/ui/alert";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { OptionSelect, type SelectOption } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { trpc } from "@/web/lib/trpc";
import { cn } from "@/web/lib/utils";
import { CategoryField, DialogField, PartField, YearField } from "./edit-dialog-fields";
import { EditDialogFrame } from "./edit-dialog-frame";
import {
  asType,
  changeType,
  draftError,
  draftFromQuestion,
  draftToPayload,
  draftWarning,
  emptyDraft,
  isCorrect,
  toggleCorrect,
  visibleLetters,
} from "./question-draft";
import type { QuestionJson } from "./question-kind";
import { useEditDialog, type EditDialogProps } from "./use-edit-dialog";

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

/**
 * The Edit Question modal in docs/product/screens.md, states.md and validation.md: every field, the type switch, the count warning that does
 * not block, success then close after 1.5 s. Everything typed is shown as text, never as HTML.
 */
export function QuestionFormDialog({
  question,
  ...props
}: EditDialogProps & {
  /** The question to edit, or null for 'New Question' (the same form, empty). */
  question: QuestionJson | null;
}) {
  const create = trpc.questions.create.useMutation();
  const { id, draft, setDraft, set, dialog } = useEditDialog({
    ...props,
    question,
    initialDraft: () => (question ? draftFromQuestion(question) : emptyDraft(new Date())),
    problem: draftError,
    payload: draftToPayload,
    text: QUESTION_FORM_TEXT,
    create: create.mutateAsync,
    creating: create.isPending,
  });

  const warning = draftWarning(draft);
  const multiple = draft.questionType === "multipleCorrect";

  return (
    <EditDialogFrame
      dialog={dialog}
      open={props.open}
      onOpenChange={props.onOpenChange}
      description={dialog.isNew ? "Type a question in by hand." : "Change any field, then save."}
    >
      <div className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-3">
        <PartField id={`${id}-part`} value={draft.part} onChange={(v) => set("part", v)} />
        <YearField
          id={`${id}-year`}
          value={draft.year}
          storedYear={question?.year}
          onChange={(v) => set("year", v)}
        />
        <DialogField id={`${id}-number`} label="Question Number">
          {(control) => (
            <Input
              {...control}
              inputMode="numeric"
              value={draft.number}
              onChange={(e) => set("number", e.target.value)}
            />
          )}
        </DialogField>
      </div>

      <div className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-2">
        <CategoryField
          id={`${id}-category`}
          value={draft.category}
          onChange={(v) => set("category", v)}
        />
        <DialogField id={`${id}-type`} label="Question Type">
          {(control) => (
            <OptionSelect
              {...control}
              value={draft.questionType}
              onValueChange={(v) => setDraft((d) => changeType(d, asType(v)))}
              options={TYPE_OPTIONS}
            />
          )}
        </DialogField>
      </div>

      <div className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-[1fr_auto]">
        <DialogField id={`${id}-instructions`} label="Instructions">
          {(control) => (
            <Input
              {...control}
              value={draft.instructions}
              onChange={(e) => set("instructions", e.target.value)}
            />
          )}
        </DialogField>
        <DialogField id={`${id}-count`} label="Number of Correct Answers">
          {(control) => (
            <Input
              {...control}
              type="number"
              min={NUM_CORRECT_ANSWERS_MIN}
              max={NUM_CORRECT_ANSWERS_MAX}
              disabled={!multiple}
              value={draft.numCorrectAnswers}
              onChange={(e) => set("numCorrectAnswers", e.target.value)}
              className="min-[420px]:w-32"
            />
          )}
        </DialogField>
      </div>

      <DialogField id={`${id}-text`} label="Question Text">
        {(control) => (
          <Textarea
            {...control}
            rows={4}
            value={draft.text}
            onChange={(e) => set("text", e.target.value)}
          />
        )}
      </DialogField>

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
        <Alert type="warning" dismissible={false} autoCloseMs={null} data-testid="count-warning">
          {warning}
        </Alert>
      )}

      <DialogField id={`${id}-explanation`} label="Explanation">
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            value={draft.explanation}
            onChange={(e) => set("explanation", e.target.value)}
          />
        )}
      </DialogField>
    </EditDialogFrame>
  );
}
