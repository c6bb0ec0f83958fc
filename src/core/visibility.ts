import { z } from "zod";
import {
  QUESTION_VISIBILITIES,
  SHARE_STATEMENT_MAX,
  VISIBILITY_MESSAGES,
} from "./visibility-rules";

// The levels and rules without zod live in visibility-rules.ts: the web's visibility choice imports
// them there, so the Import page's first chunk does not load zod (issue 35 item 2, decision 421).
export * from "./visibility-rules";

export const ZQuestionVisibility = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().toLowerCase() || undefined : (v ?? undefined)),
  z.enum(QUESTION_VISIBILITIES, { error: VISIBILITY_MESSAGES.VISIBILITY }).optional(),
);

export const ZShareStatement = z.preprocess(
  (v) => (v === null ? undefined : v),
  z
    .string({ error: VISIBILITY_MESSAGES.STATEMENT_REQUIRED })
    .trim()
    .max(SHARE_STATEMENT_MAX, VISIBILITY_MESSAGES.STATEMENT_LONG)
    .optional(),
);
