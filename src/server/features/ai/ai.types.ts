import { z } from "zod";
import { ZPart, ZYear } from "../../../core/schemas";

/** Bigger than a full exam's worth of pasted pages; a bigger paste is split by the user. */
export const AI_TEXT_MAX = 200_000;
export const AI_PROMPT_MAX = 4_000;

export const AI_MESSAGES = {
  TEXT_REQUIRED: "Please enter some text to parse",
  TEXT_TOO_LONG: `The pasted text is too long (at most ${AI_TEXT_MAX.toLocaleString("en-US")} characters)`,
  OCR_REQUIRED: "ocrText is required",
  PART_REQUIRED: "part is required",
} as const;

/**
 * docs/product/rest-api.md AI path: `{text, format, prompt?}`. `kind` is ours; without it a request carrying a
 * prompt is an answer key (the only screen that sends one), anything else is questions.
 */
export const ZAiProcessRequest = z
  .object({
    text: z
      .string({ error: AI_MESSAGES.TEXT_REQUIRED })
      .max(AI_TEXT_MAX, AI_MESSAGES.TEXT_TOO_LONG)
      .refine((t) => t.trim() !== "", AI_MESSAGES.TEXT_REQUIRED),
    format: z.enum(["json", "text"]).optional().default("json"),
    kind: z.enum(["questions", "answerKey"]).optional(),
    prompt: z.string().max(AI_PROMPT_MAX).optional(),
    part: ZPart.optional(),
    year: ZYear.optional(),
  })
  .transform((r) => ({ ...r, kind: r.kind ?? (r.prompt ? "answerKey" : "questions") }));
export type TAiProcessRequest = z.output<typeof ZAiProcessRequest>;

export interface AiProcessResult {
  success: boolean;
  /** Questions: an array of drafts (json) or the text to parse (text); answer keys: number → letter. */
  data: unknown;
  error: string | null;
  /** Which path answered: the model, or the deterministic parser (no model, or it failed). */
  source: "model" | "parser";
  /**
   * Not in the spec (additive): what the deterministic parser wants the user to know about its
   * reading, e.g. an answer key's later sections left out, numeric answers read as letters, dropped
   * items. Empty when the model answered or there is nothing to say.
   */
  warnings: string[];
}

export const ZParserQuestionsRequest = z.object({
  ocrText: z
    .string({ error: AI_MESSAGES.OCR_REQUIRED })
    .max(AI_TEXT_MAX, AI_MESSAGES.TEXT_TOO_LONG)
    .refine((t) => t.trim() !== "", AI_MESSAGES.OCR_REQUIRED),
  // A refine on an optional schema never sees a missing key: check presence first, then the part.
  part: z
    .unknown()
    .refine(
      (p) => p !== undefined && p !== null && String(p).trim() !== "",
      AI_MESSAGES.PART_REQUIRED,
    )
    .pipe(ZPart),
  year: ZYear.optional(),
});

/** What the model must return for questions: validated before anything is shown. */
export const ZModelQuestions = z.object({
  questions: z
    .array(
      z.object({
        number: z.number().int().nullable(),
        text: z.string(),
        options: z.object({
          A: z.string(),
          B: z.string(),
          C: z.string(),
          D: z.string(),
          E: z.string(),
        }),
        correctAnswer: z.enum(["", "A", "B", "C", "D", "E"]),
        explanation: z.string(),
        category: z.string(),
      }),
    )
    .max(5_000),
});

export const ZModelAnswerKey = z.object({
  answers: z
    .array(
      z.object({
        number: z.number().int().min(1).max(9_999),
        answer: z.enum(["A", "B", "C", "D", "E"]),
      }),
    )
    .max(5_000),
});
