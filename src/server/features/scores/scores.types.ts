import { z } from "zod";
import { ZPriteScoreInput } from "../../../core/schemas";

export const SCORE_MESSAGES = {
  NOT_FOUND: "PRITE score not found",
  DELETED: "Score deleted successfully",
} as const;

/** Any string: an id that is not a UUID is simply not found (404), like another user's id. */
export const ZScoreIdRequest = z.object({
  id: z.string({ error: SCORE_MESSAGES.NOT_FOUND }).max(100, SCORE_MESSAGES.NOT_FOUND),
});
export type TScoreIdRequest = z.output<typeof ZScoreIdRequest>;

export const ZCreateScoreRequest = ZPriteScoreInput;
export type TCreateScoreRequest = z.output<typeof ZCreateScoreRequest>;

export const ZUpdateScoreRequest = ZPriteScoreInput.extend(ZScoreIdRequest.shape);
export type TUpdateScoreRequest = z.output<typeof ZUpdateScoreRequest>;
