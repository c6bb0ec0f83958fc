import { dropNul } from "../text";
import {
  emptyOptions,
  letterFromIndex,
  LETTERS,
  type Letter,
  type Options,
  type ParsedQuestion,
  type Part,
} from "../import/types";

export interface PasteContext {
  part: Part;
  year: number;
}

/**
 * Pasted exam text (live text from a photo, OCR, a PDF copy) → question drafts, without AI
 * (docs/ARCHITECTURE.md). Understands:
 * - numbered questions: '1.', '1)', '12 .', 'Q1:', 'Question 1';
 * - question-pool blocks: an 'E1A01 (D)' header (an ID and the answer letter), the stem, the
 *   options, blank-line separated; a block that lost its header still parses, without an answer;
 * - options 'A.', 'A)', '(A)', 'a.', one per line or several on a line ('A. foo B. bar C. baz');
 * - stems over several lines (joined with spaces) or paragraphs (kept apart by a blank line);
 * - 'Answer: B', 'Correct answer: (C)', 'ANS: d', 'Answer: 3' (option 3 = C);
 * - an explanation after 'Explanation:' / 'Rationale:'.
 * A draft is kept when it has question text and at least one option. Deterministic and linear.
 */
export function parseQuestionsText(text: string, ctx: PasteContext): ParsedQuestion[] {
  const kinds = expandLines(normalise(text)).map(classify);
  return new TextParser(kinds, ctx).run();
}

type Mode = "stem" | "options" | "explanation";

class TextParser {
  private readonly questions: ParsedQuestion[] = [];
  private readonly hasOptionsAhead: (i: number) => boolean;
  private current: Draft | null = null;
  private mode: Mode = "stem";
  private lastOption: Letter | null = null;

  constructor(
    private readonly kinds: LineKind[],
    private readonly ctx: PasteContext,
  ) {
    this.hasOptionsAhead = optionsAhead(kinds);
  }

  run(): ParsedQuestion[] {
    let afterBlank = false;
    for (let i = 0; i < this.kinds.length; i++) {
      const kind = this.kinds[i] as LineKind;
      if (kind.type === "blank") {
        afterBlank = true;
        continue;
      }
      this.line(kind, i, afterBlank);
      afterBlank = false;
    }
    this.finish();
    return this.questions;
  }

  private line(kind: Exclude<LineKind, { type: "blank" }>, i: number, blankBefore: boolean): void {
    const draft = this.current;
    switch (kind.type) {
      case "header":
        this.start(null, kind.answer, "");
        return;
      case "numbered":
        // Inside an explanation, '1. …' is more often a list item than the next question: it
        // starts one only when it is the next number or is followed by options.
        if (
          draft &&
          this.mode === "explanation" &&
          !(draft.number !== null && kind.number === draft.number + 1) &&
          !this.hasOptionsAhead(i)
        ) {
          appendTo(draft.explanation, kind.raw, blankBefore);
          return;
        }
        // A numbered list inside a stem ('1. fever 2. rash' under question 5) restarts low.
        if (draft && this.mode === "stem" && draft.number !== null && kind.number <= draft.number) {
          this.plainText(draft, kind.raw, blankBefore, i);
          return;
        }
        this.start(kind.number, "", kind.text);
        return;
      case "option": {
        const target = draft ?? this.start(null, "", "");
        const index = LETTERS.indexOf(kind.letter);
        const highest = this.lastOption === null ? -1 : LETTERS.indexOf(this.lastOption);
        const inOrder = (highest === -1 && index <= 1) || (highest >= 0 && index > highest);
        // Inside an explanation, 'A. is wrong because…' discusses an option; it is not one.
        if (inOrder && this.mode !== "explanation") {
          target.options[kind.letter] = kind.text;
          this.lastOption = kind.letter;
          this.mode = "options";
          return;
        }
        this.plainText(target, kind.raw, blankBefore, i);
        return;
      }
      case "answer": {
        const target = draft ?? this.start(null, "", "");
        target.answer = kind.answer;
        this.mode = "explanation";
        if (kind.rest !== "") appendTo(target.explanation, kind.rest, false);
        return;
      }
      case "explanation": {
        const target = draft ?? this.start(null, "", "");
        this.mode = "explanation";
        if (kind.text !== "")
          appendTo(target.explanation, kind.text, target.explanation.length > 0);
        return;
      }
      case "text":
        if (draft) this.plainText(draft, kind.raw, blankBefore, i);
        else this.start(null, "", kind.raw);
        return;
    }
  }

  private plainText(draft: Draft, line: string, blankBefore: boolean, i: number): void {
    if (this.mode === "stem") {
      appendTo(draft.text, line, blankBefore);
      return;
    }
    if (this.mode === "options") {
      if (blankBefore) {
        // After a blank line, text following the options is the next question's stem (pool
        // blocks that lost their header) or a heading; a heading gets no options and is dropped.
        this.start(null, "", line);
        return;
      }
      // No blank line: a long option wrapped onto the next line.
      if (this.lastOption) {
        const before = draft.options[this.lastOption];
        draft.options[this.lastOption] = before === "" ? line : `${before} ${line}`;
      }
      return;
    }
    if (blankBefore && this.hasOptionsAhead(i)) {
      this.start(null, "", line);
      return;
    }
    appendTo(draft.explanation, line, blankBefore);
  }

  private start(number: number | null, answer: "" | Letter, text: string): Draft {
    this.finish();
    const draft: Draft = {
      number,
      text: text === "" ? [] : [text],
      options: emptyOptions(),
      answer,
      explanation: [],
    };
    this.current = draft;
    return draft;
  }

  private finish(): void {
    if (this.current) {
      const q = toQuestion(this.current, this.ctx);
      if (q) this.questions.push(q);
    }
    this.current = null;
    this.mode = "stem";
    this.lastOption = null;
  }
}

interface Draft {
  number: number | null;
  /** Stem pieces; '' marks a paragraph break. */
  text: string[];
  options: Options;
  answer: "" | Letter;
  explanation: string[];
}

function appendTo(parts: string[], line: string, newParagraph: boolean): void {
  if (newParagraph && parts.length > 0) parts.push("");
  parts.push(line);
}

function joinParts(parts: string[]): string {
  const pieces: string[] = [];
  let breakBefore = false;
  for (const part of parts) {
    if (part === "") {
      breakBefore = pieces.length > 0;
      continue;
    }
    if (pieces.length > 0) pieces.push(breakBefore ? "\n\n" : " ");
    pieces.push(part);
    breakBefore = false;
  }
  return pieces.join("").trim();
}

function toQuestion(draft: Draft, ctx: PasteContext): ParsedQuestion | null {
  const text = joinParts(draft.text);
  if (text === "") return null;
  if (!LETTERS.some((letter) => draft.options[letter] !== "")) return null;
  return {
    number: draft.number,
    part: ctx.part,
    year: ctx.year,
    text,
    options: draft.options,
    correctAnswer: draft.answer,
    explanation: joinParts(draft.explanation),
    category: "",
  };
}

// ---------------------------------------------------------------------------------------------
// Lines

function normalise(text: string): string[] {
  return dropNul(String(text))
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .replace(/[\u00a0\u2007\u202f]/g, " ")
    .split("\n")
    .map((line) => line.trimEnd());
}

// Anchored on the label, preceded by whitespace (a lookbehind, not a leading \s+: that would
// backtrack quadratically over long runs of spaces).
const INLINE_ANSWER =
  /(?<=\s)(?:correct\s+)?(?:answer|ans)\s*[:=–-]\s*\(?[A-Ea-e1-5]\)?(?![A-Za-z0-9])/i;
const MARKER = /(^|\s)(?:\(([A-Ea-e])\)|([A-Ea-e])[.)])\s+(?=\S)/g;

/**
 * Splits lines holding several options ('A. foo B. bar C. baz', or a stem followed by its
 * options) into one line per option, and moves an inline 'Answer: X' to a line of its own. Only
 * a run of consecutive letters counts (A then B then C…), so 'vitamin B. deficiency' in a stem
 * stays whole.
 */
function expandLines(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const answerAt = ANSWER.test(line.trim()) ? -1 : line.search(INLINE_ANSWER);
    const pieces =
      answerAt > 0 ? [line.slice(0, answerAt).trimEnd(), line.slice(answerAt).trim()] : [line];
    for (const piece of pieces) out.push(...splitOptions(piece));
  }
  return out;
}

interface Marker {
  at: number;
  end: number;
  letter: string;
}

function splitOptions(line: string): string[] {
  const markers: Marker[] = [];
  MARKER.lastIndex = 0;
  for (let m = MARKER.exec(line); m; m = MARKER.exec(line)) {
    const letter = m[2] ?? m[3] ?? "";
    const at = m.index + (m[1]?.length ?? 0);
    markers.push({ at, end: m.index + m[0].length, letter });
    if (MARKER.lastIndex === m.index) MARKER.lastIndex++;
  }
  if (markers.length < 2) return [line];
  for (let s = 0; s < markers.length; s++) {
    const first = markers[s] as Marker;
    const isA = first.letter === "A" || first.letter === "a";
    if (first.at !== 0 && !isA) continue;
    const run: Marker[] = [first];
    // Each option follows the previous one directly: scanning on past a mismatch would make a
    // line of many markers quadratic, for no real text that needs it.
    for (let k = s + 1; k < markers.length; k++) {
      const prev = run[run.length - 1] as Marker;
      const next = markers[k] as Marker;
      if (next.letter.charCodeAt(0) !== prev.letter.charCodeAt(0) + 1) break;
      run.push(next);
    }
    if (run.length < 2) continue;
    const pieces: string[] = [];
    const before = line.slice(0, first.at).trim();
    if (before !== "") pieces.push(before);
    run.forEach((marker, k) => {
      const next = run[k + 1];
      pieces.push(line.slice(marker.at, next ? next.at : line.length).trim());
    });
    return pieces;
  }
  return [line];
}

type LineKind =
  | { type: "blank" }
  | { type: "header"; answer: "" | Letter }
  | { type: "numbered"; number: number; text: string; raw: string }
  | { type: "option"; letter: Letter; text: string; raw: string }
  | { type: "answer"; answer: "" | Letter; rest: string }
  | { type: "explanation"; text: string }
  | { type: "text"; raw: string };

const HEADER = /^([A-Z]{1,3}\d[A-Z0-9]{1,6})\s*\(([A-Ea-e])\)$/;
const NUMBERED =
  /^(?:(?:question|q)\s*(?:#\s*)?(\d{1,4})(?![\d.]\d)(?:\s*[.):–-])?|(\d{1,4})\s*[.)](?!\d))(.*)$/i;
const OPTION = /^(?:\(([A-Ea-e])\)|([A-Ea-e])\s*[.)])(.*)$/;
const ANSWER =
  /^(?:correct\s+answer|correct\s+option|answer\s+key|answer|ans|key)\s*(?:is\s+)?(?:[:=–-]\s*)?(?:\(\s*)?([A-Ea-e1-5])(?:\s*\))?(?![A-Za-z0-9])[.):]?(.*)$/i;
const EXPLANATION = /^(?:explanation|rationale|discussion)\s*[:.–-](.*)$/i;

function classify(line: string): LineKind {
  const t = line.trim();
  if (t === "") return { type: "blank" };
  let m = HEADER.exec(t);
  if (m?.[2]) return { type: "header", answer: m[2].toUpperCase() as Letter };
  m = ANSWER.exec(t);
  if (m?.[1]) {
    const token = m[1].toUpperCase();
    const answer = /[1-5]/.test(token) ? letterFromIndex(Number(token)) : (token as Letter);
    return { type: "answer", answer, rest: (m[2] ?? "").trim() };
  }
  m = EXPLANATION.exec(t);
  if (m) return { type: "explanation", text: (m[1] ?? "").trim() };
  m = NUMBERED.exec(t);
  if (m) {
    const number = Number(m[1] ?? m[2]);
    return { type: "numbered", number, text: (m[3] ?? "").trim(), raw: t };
  }
  m = OPTION.exec(t);
  if (m) {
    const letter = (m[1] ?? m[2] ?? "A").toUpperCase() as Letter;
    return { type: "option", letter, text: (m[3] ?? "").trim(), raw: t };
  }
  return { type: "text", raw: t };
}

/**
 * For each line i: is an option A (or B, when OCR lost A) coming before the next question start?
 * Precomputed backwards so the whole parse stays linear.
 */
function optionsAhead(kinds: LineKind[]): (i: number) => boolean {
  const ahead: boolean[] = new Array<boolean>(kinds.length + 1).fill(false);
  for (let i = kinds.length - 1; i >= 0; i--) {
    const next = kinds[i + 1];
    if (!next) continue;
    if (next.type === "numbered" || next.type === "header") ahead[i] = false;
    else if (next.type === "option" && (next.letter === "A" || next.letter === "B"))
      ahead[i] = true;
    else ahead[i] = ahead[i + 1] ?? false;
  }
  return (i) => ahead[i] ?? false;
}
