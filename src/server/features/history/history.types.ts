import { z } from "zod";
import type { FieldChange, QuestionSnapshot } from "../../../core/question-history";
import type { QuestionVisibility } from "../../../core/visibility";
import { HISTORY_MESSAGES } from "../../../core/question-history";

export const ZQuestionHistoryRequest = z.object({
  id: z.string({ error: "Question not found" }),
});

/** REST's path carries the version as text: '3' as well as 3. */
export const ZRestoreVersionRequest = z.object({
  id: z.string({ error: "Question not found" }),
  version: z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: HISTORY_MESSAGES.VERSION_NOT_FOUND })
      .int(HISTORY_MESSAGES.VERSION_NOT_FOUND)
      .min(1, HISTORY_MESSAGES.VERSION_NOT_FOUND),
  ),
});

/** A version as the history shows it: the program's id is never sent, only the level. */
export type ShownSnapshot = Omit<QuestionSnapshot, "programId"> & {
  visibility: QuestionVisibility;
};

export interface HistoryVersion {
  version: number;
  /** When the question took this state (ISO). */
  at: string;
  /** Who changed it; null where no user acted (or the account is gone). */
  editor: { id: string; username: string } | null;
  /** The version a restore brought back, else null. */
  restoredFrom: number | null;
  /** The question as it reads now. */
  current: boolean;
  /** The differences from the version before it; none for the first. */
  changes: FieldChange[];
  snapshot: ShownSnapshot;
}

export interface QuestionHistory {
  questionId: string;
  /** Whether the caller may restore a version (owner; a director for a program question). */
  canRestore: boolean;
  /** Newest first. */
  versions: HistoryVersion[];
}

export interface RestoreResult {
  message: string;
  history: QuestionHistory;
}
