import { z } from "zod";
import { LIMITS } from "../../../core/constants";
import type { ManualMergeField, QuestionSimilarity } from "../../../core/similarity";
import { MANUAL_MERGE_FIELDS } from "../../../core/similarity";
import type { TBulkQuestionItem } from "../../../core/schemas";
import type { QuestionJson } from "../questions/question-json";

/** Incoming questions per duplicate check (the screen sends its file in batches of this size or less). */
export const CHECK_DUPLICATES_MAX = 2_000;
/** Items per commit: the largest spreadsheet the importer reads (20,000 rows). */
export const COMMIT_MAX = 20_000;

export const IMPORT_MESSAGES = {
  NO_QUESTIONS: "No questions to check",
  TOO_MANY_CHECK: `At most ${CHECK_DUPLICATES_MAX} questions can be checked at once`,
  NO_ITEMS: "No questions to import",
  TOO_MANY_COMMIT: `At most ${COMMIT_MAX} questions can be imported at once`,
  ITEM_OBJECT: "Each question must be an object",
  ACTION: "Each item needs an action: create, skip or merge",
  MERGE_STRATEGY: "Merge strategy must be newer, metadata or manual",
  MERGE_TARGET: "A merge needs the id of the question to merge into",
  MERGE_FIELDS:
    "Manual merge fields must be among text, category, part, year, number, correctAnswer, explanation and optionA to optionE",
  MERGE_OTHERS: "You can only merge into your own questions",
  NOT_FOUND: "Question not found",
} as const;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * What the check reads of an incoming question. Deliberately lenient: the check only measures
 * similarity (a question without text is simply never a duplicate); validation happens at commit, where
 * a bad item names itself. Types are still checked and text is bounded.
 */
export const ZCheckQuestion = z.object({
  _id: z.string().max(100).optional().nullable(),
  text: z.preprocess(
    (v) => v ?? "",
    z.string({ error: "Question text must be text" }).max(LIMITS.QUESTION_TEXT * 2),
  ),
  options: z.preprocess(
    (v) => v ?? {},
    z.record(
      z.string(),
      z
        .string({ error: "Options must be text" })
        .max(LIMITS.OPTION * 2)
        .nullish(),
      {
        error: "Options must be text",
      },
    ),
  ),
  part: z.union([z.string().max(10), z.number()]).nullish(),
  year: z.union([z.string().max(10), z.number()]).nullish(),
  number: z.union([z.string().max(20), z.number()]).nullish(),
  // Accepted and ignored, so a whole TBulkQuestionItem can be sent as is.
  correctAnswer: z.string().max(20).nullish(),
  category: z
    .string()
    .max(LIMITS.CATEGORY * 2)
    .nullish(),
  explanation: z
    .string()
    .max(LIMITS.EXPLANATION * 2)
    .nullish(),
  isPublic: z.boolean().optional(),
});
export type TCheckQuestion = z.input<typeof ZCheckQuestion>;

export const ZCheckDuplicatesRequest = z.object({
  questions: z
    .array(ZCheckQuestion, { error: "questions must be a list" })
    .min(1, IMPORT_MESSAGES.NO_QUESTIONS)
    .max(CHECK_DUPLICATES_MAX, IMPORT_MESSAGES.TOO_MANY_CHECK),
  crossPart: z.boolean({ error: "crossPart must be true or false" }).optional(),
});
/** What a client sends: TBulkQuestionItem fits. */
export type TCheckDuplicatesRequest = {
  questions: (TCheckQuestion | TBulkQuestionItem)[];
  crossPart?: boolean;
};

export interface DuplicateMatchJson {
  /** The existing question. */
  question: QuestionJson;
  similarity: QuestionSimilarity & { mergeStrategy: "newer" | "metadata" };
  /** True only for the caller's own questions: another user's public question can be skipped or kept alongside, not merged (DESIGN §7). */
  canMerge: boolean;
}

export interface DuplicateResultJson {
  index: number;
  isDuplicate: boolean;
  /** Best first, at most 3. */
  matches: DuplicateMatchJson[];
  /**
   * Index of an earlier question of the same request with the same text and options (ignoring case and
   * whitespace), or null (docs/decisions/032-import-commit.md).
   */
  repeatOf: number | null;
}

export interface CheckDuplicatesResult {
  results: DuplicateResultJson[];
}

// ---------------------------------------------------------------------------------------------------
// Commit

export const MERGE_FIELD_KEYS = MANUAL_MERGE_FIELDS.map((f) => f.key) as [
  ManualMergeField,
  ...ManualMergeField[],
];

const ZMergeAction = z.object({
  merge: z.enum(["newer", "metadata", "manual"], { error: IMPORT_MESSAGES.MERGE_STRATEGY }),
  targetId: z
    .string({ error: IMPORT_MESSAGES.MERGE_TARGET })
    .min(1, IMPORT_MESSAGES.MERGE_TARGET)
    .max(100),
  fields: z
    .array(z.enum(MERGE_FIELD_KEYS, { error: IMPORT_MESSAGES.MERGE_FIELDS }))
    .max(50)
    .optional(),
});
export type TMergeAction = z.output<typeof ZMergeAction>;

export const ZCommitAction = z.union([z.literal("create"), z.literal("skip"), ZMergeAction], {
  error: IMPORT_MESSAGES.ACTION,
});
export type TCommitAction = z.output<typeof ZCommitAction>;

type TBulkItemPayload = Record<string, unknown>;

export const ZCommitItem = z.object({
  // Validated per item in the service, so that the message names the item at fault.
  question: z.custom<TBulkItemPayload>(isPlainObject, { error: IMPORT_MESSAGES.ITEM_OBJECT }),
  action: ZCommitAction,
  /** The client found a duplicate for this item (counted in `duplicates`). */
  hadDuplicate: z.boolean({ error: "hadDuplicate must be true or false" }).optional(),
});

export const ZCommitRequest = z.object({
  items: z
    .array(ZCommitItem, { error: "items must be a list" })
    .min(1, IMPORT_MESSAGES.NO_ITEMS)
    .max(COMMIT_MAX, IMPORT_MESSAGES.TOO_MANY_COMMIT),
  isPublic: z.boolean({ error: "isPublic must be true or false" }).optional(),
});
export type TCommitRequest = {
  items: {
    question: TBulkQuestionItem | TBulkItemPayload;
    action: TCommitAction;
    hadDuplicate?: boolean;
  }[];
  isPublic?: boolean;
};

export interface CommitResult {
  total: number;
  /** Items that had a match: flagged by the client (`hadDuplicate`) or merged. */
  duplicates: number;
  merged: number;
  imported: number;
  skipped: number;
  /**
   * Always empty when the commit succeeds: any bad item fails the whole commit with a message naming
   * it, and nothing is written (docs/decisions/032-import-commit.md).
   */
  errors: { index: number; message: string }[];
  /** Created and merged questions, in item order, each once. */
  questions: QuestionJson[];
}
