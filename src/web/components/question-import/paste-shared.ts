import { useCallback } from "react";
import type { Letter, ParsedQuestion, Part } from "@/core/import/types";
import { applyAnswerKey, parseQuestionsJson } from "@/core/parsing";
import { toImportItem, type ImportItem } from "@/core/import/plan";
import { trpc } from "@/web/lib/trpc";

/**
 * What Capture (/capture) and the Question import screen (/test) share: reading the AI service's
 * answer, finding a stored answer key, and the save payload.
 */

/** The AI path's `data`: a string (possibly code-fenced) or already-parsed JSON (docs/product/rest-api.md). */
export function dataAsText(data: unknown): string {
  if (typeof data === "string") return data;
  if (data === undefined || data === null) return "";
  return JSON.stringify(data);
}

/** Questions from the AI service's answer, or null when it is not JSON holding questions. */
export function questionsFromData(
  data: unknown,
  ctx: { part: Part; year: number },
): ParsedQuestion[] | null {
  const text = dataAsText(data);
  if (text.trim() === "") return null;
  return parseQuestionsJson(text, ctx);
}

/**
 * The signed-in user's stored answer key for a part and year, or null. docs/product/errors.md: a failure to read a
 * stored key is only logged; the import goes on without it.
 */
export function useStoredAnswerKey() {
  const utils = trpc.useUtils();
  return useCallback(
    async (part: Part, year: number): Promise<Record<number, string> | null> => {
      try {
        const key = await utils.answerKeys.get.fetch({ part, year }, { staleTime: 0 });
        if (!key) return null;
        const answers = key.answers as Record<string, string>;
        return Object.keys(answers).length > 0 ? answers : null;
      } catch (error) {
        console.warn("Could not read the stored answer key", error);
        return null;
      }
    },
    [utils],
  );
}

/** Fills answers by question number (see applyAnswerKey for the overwrite rule). */
export function fillAnswers(
  questions: ParsedQuestion[],
  answers: Record<number, string>,
  overwrite: boolean,
): { questions: ParsedQuestion[]; applied: number } {
  return applyAnswerKey(questions, answers, { overwrite });
}

/** Every question, answered or not (docs/product/validation.md), in the shape questions.bulkCreate takes. */
export function saveItems(questions: readonly ParsedQuestion[]): ImportItem[] {
  return questions.map((q) => ({ ...toImportItem(q), explanation: q.explanation.trim() }));
}

export function isLetterAnswer(value: string): value is Letter {
  return /^[A-E]$/.test(value);
}
