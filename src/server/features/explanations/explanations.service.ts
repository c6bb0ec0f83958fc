import type { LanguageModel } from "ai";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { questions } from "../../db/schema";
import { AppError, forbidden } from "../../errors";
import { markEditor } from "../history/mark-editor";
import type { QuestionJson } from "../questions/question-json";
import { questionJsonFor, requireVisibleQuestion } from "../questions/question-access";
import { SlidingWindowLimiter } from "./rate-limit";
import { trimLineEnds } from "../../../core/text";
import {
  EXPLANATION_MESSAGES,
  type TGenerateExplanationRequest,
  type TSaveExplanationRequest,
} from "./explanations.types";

/** Per user and server instance: enough for a long session, not enough to run up a bill. */
export const EXPLANATION_RATE_LIMIT = { limit: 10, windowMs: 10 * 60_000 } as const;
export const explanationLimiter = new SlidingWindowLimiter(
  EXPLANATION_RATE_LIMIT.limit,
  EXPLANATION_RATE_LIMIT.windowMs,
);

export const EXPLANATION_SYSTEM_PROMPT = [
  "You are a psychiatry educator helping residents prepare for the PRITE in-training examination.",
  "Explain why the correct answer is correct and, briefly, why each other option is wrong.",
  "Be accurate and concise (150 to 300 words). Cite the relevant concept, criteria or mechanism.",
  "Write plain text in short paragraphs separated by blank lines. Do not use headings, tables or markdown.",
].join(" ");

export function explanationPrompt(input: TGenerateExplanationRequest): string {
  const options = Object.entries(input.options)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([letter, text]) => `${letter}. ${text}`)
    .join("\n");
  const answer =
    input.correctAnswer.length === 1
      ? `Correct answer: ${input.correctAnswer[0]}`
      : `Correct answers: ${input.correctAnswer.join(", ")}`;
  return `Question:\n${input.question}\n\nOptions:\n${options}\n\n${answer}`;
}

function minutesMessage(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `Too many explanation requests. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

export async function generateExplanation(
  model: LanguageModel | null,
  input: TGenerateExplanationRequest,
  meta: { userId: string; now: Date; limiter?: SlidingWindowLimiter },
): Promise<{ explanation: string }> {
  if (!model) throw new AppError("SERVICE_UNAVAILABLE", EXPLANATION_MESSAGES.NOT_CONFIGURED);
  const limiter = meta.limiter ?? explanationLimiter;
  const slot = limiter.take(meta.userId, meta.now.getTime());
  if (!slot.ok) throw new AppError("TOO_MANY_REQUESTS", minutesMessage(slot.retryAfterMs));
  let text: string;
  try {
    // Loaded on first use: the AI SDK is about 20 MB of a server's RSS that never calls it.
    const { generateText } = await import("ai");
    const result = await generateText({
      model,
      system: EXPLANATION_SYSTEM_PROMPT,
      prompt: explanationPrompt(input),
      maxOutputTokens: 1200,
      temperature: 0.3,
      maxRetries: 1,
      abortSignal: AbortSignal.timeout(60_000),
    });
    text = result.text;
  } catch (err) {
    throw new AppError("SERVICE_UNAVAILABLE", EXPLANATION_MESSAGES.GENERATION_FAILED, {
      cause: err,
    });
  }
  const explanation = normaliseExplanation(text);
  if (!explanation) throw new AppError("SERVICE_UNAVAILABLE", EXPLANATION_MESSAGES.EMPTY);
  return { explanation };
}

/** Line endings unified, runs of blank lines collapsed to one (the panel splits on blank lines). */
export function normaliseExplanation(text: string): string {
  return trimLineEnds(text.replace(/\r\n?/g, "\n"))
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * Saves an explanation onto the question (`generatedExplanation`). Only the creator may change the
 * shared question; another user's public question answers 403, a private one 404 (decision 024).
 */
export async function saveExplanation(
  db: Db,
  userId: string,
  input: TSaveExplanationRequest,
  now: Date,
): Promise<{ message: string; question: QuestionJson }> {
  const row = await requireVisibleQuestion(db, userId, input.questionId);
  if (row.creatorId !== userId) throw forbidden(EXPLANATION_MESSAGES.CREATOR_ONLY);
  // A saved explanation is the owner's content, kept in the question's history (decision 386).
  const [updated] = await db.transaction(async (tx) => {
    await markEditor(tx, userId, { at: now });
    return tx
      .update(questions)
      .set({ generatedExplanation: normaliseExplanation(input.explanation), updatedAt: now })
      .where(eq(questions.id, row.id))
      .returning();
  });
  const [question] = await questionJsonFor(db, userId, [updated!]);
  return { message: EXPLANATION_MESSAGES.SAVED, question: question! };
}
