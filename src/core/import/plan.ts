import { DUPLICATE_DETECTION, yearRangeError } from "../constants";
import type { ParsedQuestion, ParseRowsResult, RowError } from "./types";
import { firstIssueMessage, ZBulkQuestionItem } from "../schemas";
import type { ManualMergeField, MergeStrategy } from "../similarity";

/**
 * The pure part of the bulk import page flow (docs/product/states.md 'Import page flow', 'Duplicate resolution'):
 * what is sent to the server and how the resolutions become commit items. No React, so it is unit tested.
 */

/** Questions per duplicate-check call: small enough for a smooth percentage, large enough to be quick. */
export const DUPLICATE_CHECK_BATCH = 100;

/** A question as the import procedures take it (the fields in docs/product/rest-api.md POST /questions/bulk). */
// A type alias (not an interface), so it fits the server's Record<string, unknown> item payload.
export type ImportItem = {
  text: string;
  options: Record<string, string>;
  correctAnswer: string;
  category: string;
  explanation: string;
  part: "1" | "2";
  year: number;
  number: number | null;
};

/** Drops the client-only fields (the source row) and empty options. */
export function toImportItem(question: ParsedQuestion): ImportItem {
  const options: Record<string, string> = {};
  for (const [letter, text] of Object.entries(question.options)) {
    if (text.trim() !== "") options[letter] = text;
  }
  return {
    text: question.text,
    options,
    correctAnswer: question.correctAnswer,
    category: question.category,
    explanation: question.explanation,
    part: question.part,
    year: question.year,
    number: question.number,
  };
}

export function chunk<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Whole percent done, never 100 before the last batch is back. */
export function percentDone(done: number, total: number): number {
  if (total <= 0) return 100;
  const percent = Math.floor((done / total) * 100);
  return done >= total ? 100 : Math.min(99, percent);
}

/**
 * docs/product/constants.md: the 'existing' preview shows the first 50 characters of the matched question's text
 * (whitespace collapsed; an ellipsis when there is more).
 */
export function previewText(
  text: string,
  chars: number = DUPLICATE_DETECTION.PREVIEW_CHARS,
): string {
  const flat = [...text.replace(/\s+/g, " ").trim()];
  return flat.length <= chars ? flat.join("") : `${flat.slice(0, chars).join("").trimEnd()}…`;
}

/** The pieces of a duplicate-check answer this screen reads (imports.checkDuplicates). */
export interface MatchView {
  question: {
    _id: string;
    text: string;
    options: Record<string, string>;
    correctAnswer: string;
    category: string;
    part: string;
    year: number;
    number: number | null;
    explanation: string;
    createdAt: string;
  };
  similarity: {
    score: number;
    reasons: string[];
    mergeStrategy: "newer" | "metadata";
  };
  /** False when the match belongs to another user: only Skip and Keep Both are offered. */
  canMerge: boolean;
}

export interface DuplicateItem {
  /** Index of the question in the parsed list. */
  index: number;
  question: ParsedQuestion;
  matches: MatchView[];
}

export interface Resolution {
  strategy: MergeStrategy;
  /** Which match (of up to three) the strategy applies to. */
  matchIndex: number;
  /** For 'manual': the fields taken from the new question. */
  fields: ManualMergeField[];
}

/** docs/product/states.md: the strategy the match suggests, or newer; Keep Both when merging is not allowed. */
export function defaultResolution(match: MatchView | undefined, matchIndex = 0): Resolution {
  if (!match || !match.canMerge) return { strategy: "keepBoth", matchIndex, fields: [] };
  return { strategy: match.similarity.mergeStrategy ?? "newer", matchIndex, fields: [] };
}

/** A strategy chosen for one item, made valid for another (Apply to All Remaining). */
export function resolutionFor(item: DuplicateItem, chosen: Resolution): Resolution {
  const match = item.matches[0];
  if (chosen.strategy === "keepBoth" || !match?.canMerge) {
    return { strategy: "keepBoth", matchIndex: 0, fields: [] };
  }
  return { strategy: chosen.strategy, matchIndex: 0, fields: [...chosen.fields] };
}

export type CommitAction =
  | "create"
  | "skip"
  | { merge: "newer" | "metadata" | "manual"; targetId: string; fields?: ManualMergeField[] };

export interface CommitItem<Q = ImportItem> {
  question: Q;
  action: CommitAction;
  hadDuplicate?: boolean;
}

/**
 * Every parsed question becomes one commit item, in file order. Unflagged questions are created;
 * flagged ones follow their resolution (Keep Both and Skip create, docs/product/states.md 'Skip sets keepBoth').
 * A missing resolution is a bug upstream and throws, so nothing half-resolved is saved.
 * `itemOf` makes the payload of the question at an index (an Anki draft's carries more than a row's).
 */
export function buildCommitItems<Q = ImportItem>(
  questions: readonly ParsedQuestion[],
  duplicates: readonly DuplicateItem[],
  resolutions: ReadonlyMap<number, Resolution>,
  itemOf: (question: ParsedQuestion, index: number) => Q = toImportItem as (
    question: ParsedQuestion,
  ) => Q,
): CommitItem<Q>[] {
  const byIndex = new Map(duplicates.map((d) => [d.index, d]));
  return questions.map((question, index) => {
    const item = itemOf(question, index);
    const duplicate = byIndex.get(index);
    if (!duplicate) return { question: item, action: "create" };
    const resolution = resolutions.get(index);
    if (!resolution) throw new Error(`question ${index + 1} has no resolution`);
    if (resolution.strategy === "keepBoth") {
      return { question: item, action: "create", hadDuplicate: true };
    }
    const match = duplicate.matches[resolution.matchIndex];
    if (!match) throw new Error(`question ${index + 1} has no match ${resolution.matchIndex + 1}`);
    if (!match.canMerge) return { question: item, action: "create", hadDuplicate: true };
    const action: CommitAction =
      resolution.strategy === "manual"
        ? { merge: "manual", targetId: match.question._id, fields: [...resolution.fields] }
        : { merge: resolution.strategy, targetId: match.question._id };
    return { question: item, action, hadDuplicate: true };
  });
}

/**
 * What the save would refuse, found per row before anything is sent
 * (docs/decisions/070-import-errors-and-warnings.md): the same schema imports.commit validates each
 * item with (ZBulkQuestionItem) and the same year range. Null when the question can be saved.
 */
export function importProblem(question: ParsedQuestion, now: Date): string | null {
  if (question.text.trim() === "") return "the question has no text";
  if (question.options.A.trim() === "" || question.options.B.trim() === "") {
    return "at least options A and B are required";
  }
  const parsed = ZBulkQuestionItem.safeParse(toImportItem(question));
  if (!parsed.success) return firstIssueMessage(parsed.error);
  return yearRangeError(parsed.data.year, now);
}

/**
 * Questions the bank cannot store (no text, options A and B missing, a field over its length limit,
 * a year out of range…) become row errors 'Row N: reason' here, at review, rather than failing the
 * whole save later; the rest still imports. The parser's warnings pass through: those rows did
 * become questions. Used by the wizard and the CLI (`prite import`).
 */
export function splitImportable(result: ParseRowsResult, now: Date): ParseRowsResult {
  const questions: ParsedQuestion[] = [];
  const errors: RowError[] = [...result.errors];
  for (const question of result.questions) {
    const problem = importProblem(question, now);
    if (problem === null) {
      questions.push(question);
      continue;
    }
    const row = question.sourceRow ?? 0;
    errors.push({ row, message: `Row ${row}: ${problem}` });
  }
  const byRow = (a: RowError, b: RowError) => a.row - b.row;
  return {
    questions,
    errors: errors.sort(byRow),
    warnings: [...result.warnings].sort(byRow),
    skipped: result.skipped,
  };
}
