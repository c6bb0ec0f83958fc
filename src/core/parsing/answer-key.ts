import { dropNul } from "../text";
import { isLetter, letterFromIndex, type Letter } from "../import/types";

export type AnswerMap = Record<number, Letter>;

export interface AnswerKeySection {
  /** The heading line above the section ('Subject 2: Business Studies (305)'), or 'Section N'. */
  title: string;
  answers: AnswerMap;
  warnings: string[];
}

export interface AnswerKeyResult {
  /** Question number → letter, from the first section. */
  answers: AnswerMap;
  warnings: string[];
  /** Every section found; numbering restarting at the start of the key begins a new section. */
  sections: AnswerKeySection[];
}

/** Question numbers above this are IDs or years, not exam item numbers. */
const MAX_QUESTION_NUMBER = 9_999;

/**
 * Answer-key text → {question number: letter}, without AI (docs/ARCHITECTURE.md). Reads:
 * - several answers per line: '1. B 2. D 3. A', '1-B', '1: b', '1) (C)', '1 B';
 * - the letter first: 'A. 1' (also 'A: 1, 4, 7');
 * - numeric answers 1-5 as A-E (with a warning saying so);
 * - a letter in parentheses among the options is the answer: '1. A (B) C D' → B (docs/product/validation.md);
 * - tables with a header row naming the number and answer columns ('Sr. No. | Question ID |
 *   Correct Options/Answers | …'), tab- or '|'-separated; other columns are ignored.
 *
 * Sections: when the numbering restarts (a number at or below the first number of the current
 * section), a new section begins, titled by the last line above it that held no answer. Only the
 * first section's answers are returned in `answers`, with a warning naming the others: merging
 * them would give several answers to the same question number, and offsetting them would invent
 * numbers that match nothing in the bank. Every section is still returned in `sections`.
 * Dropped questions ('Drop', 'Bonus', 'Deleted') are skipped with a warning.
 */
export function parseAnswerKey(text: string): AnswerKeyResult {
  const lines = dropNul(String(text))
    .replace(/^\uFEFF/, "")
    .split(/\r\n?|\n/);
  const builder = new KeyBuilder();
  let table: TableLayout | null = null;

  for (const rawLine of lines) {
    const line = rawLine.replace(/\u00a0/g, " ").trim();
    if (line === "") continue;
    const cells = splitCells(line);
    const header = cells.length >= 2 ? tableHeader(cells) : null;
    if (header) {
      table = header;
      continue;
    }
    if (table) {
      // Markdown tables have a '|---|---|' rule under the header.
      if (cells.every((c) => /^:?-{2,}:?$|^$/.test(c))) continue;
      const row = tableRow(cells, table);
      if (row) {
        builder.record(row.number, row.answer);
        continue;
      }
      table = null;
    }
    const pairs = linePairs(line);
    if (pairs.length === 0) {
      builder.note(line);
      continue;
    }
    for (const pair of pairs) builder.record(pair.number, pair.answer);
  }
  return builder.result();
}

/**
 * Fills correctAnswer from a key by question number. Questions that already have an answer keep
 * it unless `overwrite`; `applied` counts the questions whose answer changed.
 */
export function applyAnswerKey<Q extends { number: number | null; correctAnswer: "" | Letter }>(
  questions: readonly Q[],
  answers: Readonly<Record<number, string>>,
  opts: { overwrite: boolean },
): { questions: Q[]; applied: number } {
  let applied = 0;
  const out = questions.map((question) => {
    const n = question.number;
    if (n === null || !Object.prototype.hasOwnProperty.call(answers, n)) return question;
    const letter = answers[n];
    if (typeof letter !== "string" || !isLetter(letter)) return question;
    if (question.correctAnswer !== "" && !opts.overwrite) return question;
    if (question.correctAnswer === letter) return question;
    applied++;
    return { ...question, correctAnswer: letter };
  });
  return { questions: out, applied };
}

// ---------------------------------------------------------------------------------------------

type Token =
  | { kind: "letter"; letter: Letter; from: "letter" | "number" }
  | { kind: "dropped" }
  | { kind: "invalid"; raw: string }
  | { kind: "several"; raw: string };

interface Pair {
  number: number;
  answer: Token;
}

interface TableLayout {
  numberColumn: number;
  answerColumn: number;
}

function splitCells(line: string): string[] {
  if (line.includes("\t")) return line.split("\t").map((c) => c.trim());
  if (line.includes("|")) {
    return line
      .split("|")
      .map((c) => c.trim())
      .filter((c, k, all) => c !== "" || (k > 0 && k < all.length - 1));
  }
  return [line];
}

const NUMBER_HEADER =
  /^(?:sr\.?\s*no\.?|s\.?\s*no\.?|serial(?:\s*no\.?|\s*number)?|q\.?\s*no\.?|question\s*(?:no\.?|number|#)|item(?:\s*no\.?)?|no\.?|#|number)$/i;
const ID_HEADER = /^question\s*id$/i;

function tableHeader(cells: string[]): TableLayout | null {
  let numberColumn = cells.findIndex((c) => NUMBER_HEADER.test(c));
  if (numberColumn === -1) numberColumn = cells.findIndex((c) => ID_HEADER.test(c));
  if (numberColumn === -1) return null;
  const answerish = (c: string) => !/challenge|claim|image/i.test(c);
  let answerColumn = cells.findIndex((c) => /correct/i.test(c) && answerish(c));
  if (answerColumn === -1) {
    answerColumn = cells.findIndex((c) => /answer|key|response/i.test(c) && answerish(c));
  }
  if (answerColumn === -1 || answerColumn === numberColumn) return null;
  return { numberColumn, answerColumn };
}

function tableRow(cells: string[], layout: TableLayout): Pair | null {
  const m = /^(\d{1,4})\s*[.)]?$/.exec(cells[layout.numberColumn] ?? "");
  if (!m?.[1]) return null;
  const number = Number(m[1]);
  if (cells.some((c) => DROPPED.test(c))) return { number, answer: { kind: "dropped" } };
  return { number, answer: readToken(cells[layout.answerColumn] ?? "") };
}

const DROPPED = /^(?:drop(?:ped)?|bonus|deleted|cancell?ed|withdrawn)\b/i;

/** One answer cell or segment: 'B', '(c)', '3', 'Drop', 'A, C'. */
function readToken(raw: string): Token {
  const t = raw.trim();
  if (DROPPED.test(t)) return { kind: "dropped" };
  const paren = /\(\s*([A-Ea-e]|[1-5])\s*\)/.exec(t);
  if (paren?.[1]) return tokenOf(paren[1]);
  const m = /^([A-Za-z]|\d{1,2})(?![A-Za-z0-9])[.)]?$/.exec(t);
  if (m?.[1]) return tokenOf(m[1]);
  if (/^(?:[A-Ea-e1-5][.)]?\s*(?:[,/&;]|and)\s*)+[A-Ea-e1-5][.)]?$/i.test(t)) {
    return { kind: "several", raw: t };
  }
  return { kind: "invalid", raw: t };
}

function tokenOf(raw: string): Token {
  if (/^[1-5]$/.test(raw)) {
    return { kind: "letter", letter: letterFromIndex(Number(raw)) as Letter, from: "number" };
  }
  const upper = raw.toUpperCase();
  if (isLetter(upper)) return { kind: "letter", letter: upper, from: "letter" };
  return { kind: "invalid", raw };
}

const LETTER_FIRST = /^\(?([A-Ea-e])\)?\s*[.):=–-]\s*(\d{1,4}(?:\s*[,;]\s*\d{1,4})*)$/;
const MARKER = /(?:^|[\s,;])(?:q\.?\s*)?(\d{1,4})\s*[.):=–-](?!\d)/gi;
const SPACED_PAIR = /(?:^|\s)(\d{1,4})\s+\(?([A-Ea-e])\)?(?![A-Za-z0-9])/g;
const TAB_NUMERIC = /^(\d{1,4})\t+([1-5])$/;

/** The (number, answer) pairs written on one line of free text. */
function linePairs(line: string): Pair[] {
  const first = LETTER_FIRST.exec(line);
  if (first?.[1] && first[2]) {
    const token = tokenOf(first[1]);
    return first[2].split(/[,;]/).map((n) => ({ number: Number(n.trim()), answer: token }));
  }

  const markers: { number: number; start: number; end: number }[] = [];
  MARKER.lastIndex = 0;
  for (let m = MARKER.exec(line); m; m = MARKER.exec(line)) {
    markers.push({ number: Number(m[1]), start: m.index, end: m.index + m[0].length });
  }
  const pairs: Pair[] = [];
  markers.forEach((marker, k) => {
    const next = markers[k + 1];
    const body = line.slice(marker.end, next ? next.start : line.length).trim();
    const token = segmentAnswer(body);
    if (token) pairs.push({ number: marker.number, answer: token });
  });
  if (pairs.length > 0) return pairs;

  const tabbed = TAB_NUMERIC.exec(line);
  if (tabbed?.[1] && tabbed[2]) return [{ number: Number(tabbed[1]), answer: tokenOf(tabbed[2]) }];
  SPACED_PAIR.lastIndex = 0;
  for (let m = SPACED_PAIR.exec(line); m; m = SPACED_PAIR.exec(line)) {
    if (m[1] && m[2]) pairs.push({ number: Number(m[1]), answer: tokenOf(m[2]) });
  }
  return pairs;
}

/** The answer in the text after '12.': '(C)', 'A (B) C D', 'b', '3', 'Drop'. */
function segmentAnswer(body: string): Token | null {
  if (body === "") return null;
  const paren = /\(\s*([A-Ea-e]|[1-5])\s*\)/.exec(body);
  if (paren?.[1] && body.split(/[\s,]+/).every((t) => /^\(?[A-Ea-e1-5]\)?$/.test(t))) {
    return tokenOf(paren[1]);
  }
  if (DROPPED.test(body)) return { kind: "dropped" };
  if (/^[A-Ea-e1-5][.)]?\s*(?:[,/&;+]|and\b)\s*\(?[A-Ea-e1-5](?![A-Za-z0-9])/i.test(body)) {
    return { kind: "several", raw: body };
  }
  const m = /^([A-Ea-e])(?![A-Za-z0-9])|^([1-5])(?![\d.]*\d)/.exec(body);
  if (m?.[1]) return tokenOf(m[1]);
  if (m?.[2]) return tokenOf(m[2]);
  return null;
}

// ---------------------------------------------------------------------------------------------

interface SectionState {
  title: string;
  answers: Map<number, Letter>;
  warnings: string[];
  /** Every number the section mentions, answered or not, and the lowest of them. */
  seen: Set<number>;
  lowest: number;
  fromLetters: number[];
  fromNumbers: number[];
}

class KeyBuilder {
  private readonly sections: SectionState[] = [];
  private lastNote = "";

  note(line: string): void {
    this.lastNote = line.length > 120 ? `${line.slice(0, 117)}...` : line;
  }

  record(number: number, answer: Token): void {
    if (!Number.isInteger(number) || number < 1 || number > MAX_QUESTION_NUMBER) return;
    let section = this.sections[this.sections.length - 1];
    // Numbering restarts when the lowest number of the section comes round again; a number seen
    // once before elsewhere is a repeat within the section ('A: 3, 7' then 'B: 1, 2' is one key).
    if (!section || (section.seen.has(number) && number <= section.lowest)) {
      section = {
        title: this.lastNote || `Section ${this.sections.length + 1}`,
        answers: new Map(),
        warnings: [],
        seen: new Set(),
        lowest: number,
        fromLetters: [],
        fromNumbers: [],
      };
      this.sections.push(section);
    }
    section.seen.add(number);
    section.lowest = Math.min(section.lowest, number);
    this.lastNote = "";
    switch (answer.kind) {
      case "dropped":
        section.warnings.push(
          `Question ${number} was dropped from the key; no answer was recorded.`,
        );
        return;
      case "invalid":
        section.warnings.push(
          `Question ${number}: '${answer.raw}' is not an answer from A to E (or 1 to 5); it was skipped.`,
        );
        return;
      case "several":
        section.warnings.push(
          `Question ${number}: '${answer.raw}' names several answers; it was skipped.`,
        );
        return;
      case "letter":
        if (section.answers.has(number) && section.answers.get(number) !== answer.letter) {
          section.warnings.push(
            `Question ${number} appears twice; the later answer ${answer.letter} was kept.`,
          );
        }
        section.answers.set(number, answer.letter);
        (answer.from === "number" ? section.fromNumbers : section.fromLetters).push(number);
    }
  }

  result(): AnswerKeyResult {
    const sections = this.sections.map((s): AnswerKeySection => {
      const warnings = [...s.warnings];
      if (
        s.fromNumbers.length > 0 &&
        s.fromLetters.length > 0 &&
        s.fromNumbers.length !== s.fromLetters.length
      ) {
        // A stray letter in a numeric key (or the reverse) is most likely a typo: say which.
        const [odd, usual, kind] =
          s.fromNumbers.length > s.fromLetters.length
            ? [s.fromLetters, "numbers", "a letter"]
            : [s.fromNumbers, "letters", "a number"];
        for (const n of odd.slice(0, 10)) {
          warnings.push(
            `Question ${n}: the answer is ${kind} while the rest of the key uses ${usual}; it was read as ${s.answers.get(n) ?? "?"}.`,
          );
        }
      }
      if (s.fromNumbers.length > 0) {
        warnings.unshift(
          "Answers given as numbers were read as letters: 1 = A, 2 = B, 3 = C, 4 = D, 5 = E.",
        );
      }
      const answers: AnswerMap = {};
      for (const [n, letter] of [...s.answers.entries()].sort((a, b) => a[0] - b[0])) {
        answers[n] = letter;
      }
      return { title: s.title, answers, warnings };
    });

    const first = sections[0];
    if (!first) return { answers: {}, warnings: [], sections };
    const warnings = [...first.warnings];
    if (sections.length > 1) {
      const count = (s: AnswerKeySection) => Object.keys(s.answers).length;
      const others = sections
        .slice(1)
        .map((s) => `'${s.title}' (${count(s)} answers)`)
        .join(", ");
      warnings.unshift(
        `The key has ${sections.length} sections whose numbering restarts. Only the first, '${first.title}' (${count(first)} answers), was taken; paste the others separately: ${others}.`,
      );
    }
    return { answers: first.answers, warnings, sections };
  }
}
