import { readAnswerCell } from "../answer-cell";
import { ImportError } from "../errors";
import {
  emptyOptions,
  LETTERS,
  type Letter,
  type Options,
  type ParsedQuestion,
  type Part,
} from "../types";
import { decodeEntities, htmlToText, imageNames, sanitizeHtml, stripSounds } from "./html";
import { ANKI_MESSAGES, type AnkiWarningKind } from "./messages";
import type { AnkiCard, AnkiNote, AnkiNoteType, AnkiPackage } from "./read";
import {
  categoryByTag,
  noteCategory,
  tagCategories,
  type TagCategory,
  type TagCategoryChoices,
} from "./tags";
import { clozeNumbers, isBlankField, renderTemplate } from "./template";

/** A card's Anki scheduling, for "Keep my Anki progress"; null for cards never studied. */
export interface AnkiProgress {
  state: "learning" | "review" | "relearning";
  suspended: boolean;
  intervalDays: number;
  /** Anki's ease as a factor (2.5 = 250 %); null when Anki stored none. */
  easeFactor: number | null;
  /** When the card is next due, epoch milliseconds; null when unknown. */
  dueAt: number | null;
  reps: number;
  lapses: number;
}

/** Where a draft came from, for the review screen, the media importer and the progress option. */
export interface AnkiOrigin {
  ankiNoteId: number;
  /** The note's 1-based position in creation order, as issues number notes. */
  note: number;
  /** The card's template index or cloze number - 1; null for multiple choice (one per note). */
  ankiCardOrd: number | null;
  /** The deck name ('Parent::Child'), kept as the question's source. */
  source: string;
  tags: string[];
  /** Media file names the draft shows, to be imported with it. */
  images: string[];
  progress: AnkiProgress | null;
}

export type AnkiQuestionDraft = ParsedQuestion & AnkiOrigin & { type: "multipleChoice" };

export interface AnkiFlashcardDraft extends AnkiOrigin {
  type: "flashcard";
  part: Part;
  year: number;
  /** Sanitized HTML (see html.ts): what Anki showed before and after the answer. */
  front: string;
  back: string;
  category: string;
}

/** A problem or a note about one Anki note; `note` is its 1-based position in creation order. */
export interface NoteIssue {
  note: number;
  noteId: number;
  message: string;
  /** A warning's kind, by which the review and the CLI group warnings. */
  kind?: AnkiWarningKind;
}

export interface AnkiConversion {
  questions: AnkiQuestionDraft[];
  flashcards: AnkiFlashcardDraft[];
  /** Notes that became nothing, with the reason. */
  skipped: NoteIssue[];
  warnings: NoteIssue[];
  /** Every tag of the deck with the category it sets (decision 285). */
  tags: TagCategory[];
}

export interface AnkiConvertOptions {
  part: Part;
  year: number;
  /** The user's category for some tags, overriding the rule ('' for none). */
  tagCategories?: TagCategoryChoices;
}

const DAY_MS = 86_400_000;

/**
 * Notes → drafts (decision 180). A note whose fields or front hold options A-E becomes one
 * multiple-choice question; every other note becomes one flashcard per Anki card. Throws the
 * product's message when nothing usable is left.
 */
export function convertAnkiPackage(pkg: AnkiPackage, options: AnkiConvertOptions): AnkiConversion {
  const types = new Map(pkg.noteTypes.map((t) => [t.id, t]));
  const cardsByNote = new Map<number, AnkiCard[]>();
  for (const card of pkg.cards) {
    const list = cardsByNote.get(card.noteId) ?? [];
    list.push(card);
    cardsByNote.set(card.noteId, list);
  }
  const tags = tagCategories(pkg.notes, options.tagCategories);
  const byTag = categoryByTag(tags);
  const out: AnkiConversion = { questions: [], flashcards: [], skipped: [], warnings: [], tags };
  pkg.notes.forEach((note, index) => {
    const issue = (message: string): NoteIssue => ({ note: index + 1, noteId: note.id, message });
    const type = types.get(note.noteTypeId);
    if (!type) {
      out.skipped.push(issue("Its note type is missing from the deck."));
      return;
    }
    const cards = cardsByNote.get(note.id) ?? [];
    const warn: Warn = (kind, message) => {
      out.warnings.push({ ...issue(message), kind });
    };
    const header = headerReason(note, type);
    if (header) {
      out.skipped.push(issue(header));
      return;
    }
    const fields = new Map<string, string>();
    const sounds: string[] = [];
    type.fields.forEach((name, k) => {
      const stripped = stripSounds(note.fields[k] ?? "");
      sounds.push(...stripped.sounds);
      fields.set(name, stripped.html);
    });
    if ([...fields.values()].every(isBlankField)) {
      const reason =
        sounds.length > 0
          ? "The note holds only sound, which PRITE Study does not play."
          : "The note is empty.";
      out.skipped.push(issue(reason));
      return;
    }
    if (sounds.length > 0) {
      warn("sound", `Sound removed (${sounds.join(", ")}): PRITE Study does not play audio.`);
    }
    const origin = {
      ankiNoteId: note.id,
      note: index + 1,
      source: note.deck,
      tags: note.tags,
    };
    const category = noteCategory(note.tags, byTag);
    const mcq = multipleChoice({ type, fields, cards, options, warn });
    if (mcq) {
      const first = [...cards].sort((a, b) => a.ord - b.ord)[0];
      out.questions.push({
        ...mcq.question,
        category,
        type: "multipleChoice",
        ...origin,
        ankiCardOrd: null,
        images: mcq.images,
        progress: first ? progressOf(first, pkg.createdAt) : null,
      });
      warnMissing(mcq.images, pkg.media, warn);
      return;
    }
    const made = flashcards(type, fields, cards);
    if (made.length === 0) {
      out.skipped.push(issue("None of its cards has anything on the front."));
      return;
    }
    // A reversed note shows its image on both cards: one warning for the note is enough.
    const images = [...new Set(made.flatMap((card) => card.images))];
    warnMissing(images, pkg.media, warn);
    for (const card of made) {
      out.flashcards.push({
        type: "flashcard",
        part: options.part,
        year: options.year,
        front: card.front,
        back: card.back,
        category,
        ...origin,
        ankiCardOrd: card.ord,
        images: card.images,
        progress: card.card ? progressOf(card.card, pkg.createdAt) : null,
      });
    }
  });
  if (out.questions.length === 0 && out.flashcards.length === 0) {
    throw new ImportError(ANKI_MESSAGES.noUsableNotes);
  }
  return out;
}

/** Notes a warning about the note being converted. */
type Warn = (kind: AnkiWarningKind, message: string) => void;

function warnMissing(images: string[], media: Map<string, Uint8Array>, warn: Warn): void {
  for (const name of images) {
    if (!media.has(name))
      warn("missingImage", `The image ${name} is not in the deck's media; it was left out.`);
  }
}

/**
 * A note that is a spreadsheet header imported by mistake: every field is a column label
 * ('Column A', 'Column B' — the labels Anki's CSV import gives columns) or repeats the note type's
 * own field name ('Front', 'Back').
 */
function headerReason(note: AnkiNote, type: AnkiNoteType): string | null {
  // Labels are short: longer fields settle it without converting any HTML (most notes).
  if (note.fields.some((f) => f.length > 80)) return null;
  const values = note.fields.map((f) => htmlToText(f));
  const filled = values.filter((v) => v !== "");
  if (filled.length < 2) return null;
  const labels = values.every(
    (v, k) =>
      v === "" ||
      /^column [a-z]{1,2}$/i.test(v) ||
      v.toLowerCase() === type.fields[k]?.toLowerCase(),
  );
  return labels ? `A spreadsheet header row, not a card (${filled.join(", ")}).` : null;
}

function progressOf(card: AnkiCard, createdAt: number): AnkiProgress | null {
  if (card.type === 0 || card.reps === 0) return null;
  const state = card.type === 1 ? "learning" : card.type === 3 ? "relearning" : "review";
  // Learning cards are due at an epoch second; review cards on a day counted from the
  // collection's creation. A suspended card keeps its due; a number this large can only be seconds.
  const dueAt =
    card.queue === 1 || card.due > 1_000_000_000
      ? card.due * 1000
      : createdAt > 0
        ? createdAt * 1000 + card.due * DAY_MS
        : null;
  return {
    state,
    suspended: card.queue === -1,
    intervalDays: Math.max(0, card.interval),
    easeFactor: card.factor > 0 ? card.factor / 1000 : null,
    dueAt,
    reps: card.reps,
    lapses: card.lapses,
  };
}

// --- Multiple choice -------------------------------------------------------------------------

const QUESTION_FIELD = /^(?:question|stem|question stem|vignette)$/i;
const OPTION_FIELD = /^(?:(?:option|choice|answer)[\s_-]*)?([A-E])$/i;
const ANSWER_FIELD = /^(?:answer|correct|correct answer|correct option|key|answer key)$/i;
const EXPLANATION_FIELD = /^(?:explanation|rationale|discussion)$/i;
const OPTION_LINE = /^\(?([A-E])\s*[.)](.*)$/;
/** 'A.' or 'A)' (or '(A)') after a tag, a line start or a space: where an option A could begin. */
const MAYBE_OPTION_A = /(?:^|[>\s(])A[.)]/;
const ANSWER_LABEL = /^(?:correct answer|answer|ans|correct)(?:\s+is)?\s*[:=-]/i;

interface McqResult {
  question: Omit<ParsedQuestion, "category">;
  images: string[];
}

/** One note being converted: its type, its fields (sounds removed), its cards. */
interface NoteContext {
  type: AnkiNoteType;
  fields: Map<string, string>;
  cards: AnkiCard[];
  options: AnkiConvertOptions;
  warn: Warn;
}

function multipleChoice(ctx: NoteContext): McqResult | null {
  if (ctx.type.kind === "cloze") return null;
  return mcqFromFieldNames(ctx) ?? mcqFromFront(ctx);
}

function draft(
  text: string,
  opts: Options,
  correctAnswer: "" | Letter,
  explanation: string,
  options: AnkiConvertOptions,
): Omit<ParsedQuestion, "category"> {
  return {
    number: null,
    part: options.part,
    year: options.year,
    text,
    options: opts,
    correctAnswer,
    explanation,
  };
}

/** Fields named Question/Stem, A-E (or Option A-E), Answer/Correct, Explanation. */
function mcqFromFieldNames({ type, fields, options, warn }: NoteContext): McqResult | null {
  const find = (re: RegExp): string | undefined => type.fields.find((f) => re.test(f.trim()));
  const questionField = find(QUESTION_FIELD);
  if (!questionField) return null;
  const opts = emptyOptions();
  for (const name of type.fields) {
    const letter = OPTION_FIELD.exec(name.trim())?.[1]?.toUpperCase() as Letter | undefined;
    if (letter && opts[letter] === "") opts[letter] = htmlToText(fields.get(name) ?? "");
  }
  if (opts.A === "" || opts.B === "") return null;
  const answerField = find(ANSWER_FIELD);
  const explanationField = find(EXPLANATION_FIELD);
  const used = [
    questionField,
    answerField,
    explanationField,
    ...type.fields.filter((f) => OPTION_FIELD.test(f.trim())),
  ];
  const images = used.flatMap((f) => (f ? imageNames(fields.get(f) ?? "") : []));
  const answer = answerField
    ? readAnswer(htmlToText(fields.get(answerField) ?? ""), opts, warn)
    : "";
  if (!answerField)
    warn("noAnswerField", "The note has no answer field: set the answer while reviewing.");
  return {
    question: draft(
      htmlToText(fields.get(questionField) ?? ""),
      opts,
      answer,
      explanationField ? htmlToText(fields.get(explanationField) ?? "") : "",
      options,
    ),
    images: [...new Set(images)],
  };
}

function readAnswer(raw: string, opts: Options, warn: Warn): "" | Letter {
  if (raw === "") {
    warn("emptyAnswer", "The answer is empty: set it while reviewing.");
    return "";
  }
  const reading = readAnswerCell(raw.split("\n")[0] ?? "", opts);
  if (reading.kind === "letter") return reading.letter;
  warn(
    "unreadAnswer",
    `The answer "${raw.slice(0, 60)}" names no single option: set it while reviewing.`,
  );
  return "";
}

/**
 * Options written in the front's HTML, one per line ('A. …' to 'E. …', in order from A, at least
 * two). The answer is read from the back: a letter ('Answer: C', 'C', 'C. text'), else the one
 * option the back colours differently from the others (inferred, with a warning), else the back's
 * text equal to one option's text.
 */
function mcqFromFront({ type, fields, cards, options, warn }: NoteContext): McqResult | null {
  const template = type.templates.find((t) => t.ord === (cards[0]?.ord ?? 0)) ?? type.templates[0];
  if (!template) return null;
  const frontHtml = renderTemplate(template.front, { fields, cloze: null, side: "front" });
  // Most fronts have no option A at all: skip the HTML conversion for them.
  if (!MAYBE_OPTION_A.test(frontHtml)) return null;
  const lines = htmlToText(frontHtml)
    .split("\n")
    .filter((l) => l !== "");
  const first = lines.findIndex((l) => OPTION_LINE.exec(l)?.[1] === "A");
  if (first < 1) return null; // no stem before the options
  const opts = emptyOptions();
  let k = 0;
  let end = first;
  for (let at = first; at < lines.length; at++) {
    const m = OPTION_LINE.exec(lines[at] ?? "");
    if (!m || m[1] !== LETTERS[k]) break;
    opts[LETTERS[k] as Letter] = (m[2] ?? "").trim();
    k++;
    end = at + 1;
  }
  if (k < 2 || opts.A === "" || opts.B === "") return null;
  const stem = [...lines.slice(0, first), ...lines.slice(end)].join("\n");

  const fullBack = renderTemplate(template.back, {
    fields,
    cloze: null,
    side: "back",
    frontSide: frontHtml,
  });
  const backHtml = answerPart(fullBack, frontHtml);
  const backLines = htmlToText(backHtml)
    .split("\n")
    .filter((l) => l !== "");
  const stemLines = new Set(lines.slice(0, first));
  const optionTexts = new Set(LETTERS.map((l) => opts[l]).filter((t) => t !== ""));
  let answer: "" | Letter = "";
  let answerLine = -1;
  backLines.forEach((line, at) => {
    if (answer !== "") return;
    const label = ANSWER_LABEL.exec(line);
    const labelled = label ? line.slice(label[0].length).trim() : null;
    // Unlabelled, only a short back's first line can be the answer ('C', 'C. Lithium').
    const candidate = labelled !== null ? labelled : backLines.length <= 2 && at === 0 ? line : "";
    if (candidate === "") return;
    const reading = readAnswerCell(candidate, opts);
    if (reading.kind === "letter") {
      answer = reading.letter;
      answerLine = at;
    }
  });
  if (answer === "") {
    const coloured = answerByColour(backHtml);
    if (coloured) {
      answer = coloured;
      warn(
        "colourAnswer",
        `Answer ${coloured} inferred from the colour of its option on the back of the card.`,
      );
    }
  }
  if (answer === "") {
    const text = backLines.join(" ").trim();
    const match = LETTERS.find(
      (l) => opts[l] !== "" && opts[l].toLowerCase() === text.toLowerCase(),
    );
    if (match) answer = match;
  }
  if (answer === "")
    warn("noAnswer", "No answer found on the back of the card: set it while reviewing.");
  const explanation = backLines
    .filter((line, at) => {
      if (at === answerLine || stemLines.has(line)) return false;
      const option = OPTION_LINE.exec(line);
      return !(option && optionTexts.has((option[2] ?? "").trim()));
    })
    .join("\n");
  const images = [...new Set([...imageNames(frontHtml), ...imageNames(backHtml)])];
  return { question: draft(stem, opts, answer, explanation, options), images };
}

/** The back without the front it repeats: after Anki's `<hr id=answer>`, else without a leading copy. */
function answerPart(back: string, front: string): string {
  const hr = /<hr[^>]*\bid\s*=\s*["']?answer["']?[^>]*>/gi;
  let last = -1;
  for (const m of back.matchAll(hr)) last = m.index + m[0].length;
  if (last >= 0) return back.slice(last);
  const trimmed = back.trimStart();
  return front.trim() !== "" && trimmed.startsWith(front.trim())
    ? trimmed.slice(front.trim().length)
    : back;
}

const BLOCK_SPLIT = /<(?:br|\/?div|\/?p|\/?li|\/?tr)\b[^>]*>/i;
const COLOUR = /\bcolor\s*[=:]\s*["']?([^"';>\s]*)/gi;

/**
 * The letter of the only option on the back whose colour differs from every other option's (the
 * ham deck writes the correct one in black, the others in light grey). Works on the raw HTML:
 * sanitizing removes colours.
 */
function answerByColour(backHtml: string): Letter | null {
  const colourOf = new Map<Letter, string>();
  for (const block of backHtml.split(BLOCK_SPLIT)) {
    // Only the option letter matters here: plain tag stripping is enough, and much cheaper than
    // the sanitizer for every block of every back.
    const text = decodeEntities(block.replace(/<[^<>]*>/g, "")).trim();
    const letter = OPTION_LINE.exec(text)?.[1] as Letter | undefined;
    if (!letter || colourOf.has(letter)) continue;
    let colour = "";
    for (const m of block.matchAll(COLOUR)) colour = (m[1] ?? "").toLowerCase();
    colourOf.set(letter, colour);
  }
  if (colourOf.size < 2) return null;
  const counts = new Map<string, number>();
  for (const c of colourOf.values()) counts.set(c, (counts.get(c) ?? 0) + 1);
  const odd = [...colourOf].filter(([, c]) => counts.get(c) === 1);
  // Exactly one option stands out, and all the others agree with each other.
  if (odd.length !== 1 || counts.size !== 2) return null;
  return odd[0]?.[0] ?? null;
}

// --- Flashcards ------------------------------------------------------------------------------

interface MadeCard {
  ord: number;
  card: AnkiCard | null;
  front: string;
  back: string;
  images: string[];
}

/**
 * One flashcard per Anki card: for normal note types the card's template, for cloze note types the
 * cloze number ord + 1. A note without card rows (a hand-made package) gets the cards Anki would
 * generate: each template whose front is not empty, or each cloze number in its fields.
 */
function flashcards(
  type: AnkiNoteType,
  fields: Map<string, string>,
  cards: AnkiCard[],
): MadeCard[] {
  const wanted: Array<{ ord: number; card: AnkiCard | null }> =
    cards.length > 0
      ? cards.map((card) => ({ ord: card.ord, card }))
      : type.kind === "cloze"
        ? clozeNumbers([...fields.values()].join("")).map((n) => ({ ord: n - 1, card: null }))
        : type.templates.map((t) => ({ ord: t.ord, card: null }));
  const made: MadeCard[] = [];
  for (const { ord, card } of wanted) {
    const template =
      type.kind === "cloze" ? type.templates[0] : type.templates.find((t) => t.ord === ord);
    if (!template) continue;
    const cloze = type.kind === "cloze" ? ord + 1 : null;
    const frontRaw = renderTemplate(template.front, { fields, cloze, side: "front" });
    if (isBlankField(frontRaw)) continue;
    const backRaw = answerPart(
      renderTemplate(template.back, { fields, cloze, side: "back", frontSide: frontRaw }),
      frontRaw,
    );
    made.push({
      ord,
      card,
      front: sanitizeHtml(frontRaw),
      back: sanitizeHtml(backRaw),
      images: [...new Set([...imageNames(frontRaw), ...imageNames(backRaw)])],
    });
  }
  return made;
}
