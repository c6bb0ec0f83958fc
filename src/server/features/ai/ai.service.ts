import type { LanguageModel } from "ai";
import { CATEGORIES } from "../../../core/constants";
import type { ParsedQuestion } from "../../../core/import/types";
import { parseAnswerKey, parseQuestionsText } from "../../../core/parsing";
import { AppError } from "../../errors";
import { SlidingWindowLimiter } from "../explanations/rate-limit";
import {
  ZModelAnswerKey,
  ZModelQuestions,
  type AiProcessResult,
  type TAiProcessRequest,
} from "./ai.types";

/** Per user and instance. The deterministic path is cheap, but a loop of 200 KB pastes is not. */
export const AI_RATE_LIMIT = { limit: 60, windowMs: 10 * 60_000 } as const;
export const aiLimiter = new SlidingWindowLimiter(AI_RATE_LIMIT.limit, AI_RATE_LIMIT.windowMs);

const QUESTIONS_INSTRUCTION = [
  "Extract every multiple-choice question from the text a psychiatry resident pasted (often OCR of an exam page).",
  "Keep each question's number when the text has one, its full stem and its options A to E (empty string for a missing option).",
  "correctAnswer is the letter marked as correct in the text, or an empty string when the text does not say.",
  `category is one of: ${CATEGORIES.join("; ")}; or an empty string when unsure.`,
  "explanation is the explanation given in the text, or an empty string. Never invent questions, answers or explanations.",
].join(" ");

const ANSWER_KEY_INSTRUCTION = [
  "Extract the answer key from the text: for each question number, its answer, a single letter A to E.",
  "A letter in parentheses is the correct one. Numeric answers 1-5 mean A-E. Skip dropped or bonus items.",
].join(" ");

function fallbackContext(input: TAiProcessRequest) {
  return { part: input.part ?? "1", year: input.year ?? new Date().getFullYear() } as const;
}

/**
 * The deterministic answer in the same shape as the model's (docs/ARCHITECTURE.md 'Works without AI'), with the
 * parser's warnings (an answer key's extra sections, numeric answers, dropped items).
 */
export function parseDeterministically(input: TAiProcessRequest): {
  data: unknown;
  warnings: string[];
} {
  if (input.kind === "answerKey") {
    const key = parseAnswerKey(input.text);
    const out: Record<string, string> = {};
    for (const [n, letter] of Object.entries(key.answers)) out[n] = letter;
    return { data: out, warnings: key.warnings };
  }
  if (input.format === "text") return { data: input.text, warnings: [] };
  return {
    data: parseQuestionsText(input.text, fallbackContext(input)).map(draftJson),
    warnings: [],
  };
}

function draftJson(q: ParsedQuestion) {
  return {
    number: q.number,
    text: q.text,
    options: q.options,
    correctAnswer: q.correctAnswer,
    explanation: q.explanation,
    category: q.category,
  };
}

async function askModel(model: LanguageModel, input: TAiProcessRequest): Promise<unknown> {
  // Loaded on first use: the AI SDK is about 20 MB of a server's RSS that never calls it.
  const { generateText, Output } = await import("ai");
  const common = {
    model,
    maxRetries: 1,
    temperature: 0,
    abortSignal: AbortSignal.timeout(90_000),
  } as const;
  if (input.kind === "answerKey") {
    const result = await generateText({
      ...common,
      system: input.prompt ? `${ANSWER_KEY_INSTRUCTION} ${input.prompt}` : ANSWER_KEY_INSTRUCTION,
      prompt: input.text,
      output: Output.object({ schema: ZModelAnswerKey }),
    });
    const out: Record<string, string> = {};
    for (const { number, answer } of result.output.answers) out[String(number)] = answer;
    return out;
  }
  const result = await generateText({
    ...common,
    system: QUESTIONS_INSTRUCTION,
    prompt: input.text,
    output: Output.object({ schema: ZModelQuestions }),
  });
  const found = result.output.questions;
  if (input.format === "json") return found;
  // The text path hands the user an editable, numbered plain text for the parse step.
  return found
    .map((q, i) => {
      const options = Object.entries(q.options)
        .filter(([, text]) => text.trim() !== "")
        .map(([letter, text]) => `${letter}. ${text}`);
      const answer = q.correctAnswer ? [`Answer: ${q.correctAnswer}`] : [];
      return [`${q.number ?? i + 1}. ${q.text}`, ...options, ...answer].join("\n");
    })
    .join("\n\n");
}

function isEmpty(data: unknown): boolean {
  if (Array.isArray(data)) return data.length === 0;
  if (typeof data === "string") return data.trim() === "";
  return data === null || typeof data !== "object" || Object.keys(data).length === 0;
}

/**
 * docs/product/rest-api.md AI path. With a model: structured output validated by zod. Without one, or when the model
 * fails, times out or returns nothing usable, the core parsers answer in the same shape, so the
 * screens never depend on an AI key.
 */
export async function processWithAi(
  model: LanguageModel | null,
  input: TAiProcessRequest,
  meta: { userId: string; now: Date; log?: (msg: string, err: unknown) => void },
): Promise<AiProcessResult> {
  const slot = aiLimiter.take(meta.userId, meta.now.getTime());
  if (!slot.ok) {
    const minutes = Math.max(1, Math.ceil(slot.retryAfterMs / 60_000));
    throw new AppError(
      "TOO_MANY_REQUESTS",
      `Too many requests. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    );
  }
  if (model) {
    try {
      const data = await askModel(model, input);
      if (!isEmpty(data)) {
        return { success: true, data, error: null, source: "model", warnings: [] };
      }
    } catch (err) {
      meta.log?.("AI processing failed; answering with the deterministic parser", err);
    }
  }
  const { data, warnings } = parseDeterministically(input);
  return { success: true, data, error: null, source: "parser", warnings };
}
