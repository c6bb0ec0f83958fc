import { z } from "zod";
import { ZPriteScoreInput } from "../../../core/schemas";

export const SCORE_MESSAGES = {
  NOT_FOUND: "PRITE score not found",
  DELETED: "Score deleted successfully",
} as const;

/**
 * Any id at all: one that is not a UUID (too long, not text, missing) is simply not found (404), like
 * another user's id (decision 043) — the service checks the UUID shape before touching the database.
 */
export const ZScoreIdRequest = z.object({
  id: z.preprocess((v) => (typeof v === "string" ? v : ""), z.string()),
});
export type TScoreIdRequest = z.output<typeof ZScoreIdRequest>;

export const ZCreateScoreRequest = ZPriteScoreInput;
export type TCreateScoreRequest = z.output<typeof ZCreateScoreRequest>;

export const ZUpdateScoreRequest = ZPriteScoreInput.extend(ZScoreIdRequest.shape);
export type TUpdateScoreRequest = z.output<typeof ZUpdateScoreRequest>;
