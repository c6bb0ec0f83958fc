import { firstIssueMessage } from "@/core/schemas/common";
import { ZFlashcardInput, type TFlashcardInputPayload } from "@/core/schemas/flashcard";

/** The flashcard editor's state (issue 17): both sides as the HTML the card stores. */
export interface FlashcardDraft {
  front: string;
  back: string;
  category: string;
  part: "1" | "2";
  year: number;
  source: string;
}

/** What the editor needs from a stored flashcard (question JSON: `text` is the front). */
export interface EditableFlashcard {
  text: string;
  back: string;
  category: string;
  part: string;
  year: number;
  source: string;
}

export { isFlashcard } from "./question-kind";

export function emptyFlashcardDraft(now: Date): FlashcardDraft {
  return {
    front: "",
    back: "",
    category: "",
    part: "1",
    year: now.getFullYear(),
    source: "",
  };
}

export function flashcardDraftFrom(q: EditableFlashcard): FlashcardDraft {
  return {
    front: q.text,
    back: q.back,
    category: q.category,
    part: q.part === "2" ? "2" : "1",
    year: q.year,
    source: q.source,
  };
}

export function flashcardPayload(draft: FlashcardDraft): TFlashcardInputPayload {
  return { ...draft };
}

/** The first problem the server would answer, checked with the same schema before sending. */
export function flashcardDraftError(draft: FlashcardDraft): string | null {
  const parsed = ZFlashcardInput.safeParse(flashcardPayload(draft));
  return parsed.success ? null : firstIssueMessage(parsed.error);
}

/** The formatting buttons of the editor: each wraps the selection in one tag. */
export const FORMAT_TAGS = {
  bold: "b",
  italic: "i",
  underline: "u",
  superscript: "sup",
  subscript: "sub",
} as const;
export type FormatTag = (typeof FORMAT_TAGS)[keyof typeof FORMAT_TAGS];

/**
 * The side's HTML with the selection [start, end) wrapped in `<tag>…</tag>` (an empty selection gets an
 * empty pair), and where the selection is afterwards: the same text, inside the tags.
 */
export function wrapSelection(
  value: string,
  start: number,
  end: number,
  tag: FormatTag | "li",
): { value: string; start: number; end: number } {
  const [from, to] = start <= end ? [start, end] : [end, start];
  const selected = value.slice(from, to);
  if (tag === "li") {
    const items = (selected.trim() === "" ? [""] : selected.split("\n"))
      .map((line) => `<li>${line}</li>`)
      .join("");
    const list = `<ul>${items}</ul>`;
    return {
      value: value.slice(0, from) + list + value.slice(to),
      start: from + "<ul><li>".length,
      end: from + list.length - "</li></ul>".length,
    };
  }
  const open = `<${tag}>`;
  return {
    value: `${value.slice(0, from)}${open}${selected}</${tag}>${value.slice(to)}`,
    start: from + open.length,
    end: to + open.length,
  };
}
