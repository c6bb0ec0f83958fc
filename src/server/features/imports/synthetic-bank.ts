/**
 * Seeded generators of question banks with near-duplicates, shared by the duplicate-detection
 * property test and `bench/duplicates-bench.ts`. Deterministic for a seed; no I/O (the benchmark
 * reads its corpus and passes the texts in).
 */
import { CATEGORIES } from "../../../core/constants";
import type { TBulkQuestionItem } from "../../../core/schemas";
import type { NewQuestionRow } from "../../db/schema";

// The one seeded generator of the codebase (mulberry32), also behind exams' reproducible draws.
export { seededRng as createRng, type Rng } from "../../../core/random";
import type { Rng } from "../../../core/random";
import { VIGNETTE_WORDS } from "../seed/vocabulary";

export { VIGNETTE_WORDS };

export const randomInt = (rng: Rng, min: number, max: number): number =>
  min + Math.floor(rng() * (max - min + 1));

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}

/** Source of words for generated text. */
export interface TextModel {
  /** `count` words of text. */
  words(rng: Rng, count: number): string;
  /** A single word, for insertions. */
  word(rng: Rng): string;
}

/** Words drawn uniformly from a list. */
export function vocabularyModel(words: readonly string[]): TextModel {
  return {
    words: (rng, count) => Array.from({ length: count }, () => pick(rng, words)).join(" "),
    word: (rng) => pick(rng, words),
  };
}

/**
 * A word-level Markov chain (order 1) trained on real question texts: generated vignettes share the
 * real vocabulary's Zipf distribution and common phrases ("A 43-year-old man ...", "Which of the
 * following"), so trigram statistics look like a real bank rather than uniform word salad.
 */
export function markovModel(corpus: readonly string[]): TextModel {
  const next = new Map<string, string[]>();
  const starts: string[] = [];
  const all: string[] = [];
  for (const text of corpus) {
    const tokens = text.split(/\s+/u).filter(Boolean);
    if (tokens.length === 0) continue;
    starts.push(tokens[0]!);
    for (let i = 0; i < tokens.length; i++) {
      all.push(tokens[i]!);
      if (i + 1 < tokens.length) {
        let list = next.get(tokens[i]!);
        if (!list) next.set(tokens[i]!, (list = []));
        list.push(tokens[i + 1]!);
      }
    }
  }
  if (all.length === 0) return vocabularyModel(VIGNETTE_WORDS);
  return {
    words(rng, count) {
      const out: string[] = [];
      let current = pick(rng, starts);
      while (out.length < count) {
        out.push(current);
        const options = next.get(current);
        current = options && rng() < 0.97 ? pick(rng, options) : pick(rng, starts);
      }
      return out.join(" ");
    },
    word: (rng) => pick(rng, all),
  };
}

const OCR_CONFUSIONS: [string, string][] = [
  ["l", "1"],
  ["O", "0"],
  ["rn", "m"],
  ["e", "c"],
  ["i", "l"],
  ["S", "5"],
];
const NOISE_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789.,;:-()'";

/** The small edits a re-typed, re-photographed or re-worded copy of a question shows. */
export const EDIT_KINDS = [
  "substitute",
  "delete",
  "insert",
  "ocr",
  "dropWord",
  "insertWord",
  "swapWords",
  "punctuation",
  "case",
  "whitespace",
  "mergeWords",
  "truncate",
  "prefix",
] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

/** One edit of the given kind at a random place. */
export function applyEdit(text: string, kind: EditKind, rng: Rng, model: TextModel): string {
  const at = Math.floor(rng() * Math.max(1, text.length));
  const words = text.split(" ");
  const w = Math.floor(rng() * words.length);
  switch (kind) {
    case "substitute":
      return text.slice(0, at) + pick(rng, [...NOISE_CHARS]) + text.slice(at + 1);
    case "delete":
      return text.slice(0, at) + text.slice(at + 1);
    case "insert":
      return text.slice(0, at) + pick(rng, [...NOISE_CHARS]) + text.slice(at);
    case "ocr": {
      const [a, b] = pick(rng, OCR_CONFUSIONS);
      const from = rng() < 0.5 ? a : b;
      const to = from === a ? b : a;
      const i = text.indexOf(from, at);
      return i < 0 ? text : text.slice(0, i) + to + text.slice(i + from.length);
    }
    case "dropWord":
      if (words.length > 1) words.splice(w, 1);
      return words.join(" ");
    case "insertWord":
      words.splice(w, 0, model.word(rng));
      return words.join(" ");
    case "swapWords":
      if (w + 1 < words.length) [words[w], words[w + 1]] = [words[w + 1]!, words[w]!];
      return words.join(" ");
    case "punctuation": {
      const i = text.slice(at).search(/[.,;:?]/u);
      return i < 0
        ? text.slice(0, at) + pick(rng, [",", ".", ";"]) + text.slice(at)
        : text.slice(0, at + i) + text.slice(at + i + 1);
    }
    case "case":
      return rng() < 0.5 ? text.toUpperCase() : text.toLowerCase();
    case "whitespace":
      return text.slice(0, at) + pick(rng, ["  ", "\n", "\t"]) + text.slice(at);
    case "mergeWords":
      if (w + 1 < words.length) words.splice(w, 2, words[w]! + words[w + 1]!);
      return words.join(" ");
    case "truncate":
      return words.slice(0, Math.max(1, words.length - randomInt(rng, 1, 3))).join(" ");
    case "prefix":
      return `${randomInt(rng, 1, 200)}. ${text}`;
  }
}

/** `edits` random edits of random kinds. */
export function perturb(
  text: string,
  rng: Rng,
  edits: number,
  model: TextModel,
  kinds: readonly EditKind[] = EDIT_KINDS,
): string {
  let out = text;
  for (let i = 0; i < edits; i++) out = applyEdit(out, pick(rng, kinds), rng, model);
  return out.trim() === "" ? text : out;
}

const LETTERS = ["A", "B", "C", "D", "E"] as const;

export interface GenerateOptions {
  model: TextModel;
  /** Words in a question text. */
  textWords: [number, number];
  /** Words in an option. */
  optionWords: [number, number];
  years: readonly number[];
  numbers: [number, number];
  /** Share of questions with four options (no E). */
  fourOptionShare?: number;
  /** Share with an explanation. */
  explanationShare?: number;
}

/** A fresh question (a valid TBulkQuestionItem). */
export function generateQuestion(rng: Rng, opts: GenerateOptions): TBulkQuestionItem {
  const options: Record<string, string> = {};
  const four = rng() < (opts.fourOptionShare ?? 0.2);
  for (const letter of LETTERS) {
    if (four && letter === "E") continue;
    options[letter] = opts.model.words(rng, randomInt(rng, ...opts.optionWords));
  }
  const letters = Object.keys(options) as TBulkQuestionItem["correctAnswer"][];
  return {
    text: `${opts.model.words(rng, randomInt(rng, ...opts.textWords))}?`,
    options,
    correctAnswer: rng() < 0.8 ? pick(rng, letters) : "",
    category: rng() < 0.7 ? pick(rng, CATEGORIES) : "",
    part: rng() < 0.5 ? "1" : "2",
    year: pick(rng, opts.years),
    number: rng() < 0.85 ? randomInt(rng, ...opts.numbers) : null,
    explanation:
      rng() < (opts.explanationShare ?? 0.3) ? opts.model.words(rng, randomInt(rng, 10, 60)) : "",
  };
}

/**
 * A near-duplicate of `q`: a few edits to the text and options, sometimes a different number or year
 * (another edition of the exam) and sometimes a re-keyed answer.
 */
export function nearDuplicate(
  q: TBulkQuestionItem,
  rng: Rng,
  opts: GenerateOptions,
  maxEdits = 6,
): TBulkQuestionItem {
  const options: Record<string, string> = {};
  for (const [letter, text] of Object.entries(q.options)) {
    options[letter] = rng() < 0.3 ? perturb(text, rng, randomInt(rng, 1, 2), opts.model) : text;
  }
  const correctAnswer =
    q.correctAnswer !== "" && options[q.correctAnswer] === undefined ? "" : q.correctAnswer;
  return {
    ...q,
    text: perturb(q.text, rng, randomInt(rng, 0, maxEdits), opts.model),
    options,
    correctAnswer,
    number: rng() < 0.7 ? q.number : rng() < 0.5 ? null : randomInt(rng, ...opts.numbers),
    year: rng() < 0.8 ? q.year : pick(rng, opts.years),
  };
}

/** A generated question as a stored row of `creatorId` (the benchmark and the property test seed with it). */
export function bankRow(
  q: TBulkQuestionItem,
  creatorId: string,
  isPublic: boolean,
  createdAt: Date,
): NewQuestionRow {
  return {
    creatorId,
    text: q.text,
    options: q.options,
    correctAnswer: q.correctAnswer,
    correctAnswers: q.correctAnswer === "" ? [] : [q.correctAnswer],
    category: q.category,
    part: q.part,
    year: q.year,
    number: q.number,
    explanation: q.explanation,
    isPublic,
    createdAt,
    updatedAt: createdAt,
  };
}
