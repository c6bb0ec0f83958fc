import { z } from "zod";
import { LIMITS, OPTION_LETTERS } from "../../../core/constants";
import { maxLengthMessage } from "../../../core/schemas/common";

export const EXPLANATION_MESSAGES = {
  NOT_CONFIGURED: "AI explanations are not configured on this server",
  QUESTION_REQUIRED: "Question text is required",
  OPTIONS_REQUIRED: "At least options A and B are required",
  ANSWER_REQUIRED: "The correct answer is required",
  EXPLANATION_REQUIRED: "Explanation is required",
  QUESTION_ID_REQUIRED: "Question id is required",
  GENERATION_FAILED: "The AI service could not generate an explanation. Please try again.",
  EMPTY: "The AI service returned an empty explanation. Please try again.",
  SAVED: "Explanation saved successfully",
  CREATOR_ONLY: "Only the question's creator can save an explanation to it",
  NOT_FOUND: "Question not found",
} as const;

const letters = OPTION_LETTERS as readonly string[];

/**
 * Options arrive keyed by letter (docs/product/rest-api.md: `options`). Blank options are dropped, letters upper-cased,
 * and anything outside A–O ignored: the prompt only lists real options.
 */
const ZPromptOptions = z.preprocess(
  (v) => (v === null || v === undefined ? {} : v),
  z
    .record(z.string(), z.unknown(), { error: EXPLANATION_MESSAGES.OPTIONS_REQUIRED })
    .transform((raw) => {
      const out: Record<string, string> = {};
      for (const [key, value] of Object.entries(raw)) {
        const letter = key.trim().toUpperCase();
        if (!letters.includes(letter) || typeof value !== "string") continue;
        const text = value.trim().slice(0, LIMITS.OPTION);
        if (text) out[letter] = text;
      }
      return out;
    })
    .refine((o) => Object.keys(o).length >= 2, EXPLANATION_MESSAGES.OPTIONS_REQUIRED),
);

/** One letter, a list of letters, or "A, C, E": normalised to a list of upper-case letters. */
const ZPromptAnswer = z.preprocess(
  (v) => {
    if (typeof v === "string") return v.split(/[\s,;/]+/).filter(Boolean);
    return v ?? [];
  },
  z
    .array(z.string())
    .transform((list) => [...new Set(list.map((l) => l.trim().toUpperCase()))])
    .refine((list) => list.length > 0, EXPLANATION_MESSAGES.ANSWER_REQUIRED)
    .refine((list) => list.every((l) => letters.includes(l)), "Answer letters must be A to O"),
);

export const ZGenerateExplanationRequest = z.object({
  question: z
    .string({ error: EXPLANATION_MESSAGES.QUESTION_REQUIRED })
    .trim()
    .min(1, EXPLANATION_MESSAGES.QUESTION_REQUIRED)
    .max(LIMITS.QUESTION_TEXT, maxLengthMessage("Question text", LIMITS.QUESTION_TEXT)),
  options: ZPromptOptions,
  correctAnswer: ZPromptAnswer,
});
export type TGenerateExplanationRequest = z.infer<typeof ZGenerateExplanationRequest>;

export const ZSaveExplanationRequest = z.object({
  questionId: z
    .string({ error: EXPLANATION_MESSAGES.QUESTION_ID_REQUIRED })
    .trim()
    .min(1, EXPLANATION_MESSAGES.QUESTION_ID_REQUIRED),
  explanation: z
    .string({ error: EXPLANATION_MESSAGES.EXPLANATION_REQUIRED })
    .trim()
    .min(1, EXPLANATION_MESSAGES.EXPLANATION_REQUIRED)
    .max(LIMITS.EXPLANATION, maxLengthMessage("Explanation", LIMITS.EXPLANATION)),
});
export type TSaveExplanationRequest = z.infer<typeof ZSaveExplanationRequest>;
