import { isLetter, letterFromIndex, LETTERS, type Letter, type Options } from "./types";

export type AnswerReading =
  | { kind: "none" }
  | { kind: "letter"; letter: Letter }
  | { kind: "list"; raw: string }
  | { kind: "unreadable"; raw: string };

const LABEL_PREFIX =
  /^(?:correct\s+answer|correct\s+option|correct|answer|ans|key)\s*(?:is\s+)?[:=-]?\s*/i;
const LONE_LETTER = /^\(?\s*([A-Ea-e])\s*\)?[.):]?$/;
const LETTER_THEN_TEXT = /^\(?([A-Ea-e])\s*[.):-]\s*\S/;
const OPTION_NUMBER = /^\(?([1-5])(?:\.0+)?\)?$/;
const LIST_TOKEN = /^\(?(?:[A-Ea-e]|\d{1,2}(?:\.0+)?)\)?\.?$/;

/**
 * Reads a spreadsheet answer cell. docs/product/validation.md takes the cell's first character when it is A-E; real
 * files also hold 1-based option numbers ('3', '3.0', MedMCQA's cop), 'Answer: C', '(b)', the
 * option's own text, and lists ('1, 2, 3, 2'). A list or an unreadable value is reported so the
 * caller can tell the user, instead of silently keeping whatever letter the value starts with
 * ('Both' is not B).
 */
export function readAnswerCell(raw: string, options?: Options): AnswerReading {
  const original = raw.trim();
  if (original === "") return { kind: "none" };
  const stripped = original.replace(LABEL_PREFIX, "");
  const value = stripped === "" ? original : stripped;

  const tokens = value.split(/[,;/&|+]|\band\b|\s+/i).filter((t) => t !== "");
  if (tokens.length >= 2 && tokens.every((t) => LIST_TOKEN.test(t))) {
    return { kind: "list", raw: original };
  }

  const lone = LONE_LETTER.exec(value);
  if (lone?.[1]) return { kind: "letter", letter: lone[1].toUpperCase() as Letter };
  const numbered = OPTION_NUMBER.exec(value);
  if (numbered?.[1]) {
    const letter = letterFromIndex(Number(numbered[1]));
    if (letter) return { kind: "letter", letter };
  }
  if (options) {
    const wanted = value.toLowerCase();
    for (const letter of LETTERS) {
      const text = options[letter].trim().toLowerCase();
      if (text !== "" && text === wanted) return { kind: "letter", letter };
    }
  }
  const lead = LETTER_THEN_TEXT.exec(value);
  if (lead?.[1]) return { kind: "letter", letter: lead[1].toUpperCase() as Letter };
  return { kind: "unreadable", raw: original };
}

/**
 * The answer a line of text names: a standalone capital A-E ('Answer: C', '(B)', 'b' alone).
 * Capitals inside words are not answers, so 'Answer is Clozapine' names none (docs/product/validation.md's "first A-E
 * letter" would have read the A of 'Answer').
 */
export function firstAnswerLetter(text: string): "" | Letter {
  const trimmed = text.trim();
  const lone = LONE_LETTER.exec(trimmed);
  if (lone?.[1]) return lone[1].toUpperCase() as Letter;
  const withoutLabel = trimmed.replace(LABEL_PREFIX, "");
  const loneAfter = LONE_LETTER.exec(withoutLabel);
  if (loneAfter?.[1]) return loneAfter[1].toUpperCase() as Letter;
  const standalone = /(?:^|[^A-Za-z0-9])\(?([A-E])\)?(?![A-Za-z0-9])/.exec(withoutLabel);
  if (standalone?.[1] && isLetter(standalone[1])) return standalone[1];
  const anywhere = /(?:^|[^A-Za-z0-9])\(?([A-E])\)?(?![A-Za-z0-9])/.exec(trimmed);
  if (anywhere?.[1] && isLetter(anywhere[1])) return anywhere[1];
  return "";
}
