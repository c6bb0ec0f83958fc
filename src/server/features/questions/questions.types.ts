import { z } from "zod";
import { LIMITS, PRITE_PARTS } from "../../../core/constants";
import { ITEM_STATS_FILTERS, type ItemStatsBrief } from "../../../core/item-stats";
import { PART_MESSAGE } from "../../../core/schemas/common";
import type { TQuestionInputPayload, ZBulkQuestionItem } from "../../../core/schemas/question";
import { ZQuestionVisibility, ZShareStatement } from "../../../core/visibility";
import type { QuestionJson } from "./question-json";

/** Page sizes of the question list and search (docs/decisions/010-question-search-and-pagination.md). */
export const QUESTION_PAGE = { DEFAULT: 20, MAX: 100 } as const;
/** Matches counted exactly per visibility branch; beyond it the total is a lower bound. */
export const SEARCH_COUNT_CAP = 500;
/** Longest free-text search accepted; longer text is refused, not cut. */
export const SEARCH_TEXT_MAX = 200;
/** Each word costs one index probe; more than this is refused with a message, never cut silently. */
export const SEARCH_TERMS_MAX = 8;

/** The words of a search, each matched on its own (all must occur), duplicates and blanks dropped. */
export function searchTerms(text: string): string[] {
  const words = text.trim().toLowerCase().split(/\s+/u).filter(Boolean);
  return [...new Set(words)];
}

/**
 * Browse's visibility filter: everything visible, the viewer's own (any level), their own private
 * ones, the program's bank (docs/product/visibility.md), or public questions.
 */
export const VISIBILITIES = ["all", "mine", "private", "program", "public"] as const;
export type TVisibility = (typeof VISIBILITIES)[number];

export const SEARCH_MESSAGES = {
  VISIBILITY: "Visibility must be all, mine, private, program or public",
  TEXT_LONG: `Search text must be at most ${SEARCH_TEXT_MAX} characters`,
  TOO_MANY_WORDS: `Search for at most ${SEARCH_TERMS_MAX} words at a time`,
  PAGE: "Page must be a positive whole number",
  PAGE_SIZE: `Page size must be between 1 and ${QUESTION_PAGE.MAX}`,
  CATEGORY_LONG: `Category must be at most ${LIMITS.CATEGORY} characters`,
  TYPE: "Type must be all, multipleChoice or flashcard",
  SOURCE_LONG: `Source must be at most ${LIMITS.SOURCE} characters`,
  STATS: "Statistics filter must be mostMissed, negativeDiscrimination or reported",
} as const;

/** The kinds Browse filters by: multiple choice (every option-based type) or flashcard. */
export const QUESTION_KINDS = ["multipleChoice", "flashcard"] as const;

const blankToUndefined = (v: unknown) =>
  v === null || v === undefined || (typeof v === "string" && v.trim() === "") ? undefined : v;

/** Query strings carry numbers as text: accept '2' as well as 2. */
const ZPositiveInt = (message: string, max?: number) =>
  z.preprocess(
    (v) => {
      const b = blankToUndefined(v);
      return typeof b === "string" && /^\s*\d+\s*$/.test(b) ? Number(b) : b;
    },
    (max === undefined
      ? z.number({ error: message }).int(message).min(1, message)
      : z.number({ error: message }).int(message).min(1, message).max(max, message)
    ).optional(),
  );

/** 'all' (or nothing) means no part filter. */
const ZPartFilter = z.preprocess(
  (v) => {
    const b = blankToUndefined(v);
    if (typeof b === "number") return String(b);
    if (typeof b === "string") return b.trim().toLowerCase() === "all" ? undefined : b.trim();
    return b;
  },
  z.enum(PRITE_PARTS, { error: PART_MESSAGE }).optional(),
);

const ZPaging = {
  /** Page number, 1-based. Named `cursor` so tRPC's infinite queries can drive it. */
  cursor: ZPositiveInt(SEARCH_MESSAGES.PAGE),
  pageSize: ZPositiveInt(SEARCH_MESSAGES.PAGE_SIZE, QUESTION_PAGE.MAX),
};

/** questions.list: the caller's own questions and every public one, newest first. */
export const ZListQuestionsRequest = z.object(ZPaging).optional();
export type TListQuestionsRequest = z.output<typeof ZListQuestionsRequest>;

/** questions.search (docs/product/validation.md 'Search and browse'): free text, part, category, visibility. */
export const ZSearchQuestionsRequest = z.object({
  text: z
    .preprocess(
      (v) => (v === null ? undefined : v),
      z
        .string({ error: "Search text must be text" })
        .max(SEARCH_TEXT_MAX, SEARCH_MESSAGES.TEXT_LONG)
        .refine(
          (text) => searchTerms(text).length <= SEARCH_TERMS_MAX,
          SEARCH_MESSAGES.TOO_MANY_WORDS,
        ),
    )
    .optional(),
  part: ZPartFilter,
  category: z.preprocess(
    (v) => {
      const b = blankToUndefined(v);
      return typeof b === "string" && b.trim().toLowerCase() === "all" ? undefined : b;
    },
    z
      .string({ error: "Category must be text" })
      .trim()
      .max(LIMITS.CATEGORY, SEARCH_MESSAGES.CATEGORY_LONG)
      .optional(),
  ),
  /** Issue 17: flashcards or multiple choice; nothing (or 'all') for both. */
  type: z.preprocess(
    (v) => {
      const b = blankToUndefined(v);
      return typeof b === "string" && b.trim().toLowerCase() === "all" ? undefined : b;
    },
    z.enum(QUESTION_KINDS, { error: SEARCH_MESSAGES.TYPE }).optional(),
  ),
  /** Where the questions came from (an Anki deck's name), exactly. */
  source: z.preprocess(
    (v) => blankToUndefined(v),
    z
      .string({ error: "Source must be text" })
      .max(LIMITS.SOURCE, SEARCH_MESSAGES.SOURCE_LONG)
      .optional(),
  ),
  visibility: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toLowerCase() || undefined : (v ?? undefined)),
    z.enum(VISIBILITIES, { error: SEARCH_MESSAGES.VISIBILITY }).default("all"),
  ),
  /**
   * Issue 36 item 5: list by item statistics instead (most missed, negative discrimination, reported),
   * over the questions whose statistics the caller may see; the other filters narrow it.
   */
  stats: z.preprocess(
    (v) => blankToUndefined(v),
    z.enum(ITEM_STATS_FILTERS, { error: SEARCH_MESSAGES.STATS }).optional(),
  ),
  ...ZPaging,
});
export type TSearchQuestionsRequest = z.input<typeof ZSearchQuestionsRequest>;
export type TSearchQuestions = z.output<typeof ZSearchQuestionsRequest>;

/** One page of questions. `nextCursor` is the next page number, or null on the last page. */
export interface QuestionPage {
  items: QuestionJson[];
  /** How many questions match; a lower bound when `totalCapped` (more than SEARCH_COUNT_CAP matches). */
  total: number;
  totalCapped: boolean;
  page: number;
  pageSize: number;
  nextCursor: number | null;
  /** With a statistics filter: each listed question's figures (item-stats.service.ts). */
  stats?: Record<string, ItemStatsBrief>;
}

export const ZQuestionIdRequest = z.object({
  id: z.string({ error: "Question not found" }),
});

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * questions.update: the fields to change. They are laid over the stored question and the result is
 * validated as a whole (ZQuestionInput), so a REST client may send only what changes.
 */
export const ZUpdateQuestionRequest = z.object({
  id: z.string({ error: "Question not found" }),
  data: z.custom<Partial<TQuestionInputPayload>>(isPlainObject, {
    error: "The question must be an object",
  }),
});

type TBulkItemPayload = z.input<typeof ZBulkQuestionItem>;

/**
 * questions.bulkCreate (POST /questions/bulk). Items are validated one by one so that the message names
 * the item at fault. `part` and `year` are the defaults for items that do not carry their own.
 */
export const ZBulkCreateRequest = z.object({
  questions: z
    .array(
      z.custom<TBulkItemPayload>(isPlainObject, { error: "Each question must be an object" }),
      { error: "questions must be a list" },
    )
    .min(1, "No questions to import")
    .max(
      LIMITS.BULK_QUESTIONS,
      `At most ${LIMITS.BULK_QUESTIONS} questions can be imported at once`,
    ),
  part: z.union([z.string(), z.number()]).nullish(),
  year: z.union([z.string(), z.number()]).nullish(),
  isPublic: z.boolean({ error: "isPublic must be true or false" }).optional(),
  visibility: ZQuestionVisibility,
  shareStatement: ZShareStatement,
});
export type TBulkCreateRequest = z.input<typeof ZBulkCreateRequest>;

/** Per category, for the caller (docs/product/data.md 'Category stats'). */
export interface CategoryStat {
  category: string;
  total: number;
  mastered: number;
  due: number;
  /** Percent of the caller's answers in the category that were correct, rounded; null before any. */
  accuracy: number | null;
  /** How many answers the accuracy is computed from. */
  answered: number;
}

export const QUESTION_MESSAGES_SERVER = {
  NOT_FOUND: "Question not found",
  EDIT_OTHERS: "You can only edit questions you created",
  DELETE_OTHERS: "You can only delete questions you created",
  DELETED: "Question deleted successfully",
  MERGE_FLASHCARD: "A flashcard cannot be replaced by a multiple-choice question",
} as const;
