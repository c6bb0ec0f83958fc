import { Bold, Italic, List, Subscript, Superscript, Underline } from "lucide-react";
import { useId, useRef, useState, type ReactNode } from "react";
import { LIMITS, yearChoices } from "@/core/constants";
import { Button } from "@/web/components/ui/button";
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
import { OptionSelect } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { trpc } from "@/web/lib/trpc";
import {
  emptyFlashcardDraft,
  flashcardDraftError,
  flashcardDraftFrom,
  flashcardPayload,
  wrapSelection,
  type FlashcardDraft,
  type FormatTag,
} from "./flashcard-draft";
import {
  categoryOptions,
  Field,
  NO_CATEGORY,
  PART_OPTIONS,
  type QuestionJson,
} from "./question-form-dialog";
import { RichContent } from "./rich-content";
import { useEditDialog } from "./use-edit-dialog";

export const FLASHCARD_FORM_TEXT = {
  EDIT_TITLE: "Edit Flashcard",
  NEW_TITLE: "New Flashcard",
  SAVE: "Save Changes",
  CREATE: "Save Flashcard",
  UPDATED: "Flashcard updated successfully",
  CREATED: "Flashcard created successfully",
  UPDATE_FAILED: "Failed to update flashcard",
  CREATE_FAILED: "Failed to create flashcard",
  DELETE_FAILED: "Failed to delete flashcard",
  DELETE_CONFIRM: "Are you sure you want to delete this flashcard?",
} as const;

const FORMAT_BUTTONS: { tag: FormatTag | "li"; label: string; icon: ReactNode }[] = [
  { tag: "b", label: "Bold", icon: <Bold aria-hidden="true" /> },
  { tag: "i", label: "Italic", icon: <Italic aria-hidden="true" /> },
  { tag: "u", label: "Underline", icon: <Underline aria-hidden="true" /> },
  { tag: "sup", label: "Superscript", icon: <Superscript aria-hidden="true" /> },
  { tag: "sub", label: "Subscript", icon: <Subscript aria-hidden="true" /> },
  { tag: "li", label: "Bulleted list", icon: <List aria-hidden="true" /> },
];

interface FlashcardFormDialogProps {
  /** The flashcard to edit, or null for 'New Flashcard'. */
  flashcard: QuestionJson | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  defaultPublic: boolean;
  onSaved: (question: QuestionJson) => void;
  onDeleted?: (id: string) => void;
}

/**
 * The flashcard editor (issue 17): front and back as the HTML the card keeps, with buttons for bold,
 * italic, underline, super/subscript and lists, and a preview of each side as Study shows it. The server
 * sanitizes both sides with the same rules the preview uses, so what is previewed is what is saved.
 * Images come with imported cards (`<img src="…">` keeps them; deleting the tag removes the image).
 */
export function FlashcardFormDialog({
  flashcard,
  open,
  onOpenChange,
  defaultPublic,
  onSaved,
  onDeleted,
}: FlashcardFormDialogProps) {
  const [draft, setDraft] = useState<FlashcardDraft>(() =>
    flashcard ? flashcardDraftFrom(flashcard) : emptyFlashcardDraft(new Date(), defaultPublic),
  );
  const create = trpc.questions.createFlashcard.useMutation();
  const {
    isNew,
    message,
    setMessage,
    save: send,
    deleteQuestion: deleteCard,
    confirmDialog,
    saving,
    deleting,
    busy,
  } = useEditDialog({
    question: flashcard,
    text: FLASHCARD_FORM_TEXT,
    create: create.mutateAsync as never,
    creating: create.isPending,
    onOpenChange,
    onSaved,
    onDeleted,
  });
  const id = useId();

  const set = <K extends keyof FlashcardDraft>(key: K, value: FlashcardDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const save = () => void send(flashcardDraftError(draft), flashcardPayload(draft));

  const years = yearChoices(new Date(), flashcard?.year).map((y) => ({
    value: String(y),
    label: String(y),
  }));

  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent showClose={false} className="max-w-2xl" aria-describedby={`${id}-desc`}>
        <DialogHeader>
          <DialogTitle>
            {isNew ? FLASHCARD_FORM_TEXT.NEW_TITLE : FLASHCARD_FORM_TEXT.EDIT_TITLE}
          </DialogTitle>
          <DialogDescription id={`${id}-desc`}>
            A front and a back, rated Again, Hard, Good or Easy when studied.
          </DialogDescription>
        </DialogHeader>

        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <SideEditor
            id={`${id}-front`}
            label="Front"
            value={draft.front}
            onChange={(v) => set("front", v)}
          />
          <SideEditor
            id={`${id}-back`}
            label="Back"
            value={draft.back}
            onChange={(v) => set("back", v)}
          />

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
            <Field label="Category" htmlFor={`${id}-category`}>
              <OptionSelect
                id={`${id}-category`}
                value={draft.category || NO_CATEGORY}
                onValueChange={(v) => set("category", v === NO_CATEGORY ? "" : v)}
                options={categoryOptions(draft.category)}
              />
            </Field>
          </div>

          <Field label="Source" htmlFor={`${id}-source`}>
            <Input
              id={`${id}-source`}
              placeholder="e.g. the Anki deck it came from"
              maxLength={LIMITS.SOURCE}
              value={draft.source}
              onChange={(e) => set("source", e.target.value)}
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
            onDelete={() => void deleteCard()}
            onCancel={() => onOpenChange(false)}
            submitLabel={isNew ? FLASHCARD_FORM_TEXT.CREATE : FLASHCARD_FORM_TEXT.SAVE}
          />
        </form>
        {confirmDialog}
      </DialogContent>
    </Dialog>
  );
}

/** One side: formatting buttons, the HTML, and the side as it will show. */
function SideEditor({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const format = (tag: FormatTag | "li") => {
    const node = area.current;
    if (!node) return;
    const out = wrapSelection(value, node.selectionStart, node.selectionEnd, tag);
    onChange(out.value);
    // After React writes the new value: select the same text, inside its tags.
    requestAnimationFrame(() => {
      node.focus();
      node.setSelectionRange(out.start, out.end);
    });
  };
  return (
    <div className="grid gap-2" data-testid={`flashcard-${label.toLowerCase()}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        <div role="toolbar" aria-label={`${label} formatting`} className="flex gap-1">
          {FORMAT_BUTTONS.map((b) => (
            <Button
              key={b.tag}
              type="button"
              variant="outline"
              size="icon"
              aria-label={`${b.label} (${label.toLowerCase()})`}
              title={b.label}
              onClick={() => format(b.tag)}
            >
              {b.icon}
            </Button>
          ))}
        </div>
      </div>
      <Textarea
        id={id}
        ref={area}
        rows={3}
        className="font-mono text-sm"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <div className="rounded-md border border-dashed px-3 py-2" aria-label={`${label} preview`}>
        {value.trim() ? (
          <RichContent html={value} data-testid={`flashcard-${label.toLowerCase()}-preview`} />
        ) : (
          <p className="text-sm text-muted-foreground">The {label.toLowerCase()} shows here.</p>
        )}
      </div>
    </div>
  );
}
