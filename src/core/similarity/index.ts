/**
 * Duplicate detection and merging of imported questions (docs/product/states.md 'Duplicate resolution', validation.md
 * 'Duplicate detection'; docs/product/product-decisions.md 'Similarity').
 */
import { DUPLICATE_DETECTION, IMPORT_LETTERS, type ImportLetter } from "../constants";
import { similarityKey } from "./key";

export { similarityKey } from "./key";
export { BigramTextIndex } from "./text-index";

// ---------------------------------------------------------------------------------------------
// String similarity

interface PreparedString {
  /** Lower-cased, all whitespace removed. */
  key: string;
}

function prepareString(value: unknown): PreparedString {
  return { key: similarityKey(value) };
}

/** Bigrams of two ASCII characters get small codes, so counting them needs no hashing. */
const ASCII_CODES = 128 * 128;

function bigramCode(key: string, i: number): number {
  const a = key.charCodeAt(i);
  const b = key.charCodeAt(i + 1);
  return a < 128 && b < 128 ? a * 128 + b : ASCII_CODES + a * 65536 + b;
}

// Scratch counters for `sharedBigrams`, left all zero between calls.
const asciiCounts = new Int32Array(ASCII_CODES);
const otherCounts = new Map<number, number>();

/** Size of the intersection of the bigram multisets of two keys (each at least 2 long). */
function sharedBigrams(a: string, b: string): number {
  for (let i = 0; i < a.length - 1; i++) {
    const code = bigramCode(a, i);
    if (code < ASCII_CODES) asciiCounts[code]!++;
    else otherCounts.set(code, (otherCounts.get(code) ?? 0) + 1);
  }
  let common = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const code = bigramCode(b, i);
    if (code < ASCII_CODES) {
      if (asciiCounts[code]! > 0) {
        asciiCounts[code]!--;
        common++;
      }
    } else {
      const left = otherCounts.get(code) ?? 0;
      if (left > 0) {
        otherCounts.set(code, left - 1);
        common++;
      }
    }
  }
  for (let i = 0; i < a.length - 1; i++) {
    const code = bigramCode(a, i);
    if (code < ASCII_CODES) asciiCounts[code] = 0;
  }
  otherCounts.clear();
  return common;
}

function preparedSimilarity(a: PreparedString, b: PreparedString): number {
  // Empty values are never similar, not even to each other: two questions without an option E do not
  // share anything (docs/product/validation.md 'empty values give 0').
  if (a.key === "" || b.key === "") return 0;
  if (a.key === b.key) return 1;
  if (a.key.length < 2 || b.key.length < 2) return 0;
  // Multisets: a bigram occurring twice on each side counts twice, not once.
  const common = sharedBigrams(a.key, b.key);
  return (2 * common) / (a.key.length - 1 + (b.key.length - 1));
}

/**
 * Dice coefficient of the character-bigram multisets of both strings, ignoring case and whitespace
 * (docs/product/product-decisions.md). 1 for equal strings, 0 when either is empty (or not a string) or shorter than 2.
 */
export function stringSimilarity(
  a: string | null | undefined,
  b: string | null | undefined,
): number {
  return preparedSimilarity(prepareString(a), prepareString(b));
}

// ---------------------------------------------------------------------------------------------
// Question comparison

/** The fields duplicate detection and merging read; rows, drafts and API objects all fit. */
export interface DuplicateQuestion {
  id?: string;
  /** The wire name of the id (docs/product/data.md). */
  _id?: string;
  text: string;
  options: Record<string, string>;
  correctAnswer?: string;
  correctAnswers?: string[];
  category?: string | null;
  part?: string | number | null;
  year?: string | number | null;
  number?: string | number | null;
  explanation?: string | null;
  createdAt?: Date | string | null;
  creator?: unknown;
  creatorId?: string;
  studyData?: unknown;
  isPublic?: boolean;
}

export type OptionDetailKey = `option${ImportLetter}`;
export type SimilarityDetails = { text: number } & Record<OptionDetailKey, number>;

export interface QuestionSimilarity {
  score: number;
  details: SimilarityDetails;
  reasons: string[];
  /** Signals found (points), at most 5: text 1, options 2, number 1, year and part 1. */
  matchCount: number;
}

export const MERGE_STRATEGIES = ["newer", "metadata", "manual", "keepBoth"] as const;
export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];

export interface DuplicateMatch<Q extends DuplicateQuestion = DuplicateQuestion> {
  question: Q;
  similarity: QuestionSimilarity & { mergeStrategy: MergeStrategy };
}

export interface DuplicateCheck<Q extends DuplicateQuestion = DuplicateQuestion> {
  isDuplicate: boolean;
  /** Best first, at most 3. */
  matches: DuplicateMatch<Q>[];
}

export interface DuplicateOptions {
  /** Compare across PRITE parts too (off by default, docs/product/constants.md). */
  crossPart?: boolean;
}

interface PreparedQuestion {
  text: PreparedString;
  options: PreparedString[];
  id: string | null;
  part: string;
  year: string;
  number: number | null;
  createdAt: number | null;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/** '' for absent values, so that "missing" compares equal only to "missing". */
function label(value: unknown): string {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return typeof value === "string" ? value.trim() : "";
}

function questionNumber(value: unknown): number | null {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}

function timestamp(value: unknown): number | null {
  const t =
    value instanceof Date ? value.getTime() : typeof value === "string" ? Date.parse(value) : NaN;
  return Number.isFinite(t) ? t : null;
}

function idOf(q: Record<string, unknown>): string | null {
  for (const key of ["_id", "id"]) {
    const v = q[key];
    if (typeof v === "string" && v !== "") return v;
  }
  return null;
}

/** Defensive: imported data can be anything, and a malformed row must not stop the whole check. */
function prepareQuestion(question: unknown): PreparedQuestion {
  const q = asRecord(question);
  const options = asRecord(q.options);
  return {
    text: prepareString(q.text),
    options: IMPORT_LETTERS.map((letter) => prepareString(options[letter])),
    id: idOf(q),
    part: label(q.part),
    year: label(q.year),
    number: questionNumber(q.number),
    createdAt: timestamp(q.createdAt),
  };
}

function comparePrepared(
  incoming: PreparedQuestion,
  existing: PreparedQuestion,
): QuestionSimilarity {
  const D = DUPLICATE_DETECTION;
  const text = preparedSimilarity(incoming.text, existing.text);
  const details = { text } as SimilarityDetails;
  const reasons: string[] = [];
  let points = 0;

  if (text >= D.TEXT_THRESHOLD) {
    points++;
    reasons.push(`Question text is ${Math.round(text * 100)}% similar`);
  }

  const qualifying: number[] = [];
  IMPORT_LETTERS.forEach((letter, i) => {
    const sim = preparedSimilarity(incoming.options[i]!, existing.options[i]!);
    details[`option${letter}`] = sim;
    if (sim >= D.OPTION_THRESHOLD) qualifying.push(sim);
  });
  if (qualifying.length > 0) {
    points += Math.min(D.MAX_OPTION_POINTS, qualifying.length);
    reasons.push(`${qualifying.length} answer options are similar`);
  }

  if (incoming.number !== null && incoming.number === existing.number) {
    points++;
    reasons.push(`Same question number (${incoming.number})`);
  }

  if (
    incoming.year !== "" &&
    incoming.part !== "" &&
    incoming.year === existing.year &&
    incoming.part === existing.part
  ) {
    points++;
    reasons.push(`Same PRITE year (${incoming.year}) and part (${incoming.part})`);
  }

  const optionMean =
    qualifying.length > 0 ? qualifying.reduce((sum, s) => sum + s, 0) / qualifying.length : 0;
  return {
    score: D.TEXT_WEIGHT * text + D.OPTION_WEIGHT * optionMean,
    details,
    reasons,
    matchCount: points,
  };
}

/**
 * The least text similarity a flagged duplicate can have: its score 0.6·text + 0.4·options reaches 0.8
 * only if text ≥ (0.8 − 0.4) / 0.6 = 2/3, options being at most 1. Anything less similar can be a
 * match, never the flagged best one.
 */
export const MIN_FLAGGED_TEXT_SIMILARITY =
  (DUPLICATE_DETECTION.DUPLICATE_SCORE - DUPLICATE_DETECTION.OPTION_WEIGHT) /
  DUPLICATE_DETECTION.TEXT_WEIGHT;

/** How much an incoming question looks like an existing one (docs/product/validation.md 'Duplicate detection'). */
export function compareQuestions(
  incoming: DuplicateQuestion,
  existing: DuplicateQuestion,
): QuestionSimilarity {
  return comparePrepared(prepareQuestion(incoming), prepareQuestion(existing));
}

/**
 * docs/product/states.md: 'newer' when the incoming question was created after the existing one, else 'metadata'.
 * An incoming question without a creation time is being created now, hence newer; so is one compared
 * with an existing question of unknown age.
 */
export function suggestMergeStrategy(
  incoming: Pick<DuplicateQuestion, "createdAt">,
  existing: Pick<DuplicateQuestion, "createdAt">,
): MergeStrategy {
  return suggestPrepared(timestamp(incoming.createdAt), timestamp(existing.createdAt));
}

function suggestPrepared(incoming: number | null, existing: number | null): MergeStrategy {
  if (incoming === null || existing === null) return "newer";
  return incoming > existing ? "newer" : "metadata";
}

function scorePrepared<Q extends DuplicateQuestion>(
  incoming: PreparedQuestion,
  candidates: readonly { question: Q; prepared: PreparedQuestion }[],
  { crossPart = DUPLICATE_DETECTION.CROSS_PART }: DuplicateOptions,
): DuplicateCheck<Q> {
  // Questions without text are never duplicates (docs/product/validation.md).
  if (incoming.text.key === "") return { isDuplicate: false, matches: [] };
  const scored: (DuplicateMatch<Q> & { id: string | null; index: number })[] = [];
  candidates.forEach(({ question, prepared }, index) => {
    if (incoming.id !== null && incoming.id === prepared.id) return;
    if (!crossPart && incoming.part !== prepared.part) return;
    const similarity = comparePrepared(incoming, prepared);
    if (similarity.matchCount < DUPLICATE_DETECTION.MIN_POINTS) return;
    const mergeStrategy = suggestPrepared(incoming.createdAt, prepared.createdAt);
    scored.push({ question, similarity: { ...similarity, mergeStrategy }, id: prepared.id, index });
  });
  // Ties are broken by signals, then id, then candidate order: a server that finds the same
  // candidates in another order (e.g. through an index) still reports the same matches.
  scored.sort(
    (a, b) =>
      b.similarity.score - a.similarity.score ||
      b.similarity.matchCount - a.similarity.matchCount ||
      compareIds(a.id, b.id) ||
      a.index - b.index,
  );
  const matches = scored
    .slice(0, DUPLICATE_DETECTION.TOP_MATCHES)
    .map(({ question, similarity }) => ({ question, similarity }));
  const best = matches[0]?.similarity.score ?? 0;
  return { isDuplicate: best >= DUPLICATE_DETECTION.DUPLICATE_SCORE, matches };
}

function compareIds(a: string | null, b: string | null): number {
  if (a === null || b === null || a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * Scores one incoming question against a set of candidates: skips the same record and (unless
 * `crossPart`) other parts, keeps candidates with at least 2 signals, returns the top 3 by score and
 * flags a duplicate when the best reaches 0.8. The reference and any pre-filtered (indexed) search
 * both go through here, so given the same candidates they agree.
 */
export function scoreCandidates<Q extends DuplicateQuestion>(
  incoming: DuplicateQuestion,
  candidates: readonly Q[],
  options: DuplicateOptions = {},
): DuplicateCheck<Q> {
  return scorePrepared(
    prepareQuestion(incoming),
    candidates.map((question) => ({ question, prepared: prepareQuestion(question) })),
    options,
  );
}

/**
 * `scoreCandidates` for many incoming questions against one bank of existing questions, each incoming
 * question against its own list of positions in the bank. An existing question is prepared once for
 * the scorer's lifetime, however many lists (and calls) name it.
 */
export class DuplicateScorer<Q extends DuplicateQuestion> {
  private readonly prepared: (PreparedQuestion | undefined)[];

  constructor(readonly existing: readonly Q[]) {
    this.prepared = new Array<PreparedQuestion | undefined>(existing.length);
  }

  score(
    incomingList: readonly DuplicateQuestion[],
    candidateLists: readonly (readonly number[])[],
    options: DuplicateOptions = {},
  ): DuplicateCheck<Q>[] {
    return incomingList.map((incoming, k) =>
      scorePrepared(
        prepareQuestion(incoming),
        (candidateLists[k] ?? []).map((i) => ({
          question: this.existing[i]!,
          prepared: (this.prepared[i] ??= prepareQuestion(this.existing[i])),
        })),
        options,
      ),
    );
  }
}

/**
 * The all-pairs reference in docs/product/validation.md: every incoming question against every existing one. Quadratic;
 * fine for an import screen, and the yardstick an indexed server search is tested against.
 */
export function findDuplicatesReference<Q extends DuplicateQuestion>(
  incomingList: readonly DuplicateQuestion[],
  existingList: readonly Q[],
  options: DuplicateOptions = {},
): DuplicateCheck<Q>[] {
  const existing = existingList.map((question) => ({
    question,
    prepared: prepareQuestion(question),
  }));
  return incomingList.map((incoming) =>
    scorePrepared(prepareQuestion(incoming), existing, options),
  );
}

// ---------------------------------------------------------------------------------------------
// Merging

export const MANUAL_MERGE_FIELDS = [
  { key: "text", label: "Question Text" },
  { key: "category", label: "Category" },
  { key: "part", label: "Part" },
  { key: "year", label: "Year" },
  { key: "number", label: "Question Number" },
  { key: "correctAnswer", label: "Correct Answer" },
  { key: "explanation", label: "Explanation" },
  { key: "optionA", label: "Option A" },
  { key: "optionB", label: "Option B" },
  { key: "optionC", label: "Option C" },
  { key: "optionD", label: "Option D" },
  { key: "optionE", label: "Option E" },
] as const;
export type ManualMergeField = (typeof MANUAL_MERGE_FIELDS)[number]["key"];

/** What stays with the existing record under 'newer': identity, ownership, progress and visibility. */
const KEPT_BY_NEWER = [
  "id",
  "_id",
  "createdAt",
  "creator",
  "creatorId",
  "studyData",
  "isPublic",
] as const;
const METADATA_FIELDS = ["part", "year", "number", "category"] as const;

function hasValue(value: unknown): boolean {
  return (
    value !== undefined && value !== null && !(typeof value === "string" && value.trim() === "")
  );
}

/**
 * Keeps the answer list in step with a copied single answer, or the stored question would carry two
 * different answers.
 */
function syncAnswers(result: Record<string, unknown>, incoming: DuplicateQuestion): void {
  if (!("correctAnswers" in result) && !("correctAnswers" in incoming)) return;
  if (Array.isArray(incoming.correctAnswers) && incoming.correctAnswers.length > 0) {
    result.correctAnswers = [...incoming.correctAnswers];
  } else {
    result.correctAnswers = incoming.correctAnswer ? [incoming.correctAnswer] : [];
  }
}

/**
 * The outcome of a resolution strategy (docs/product/states.md 'Merge outcomes'):
 * - newer: the incoming content on the existing record (its id, creation time, creator, study data and
 *   public flag are kept; fields the incoming question leaves blank stay as they were);
 * - metadata: the existing question, with part, year, number and category filled from the incoming
 *   one where it has a value;
 * - manual: the existing question with only `manualFields` taken from the incoming one;
 * - keepBoth: the incoming question, unchanged, to be created as a new question.
 */
export function mergeQuestion<Q extends DuplicateQuestion>(
  existing: Q,
  incoming: Q,
  strategy: MergeStrategy,
  manualFields: readonly ManualMergeField[] = [],
): Q {
  const from = incoming as Record<string, unknown>;
  const base = existing as Record<string, unknown>;
  switch (strategy) {
    case "keepBoth":
      return { ...incoming };
    case "newer": {
      // Blank incoming fields do not wipe the existing ones: imports rarely carry a category or an
      // explanation, and 'newer' is the usual suggestion, so overwriting would silently lose them.
      const result: Record<string, unknown> = { ...base };
      for (const [key, value] of Object.entries(from)) {
        if (key === "options") {
          if (Object.values(asRecord(value)).some(hasValue))
            result.options = { ...asRecord(value) };
        } else if (hasValue(value) && !(Array.isArray(value) && value.length === 0)) {
          result[key] = value;
        }
      }
      for (const key of KEPT_BY_NEWER) {
        if (key in base) result[key] = base[key];
        else delete result[key];
      }
      if (hasValue(incoming.correctAnswer)) syncAnswers(result, incoming);
      return result as Q;
    }
    case "metadata": {
      const result: Record<string, unknown> = { ...base };
      for (const key of METADATA_FIELDS) if (hasValue(from[key])) result[key] = from[key];
      return result as Q;
    }
    case "manual": {
      const result: Record<string, unknown> = { ...base };
      const options: Record<string, string> = { ...asRecord(existing.options) } as Record<
        string,
        string
      >;
      let optionsTouched = false;
      for (const field of new Set(manualFields)) {
        if (field.startsWith("option")) {
          const letter = field.slice("option".length);
          const text = asRecord(incoming.options)[letter];
          if (typeof text === "string" && text.trim() !== "") options[letter] = text;
          else delete options[letter];
          optionsTouched = true;
        } else if (field === "correctAnswer") {
          result.correctAnswer = incoming.correctAnswer ?? "";
          syncAnswers(result, incoming);
        } else {
          result[field] = from[field];
        }
      }
      if (optionsTouched) result.options = options;
      return result as Q;
    }
  }
}
