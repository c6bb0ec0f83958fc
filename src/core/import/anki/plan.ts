import { LIMITS } from "../../constants";
import { ImportError } from "../errors";
import { importProblem, toImportItem, type ImportItem } from "../plan";
import { emptyOptions, type ParsedQuestion } from "../types";
import type {
  AnkiConversion,
  AnkiFlashcardDraft,
  AnkiProgress,
  AnkiQuestionDraft,
  NoteIssue,
} from "./convert";
import { htmlToText } from "./html";
import { withImageHashes } from "./image-refs";
import type { TagCategory } from "./tags";

/**
 * The Anki side of the import pipeline (issue 17 item 3): the converter's drafts as the same steps
 * the file wizard and `prite import` take (review, duplicate check, one commit), shared by the web's
 * Anki tab and the CLI. Pure.
 */

export type AnkiDraft = AnkiQuestionDraft | AnkiFlashcardDraft;

/** Most questions one import may hold: a 20,000-note deck with reversed and cloze cards fits. */
export const ANKI_IMPORT_MAX = 50_000;
export const ANKI_TOO_MANY_MESSAGE = `The Anki deck has more than ${ANKI_IMPORT_MAX.toLocaleString("en-US")} cards. Split it into smaller decks.`;

/** A flashcard's front and back are sanitized HTML; their longest stored form. */
export const FLASHCARD_HTML_MAX = LIMITS.EXPLANATION;

/** What the commit stores of Anki scheduling ("Keep my Anki progress"). */
export type ImportProgress = AnkiProgress;

/** A multiple-choice question from a deck: a file row's fields plus where it came from. */
export type AnkiQuestionItem = ImportItem & {
  source: string;
  /** SHA-256 of each image it shows, in order (uploaded before the commit). */
  images: string[];
  progress?: ImportProgress;
};

/** A flashcard as imports.commit takes it; `text` is the front. */
export type FlashcardItem = {
  questionType: "flashcard";
  text: string;
  back: string;
  category: string;
  part: "1" | "2";
  year: number;
  number: null;
  source: string;
  images: string[];
  progress?: ImportProgress;
};

export type AnkiCommitQuestion = AnkiQuestionItem | FlashcardItem;

/** What imports.checkDuplicates reads of a flashcard: its front as plain text, compared with fronts. */
export type FlashcardCheck = {
  questionType: "flashcard";
  text: string;
  options: Record<string, string>;
  part: "1" | "2";
  year: number;
  number: null;
};

export interface AnkiPlan {
  /** What will be imported, in the deck's note order (a note's cards together). */
  drafts: AnkiDraft[];
  /** Index for index with `drafts`: what the duplicate check and its dialog show (front as text). */
  views: ParsedQuestion[];
  counts: { multipleChoice: number; flashcards: number; skipped: number };
  /** Notes that became nothing, with the reason. */
  skipped: NoteIssue[];
  /** Drafts the bank cannot store ('Note 12: …'); the rest still imports. */
  errors: NoteIssue[];
  warnings: NoteIssue[];
  /** Media names the drafts show that the deck holds: what must be uploaded. */
  images: string[];
  /** Every tag of the deck with the category it sets; the review lets the user change them. */
  tags: TagCategory[];
}

const noteMessage = (note: number, message: string): string => `Note ${note}: ${message}`;

function flashcardProblem(draft: AnkiFlashcardDraft): string | null {
  if (htmlToText(draft.front) === "" && !/<img\b/i.test(draft.front)) {
    return "the card's front is empty";
  }
  if (draft.front.length > FLASHCARD_HTML_MAX) {
    return `the card's front is longer than ${FLASHCARD_HTML_MAX.toLocaleString("en-US")} characters`;
  }
  if (draft.back.length > FLASHCARD_HTML_MAX) {
    return `the card's back is longer than ${FLASHCARD_HTML_MAX.toLocaleString("en-US")} characters`;
  }
  return null;
}

/** The question the duplicate screen compares and shows for a draft. */
export function draftView(draft: AnkiDraft, note: number): ParsedQuestion {
  if (draft.type === "multipleChoice") {
    const { number, part, year, text, options, correctAnswer, explanation, category } = draft;
    return {
      number,
      part,
      year,
      text,
      options,
      correctAnswer,
      explanation,
      category,
      sourceRow: note,
    };
  }
  return {
    number: null,
    part: draft.part,
    year: draft.year,
    text: htmlToText(draft.front),
    options: emptyOptions(),
    correctAnswer: "",
    explanation: htmlToText(draft.back),
    category: draft.category,
    sourceRow: note,
  };
}

/**
 * The converter's output as the review step shows it: drafts in note order, those the bank would
 * refuse moved to `errors` (as `splitImportable` does for rows), the images to upload.
 */
export function planAnkiImport(conversion: AnkiConversion, now: Date): AnkiPlan {
  const all: AnkiDraft[] = [...conversion.questions, ...conversion.flashcards];
  all.sort((a, b) => a.note - b.note || (a.ankiCardOrd ?? 0) - (b.ankiCardOrd ?? 0));
  const drafts: AnkiDraft[] = [];
  const views: ParsedQuestion[] = [];
  const errors: NoteIssue[] = [];
  const counts = { multipleChoice: 0, flashcards: 0, skipped: conversion.skipped.length };
  const images = new Set<string>();
  for (const draft of all) {
    const n = draft.note;
    const view = draftView(draft, n);
    const problem =
      draft.type === "multipleChoice" ? importProblem(view, now) : flashcardProblem(draft);
    if (problem !== null) {
      errors.push({ note: n, noteId: draft.ankiNoteId, message: noteMessage(n, problem) });
      continue;
    }
    drafts.push(draft);
    views.push(view);
    if (draft.type === "multipleChoice") counts.multipleChoice++;
    else counts.flashcards++;
    for (const name of draft.images) images.add(name);
  }
  if (drafts.length > ANKI_IMPORT_MAX) throw new ImportError(ANKI_TOO_MANY_MESSAGE);
  const byNote = (a: NoteIssue, b: NoteIssue) => a.note - b.note;
  return {
    drafts,
    views,
    counts,
    skipped: [...conversion.skipped].sort(byNote),
    errors: errors.sort(byNote),
    warnings: [...conversion.warnings].sort(byNote),
    images: [...images],
    tags: conversion.tags,
  };
}

/** What imports.checkDuplicates is sent for each draft. */
export function ankiCheckItem(draft: AnkiDraft, view: ParsedQuestion): ImportItem | FlashcardCheck {
  if (draft.type === "multipleChoice") return toImportItem(view);
  return {
    questionType: "flashcard",
    text: view.text,
    options: {},
    part: draft.part,
    year: draft.year,
    number: null,
  };
}

export interface AnkiItemOptions {
  /** Media name → SHA-256 of the uploaded image. */
  hashes: ReadonlyMap<string, string>;
  keepProgress: boolean;
}

/** A draft as imports.commit takes it: image names replaced by the uploaded images' hashes. */
export function ankiCommitQuestion(
  draft: AnkiDraft,
  view: ParsedQuestion,
  { hashes, keepProgress }: AnkiItemOptions,
): AnkiCommitQuestion {
  const images = draft.images.flatMap((name) => hashes.get(name) ?? []);
  const progress = keepProgress && draft.progress ? { progress: draft.progress } : {};
  if (draft.type === "multipleChoice") {
    return { ...toImportItem(view), source: draft.source, images, ...progress };
  }
  return {
    questionType: "flashcard",
    text: withImageHashes(draft.front, hashes),
    back: withImageHashes(draft.back, hashes),
    category: draft.category,
    part: draft.part,
    year: draft.year,
    number: null,
    source: draft.source,
    images,
    ...progress,
  };
}
