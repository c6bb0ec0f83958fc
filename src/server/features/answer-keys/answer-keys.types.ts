import { z } from "zod";
import { ZPart, ZYear } from "../../../core/schemas";

/** A key longer than any real exam: PRITE has 150-200 items per part. */
export const ANSWER_KEY_MAX_ITEMS = 1_000;
export const ANSWER_KEY_MAX_TEXT = 200_000;

export const ANSWER_KEY_MESSAGES = {
  EMPTY: "The answer key has no answers",
  TOO_MANY: `An answer key can hold at most ${ANSWER_KEY_MAX_ITEMS} answers`,
  BAD_NUMBER: "Question numbers must be whole numbers from 1 to 9999",
  BAD_LETTER: "Answers must be a single letter A to E",
  NOT_FOUND: "Answer key not found",
  DELETED: "Answer key deleted",
  TEXT_REQUIRED: "Please paste the answer key text",
} as const;

const ZAnswerLetter = z
  .string({ error: ANSWER_KEY_MESSAGES.BAD_LETTER })
  .transform((v) => v.trim().toUpperCase())
  .pipe(z.enum(["A", "B", "C", "D", "E"], { error: ANSWER_KEY_MESSAGES.BAD_LETTER }));

/** Question number → letter. Keys arrive as strings in JSON; they must read as item numbers. */
export const ZAnswerMap = z.record(z.string(), ZAnswerLetter).superRefine((answers, ctx) => {
  const keys = Object.keys(answers);
  if (keys.length === 0) ctx.addIssue({ code: "custom", message: ANSWER_KEY_MESSAGES.EMPTY });
  if (keys.length > ANSWER_KEY_MAX_ITEMS)
    ctx.addIssue({ code: "custom", message: ANSWER_KEY_MESSAGES.TOO_MANY });
  if (keys.some((k) => !/^[1-9]\d{0,3}$/.test(k)))
    ctx.addIssue({ code: "custom", message: ANSWER_KEY_MESSAGES.BAD_NUMBER });
});

export const ZPartYear = z.object({ part: ZPart, year: ZYear });

export const ZSaveAnswerKeyRequest = ZPartYear.extend({ answers: ZAnswerMap });
export type TSaveAnswerKeyRequest = z.output<typeof ZSaveAnswerKeyRequest>;

/** The CLI and REST clients may send the raw text; the server parses it with the core parser. */
export const ZImportAnswerKeyRequest = ZPartYear.extend({
  text: z
    .string({ error: ANSWER_KEY_MESSAGES.TEXT_REQUIRED })
    .max(ANSWER_KEY_MAX_TEXT, "The answer key text is too long")
    .refine((t) => t.trim() !== "", ANSWER_KEY_MESSAGES.TEXT_REQUIRED),
});

export const ZApplyAnswerKeyRequest = ZPartYear.extend({
  overwrite: z.boolean().optional().default(false),
});

export interface AnswerKeyJson {
  _id: string;
  part: "1" | "2";
  year: number;
  answers: Record<string, string>;
  count: number;
  createdAt: string;
  updatedAt: string;
}

export interface ApplyAnswerKeyResult {
  /** The caller's questions of that part and year whose number is in the key. */
  matched: number;
  /** Questions whose answer was set or changed. */
  applied: number;
  /** Matched questions that kept their answer because they had one and overwrite was off. */
  kept: number;
  /** Multiple-correct questions are never touched by a single-letter key. */
  skippedMultipleCorrect: number;
}
