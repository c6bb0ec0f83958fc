import { readAnswerCell } from "../import/answer-cell";
import {
  emptyOptions,
  letterFromIndex,
  LETTERS,
  type Letter,
  type Options,
  type ParsedQuestion,
} from "../import/types";
import type { PasteContext } from "./questions-text";

/** More drafts than any exam page holds; a bigger paste is cut here rather than freezing a phone. */
const MAX_ITEMS = 5_000;

/**
 * The Capture JSON path (docs/product/validation.md Capture): JSON from the AI service or pasted by hand → drafts.
 * Strips ```json fences, accepts an array, a single question object or {questions: […]}, and
 * reads tolerant field names (question/text/stem, options as an object or an array, answer/
 * correctAnswer, explanation, category, number). Missing fields get the spec's defaults. Returns
 * null when the text is not JSON holding questions, so the caller falls back to the text parser.
 *
 * Only known field names are read, from the object's own properties, and every output object is
 * built field by field: a '__proto__' or 'constructor' key in the input is never copied anywhere.
 */
export function parseQuestionsJson(text: string, ctx: PasteContext): ParsedQuestion[] | null {
  const value = parseLenient(stripFences(String(text)));
  if (value === undefined) return null;
  let items: unknown[];
  if (Array.isArray(value)) {
    items = value;
  } else if (isRecord(value)) {
    const wrapped = field(value, ["questions", "items", "data"]);
    items = Array.isArray(wrapped) ? wrapped : [value];
  } else {
    return null;
  }
  const out: ParsedQuestion[] = [];
  for (const item of items.slice(0, MAX_ITEMS)) {
    if (isRecord(item)) out.push(toQuestion(item, ctx));
  }
  return out;
}

function stripFences(text: string): string {
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  const open = trimmed.indexOf("```");
  if (open === -1) return trimmed;
  const lineEnd = trimmed.indexOf("\n", open);
  if (lineEnd === -1) return trimmed.slice(open + 3).replace(/^json\b/i, "");
  const close = trimmed.indexOf("```", lineEnd);
  return trimmed.slice(lineEnd + 1, close === -1 ? undefined : close).trim();
}

function parseLenient(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A model's prose around the JSON ('Here are the questions: […]'): try the outermost brackets.
    const first = text.search(/[[{]/);
    const last = Math.max(text.lastIndexOf("]"), text.lastIndexOf("}"));
    if (first < 0 || last <= first || (first === 0 && last === text.length - 1)) return undefined;
    try {
      return JSON.parse(text.slice(first, last + 1)) as unknown;
    } catch {
      return undefined;
    }
  }
}

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** The first own property whose normalised name is one of `names`. */
function field(obj: JsonRecord, names: readonly string[]): unknown {
  const keys = Object.keys(obj);
  for (const name of names) {
    for (const key of keys) {
      if (normaliseKey(key) === name) return obj[key];
    }
  }
  return undefined;
}

function asText(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return "";
}

function asNumber(value: unknown): number | null {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value < 100_000) {
    return value;
  }
  if (typeof value === "string") {
    const m = /^(?:q(?:uestion)?\s*)?(\d{1,5})\s*[.)]?$/i.exec(value.trim());
    if (m?.[1]) return Number(m[1]);
  }
  return null;
}

/** 'a', 'A', 'optionA', 'option_a', 'A.', '(a)', '1' → A. */
function letterOfKey(key: string): Letter | null {
  const k = normaliseKey(key).replace(/^(?:option|opt|choice|answer)/, "");
  if (/^[a-e]$/.test(k)) return k.toUpperCase() as Letter;
  if (/^[1-5]$/.test(k)) return letterFromIndex(Number(k)) || null;
  return null;
}

function stripOwnPrefix(text: string, letter: Letter): string {
  const m = /^\(?([A-Ea-e])\s*[.):]\s+(?=\S)/.exec(text);
  return m?.[1] && m[1].toUpperCase() === letter ? text.slice(m[0].length) : text;
}

function readOptions(item: JsonRecord): Options {
  const options = emptyOptions();
  const raw = field(item, ["options", "choices", "answers", "alternatives"]);
  if (Array.isArray(raw)) {
    let next = 0;
    for (const entry of raw.slice(0, 15)) {
      let letter: Letter | null = null;
      let text = "";
      if (isRecord(entry)) {
        const label = asText(field(entry, ["letter", "label", "key", "id", "option"]));
        letter = label !== "" ? letterOfKey(label) : null;
        text = asText(field(entry, ["text", "value", "content", "answer", "description"]));
      } else {
        text = asText(entry);
        const prefix = /^\(?([A-Ea-e])\s*[.):]\s+(?=\S)/.exec(text);
        if (prefix?.[1]) letter = prefix[1].toUpperCase() as Letter;
      }
      letter ??= LETTERS[next] ?? null;
      if (!letter) continue;
      options[letter] = stripOwnPrefix(text, letter);
      next = LETTERS.indexOf(letter) + 1;
    }
  } else if (isRecord(raw)) {
    for (const key of Object.keys(raw)) {
      const letter = letterOfKey(key);
      if (letter && options[letter] === "")
        options[letter] = stripOwnPrefix(asText(raw[key]), letter);
    }
  }
  // Flat shapes: {"question": …, "A": …, "B": …} or {"optionA": …}.
  for (const key of Object.keys(item)) {
    const k = normaliseKey(key);
    if (!/^(?:option|choice)?[a-e]$/.test(k)) continue;
    const letter = letterOfKey(key);
    if (letter && options[letter] === "")
      options[letter] = stripOwnPrefix(asText(item[key]), letter);
  }
  return options;
}

function readAnswer(item: JsonRecord, options: Options): "" | Letter {
  const raw = field(item, [
    "correctanswer",
    "correct",
    "answer",
    "correctoption",
    "answerletter",
    "key",
    "solution",
  ]);
  const text = typeof raw === "number" ? String(raw) : asText(raw);
  const reading = readAnswerCell(text, options);
  return reading.kind === "letter" ? reading.letter : "";
}

function toQuestion(item: JsonRecord, ctx: PasteContext): ParsedQuestion {
  const options = readOptions(item);
  return {
    number: asNumber(field(item, ["number", "questionnumber", "num", "no", "qno", "questionno"])),
    part: ctx.part,
    year: ctx.year,
    text: asText(field(item, ["question", "text", "questiontext", "stem", "prompt"])),
    options,
    correctAnswer: readAnswer(item, options),
    explanation: asText(field(item, ["explanation", "rationale", "exp"])),
    category: asText(field(item, ["category", "topic", "subject"])),
  };
}
