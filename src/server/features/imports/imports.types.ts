import { z } from "zod";
import {
  ZQuestionVisibility,
  ZShareStatement,
  type QuestionVisibility,
} from "../../../core/visibility";
import { LIMITS, MEDIA } from "../../../core/constants";
import { ANKI_IMPORT_MAX, FLASHCARD_HTML_MAX } from "../../../core/import/anki/plan";
import { ZPart, ZYear } from "../../../core/schemas";
import type { ManualMergeField, QuestionSimilarity } from "../../../core/similarity";
import { MANUAL_MERGE_FIELDS } from "../../../core/similarity";
import type { TBulkQuestionItem } from "../../../core/schemas";
import type { QuestionJson } from "../questions/question-json";

/** Incoming questions per duplicate check (the screen sends its file in batches of this size or less). */
export const CHECK_DUPLICATES_MAX = 2_000;
/**
 * Items per commit: the largest spreadsheet the importer reads (20,000 rows) or Anki deck (50,000
 * cards: a 20,000-note deck with reversed and cloze cards).
 */
export const COMMIT_MAX = ANKI_IMPORT_MAX;

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
  IMAGE_HASH: "Each image must be named by the SHA-256 of an uploaded image",
  IMAGE_MISSING: "an image it shows was not uploaded",
  MERGE_KIND:
    "a flashcard can only be merged into a flashcard, and a multiple-choice question into a multiple-choice question",
  FLASHCARD_FRONT: "The flashcard's front is empty",
  PROGRESS: "progress must be an Anki card's scheduling (state, interval, ease, due, reps, lapses)",
} as const;

/** An image sent before the commit that shows it (base64, so it travels over tRPC and createCaller). */
export const ZUploadMediaRequest = z.object({
  data: z
    .string({ error: "The image must be sent as base64 text" })
    .min(1, "The image file is empty")
    .max(Math.ceil((MEDIA.MAX_BYTES * 4) / 3) + 4, "Images must be at most 5 MB")
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, "The image must be sent as base64 text"),
});

/** A question's source (the Anki deck name, 'Parent::Child'). */
export const SOURCE_MAX = 500;
/** Images one imported question may show. */
export const IMAGES_PER_QUESTION = 50;

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
  /** 'flashcard': compared with stored flashcards by front text only (decision 240). */
  questionType: z.string().max(30).nullish(),
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
  /** True only for the caller's own questions: another user's public question can be skipped or kept alongside, not merged (docs/product/product-decisions.md). */
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

/** An Anki card's scheduling, kept with "Keep my Anki progress" (decision 241). */
export const ZImportProgress = z.object(
  {
    state: z.enum(["learning", "review", "relearning"], { error: IMPORT_MESSAGES.PROGRESS }),
    suspended: z.boolean({ error: IMPORT_MESSAGES.PROGRESS }).optional(),
    intervalDays: z.number({ error: IMPORT_MESSAGES.PROGRESS }).min(0).max(1_000_000),
    easeFactor: z.number({ error: IMPORT_MESSAGES.PROGRESS }).min(0).max(1000).nullable(),
    dueAt: z.number({ error: IMPORT_MESSAGES.PROGRESS }).int().min(0).max(8.64e15).nullable(),
    reps: z.number({ error: IMPORT_MESSAGES.PROGRESS }).int().min(0).max(1_000_000),
    lapses: z.number({ error: IMPORT_MESSAGES.PROGRESS }).int().min(0).max(1_000_000),
  },
  { error: IMPORT_MESSAGES.PROGRESS },
);
export type TImportProgress = z.output<typeof ZImportProgress>;

/** What an item from a deck carries beside a file row's fields. */
export const ZImportExtras = z.object({
  source: z
    .string({ error: "Source must be text" })
    .max(SOURCE_MAX, `Source must be at most ${SOURCE_MAX} characters`)
    .optional()
    .transform((v) => (v ?? "").trim()),
  images: z
    .array(z.string().regex(/^[0-9a-f]{64}$/, IMPORT_MESSAGES.IMAGE_HASH), {
      error: IMPORT_MESSAGES.IMAGE_HASH,
    })
    .max(IMAGES_PER_QUESTION, `At most ${IMAGES_PER_QUESTION} images per question`)
    .optional()
    .transform((v) => [...new Set(v ?? [])]),
  progress: ZImportProgress.optional(),
});
export type TImportExtras = z.output<typeof ZImportExtras>;

/** A flashcard item (an Anki card that is not multiple choice): front and back are HTML, sanitized on save. */
export const ZFlashcardItem = z.object({
  questionType: z.literal("flashcard"),
  text: z
    .string({ error: "The flashcard's front must be text" })
    .max(
      FLASHCARD_HTML_MAX,
      `The flashcard's front must be at most ${FLASHCARD_HTML_MAX} characters`,
    ),
  back: z
    .string({ error: "The flashcard's back must be text" })
    .max(
      FLASHCARD_HTML_MAX,
      `The flashcard's back must be at most ${FLASHCARD_HTML_MAX} characters`,
    )
    .optional()
    .transform((v) => v ?? ""),
  category: z
    .string({ error: "Category must be text" })
    .max(LIMITS.CATEGORY, `Category must be at most ${LIMITS.CATEGORY} characters`)
    .optional()
    .transform((v) => (v ?? "").trim()),
  part: ZPart,
  year: ZYear,
  number: z.null().optional(),
  isPublic: z.boolean({ error: "isPublic must be true or false" }).optional(),
});
export type TFlashcardItem = z.output<typeof ZFlashcardItem>;

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
  /** private, program or public for the created questions (docs/product/visibility.md). */
  visibility: ZQuestionVisibility,
  /** Needed with visibility public: the user may share the questions, naming their source. */
  shareStatement: ZShareStatement,
  /** Items' `progress` becomes the importer's study state of the questions they create (decision 241). */
  keepProgress: z.boolean({ error: "keepProgress must be true or false" }).optional(),
});
export type TCommitRequest = {
  items: {
    question: TBulkQuestionItem | TBulkItemPayload;
    action: TCommitAction;
    hadDuplicate?: boolean;
  }[];
  isPublic?: boolean;
  visibility?: QuestionVisibility;
  shareStatement?: string;
  keepProgress?: boolean;
};

export interface CommitResult {
  total: number;
  /** Items that had a match: flagged by the client (`hadDuplicate`) or merged. */
  duplicates: number;
  merged: number;
  imported: number;
  skipped: number;
  /** Study states written from Anki progress ("Keep my Anki progress"); 0 otherwise. */
  progressKept: number;
  /**
   * Always empty when the commit succeeds: any bad item fails the whole commit with a message naming
   * it, and nothing is written (docs/decisions/032-import-commit.md).
   */
  errors: { index: number; message: string }[];
  /** Created and merged questions, in item order, each once. */
  questions: QuestionJson[];
}
