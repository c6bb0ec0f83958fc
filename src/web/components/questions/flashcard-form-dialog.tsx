import { Bold, Italic, List, Subscript, Superscript, Underline } from "lucide-react";
import { useRef, type ReactNode } from "react";
import { LIMITS } from "@/core/constants";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Textarea } from "@/web/components/ui/textarea";
import { trpc } from "@/web/lib/trpc";
import { CategoryField, DialogField, PartField, YearField } from "./edit-dialog-fields";
import { EditDialogFrame } from "./edit-dialog-frame";
import {
  emptyFlashcardDraft,
  flashcardDraftError,
  flashcardDraftFrom,
  flashcardPayload,
  wrapSelection,
  type FormatTag,
} from "./flashcard-draft";
import type { QuestionJson } from "./question-kind";
import { RichContent } from "./rich-content";
import { useEditDialog, type EditDialogProps } from "./use-edit-dialog";

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

/**
 * The flashcard editor (issue 17): front and back as the HTML the card keeps, with buttons for bold,
 * italic, underline, super/subscript and lists, and a preview of each side as Study shows it. The server
 * sanitizes both sides with the same rules the preview uses, so what is previewed is what is saved.
 * Images come with imported cards (`<img src="…">` keeps them; deleting the tag removes the image).
 */
export function FlashcardFormDialog({
  flashcard,
  ...props
}: EditDialogProps & {
  /** The flashcard to edit, or null for 'New Flashcard'. */
  flashcard: QuestionJson | null;
}) {
  const create = trpc.questions.createFlashcard.useMutation();
  const { id, draft, set, dialog } = useEditDialog({
    ...props,
    question: flashcard,
    initialDraft: () =>
      flashcard ? flashcardDraftFrom(flashcard) : emptyFlashcardDraft(new Date()),
    problem: flashcardDraftError,
    payload: flashcardPayload,
    text: FLASHCARD_FORM_TEXT,
    create: create.mutateAsync,
    creating: create.isPending,
  });

  return (
    <EditDialogFrame
      dialog={dialog}
      open={props.open}
      onOpenChange={props.onOpenChange}
      description="A front and a back, rated Again, Hard, Good or Easy when studied."
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
        <PartField id={`${id}-part`} value={draft.part} onChange={(v) => set("part", v)} />
        <YearField
          id={`${id}-year`}
          value={draft.year}
          storedYear={flashcard?.year}
          onChange={(v) => set("year", v)}
        />
        <CategoryField
          id={`${id}-category`}
          value={draft.category}
          onChange={(v) => set("category", v)}
        />
      </div>

      <DialogField id={`${id}-source`} label="Source">
        {(control) => (
          <Input
            {...control}
            placeholder="e.g. the Anki deck it came from"
            maxLength={LIMITS.SOURCE}
            value={draft.source}
            onChange={(e) => set("source", e.target.value)}
          />
        )}
      </DialogField>
    </EditDialogFrame>
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
