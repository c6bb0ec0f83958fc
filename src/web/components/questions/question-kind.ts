import { FLASHCARD } from "@/core/constants";
import type { RouterOutputs } from "@/web/lib/trpc";

/**
 * Whether a question is a flashcard (issue 17). In a module of its own, apart from the flashcard
 * editor's draft and zod schema: Browse's cards need only this, and zod's module set-up was a long task
 * of Browse's first load on a phone (issue 20 item 3).
 */
export const isFlashcard = (q: { questionType: string }) => q.questionType === FLASHCARD;

/** A question as the server sends it (either kind). */
export type QuestionJson = RouterOutputs["questions"]["get"];
