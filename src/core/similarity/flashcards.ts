import { DUPLICATE_DETECTION } from "../constants";
import { stringSimilarity, type DuplicateCheck, type DuplicateQuestion } from "./index";

/**
 * A flashcard has no options, so the multiple-choice score (0.6·text + 0.4·options) could never flag
 * one. Flashcards are compared by their fronts alone (decision 240): a stored flashcard whose front,
 * as plain text, is at least this similar is a duplicate. 0.9 rather than 0.8 so that the sibling
 * cards of one cloze note ('[...] is for X' / 'Y is for [...]') are not taken for each other.
 */
export const FLASHCARD_DUPLICATE_SIMILARITY = 0.9;

/**
 * Scores an incoming flashcard's front against stored flashcards' fronts (plain text): the best
 * three at or above the threshold, flagged when there is one. Same-record and part rules as the
 * multiple-choice check.
 */
export function scoreFlashcardCandidates<Q extends DuplicateQuestion>(
  incoming: DuplicateQuestion,
  candidates: readonly Q[],
  { crossPart = false }: { crossPart?: boolean } = {},
): DuplicateCheck<Q> {
  const part = String(incoming.part ?? "").trim();
  const scored = candidates.flatMap((question) => {
    if (!crossPart && String(question.part ?? "").trim() !== part) return [];
    const text = stringSimilarity(incoming.text, question.text);
    if (text < FLASHCARD_DUPLICATE_SIMILARITY) return [];
    return [{ question, text }];
  });
  scored.sort((a, b) => b.text - a.text);
  const matches = scored.slice(0, DUPLICATE_DETECTION.TOP_MATCHES).map(({ question, text }) => ({
    question,
    similarity: {
      score: text,
      details: { text, optionA: 0, optionB: 0, optionC: 0, optionD: 0, optionE: 0 },
      reasons: [`Front text is ${Math.round(text * 100)}% similar`],
      matchCount: 1,
      mergeStrategy: "newer" as const,
    },
  }));
  return { isDuplicate: matches.length > 0, matches };
}
