import { z } from "zod";
import { MEDIA_MESSAGES } from "../media";

/** media.get: an image by its key; a malformed key is simply not found. */
export const ZMediaRequest = z.object({
  sha256: z.string({ error: MEDIA_MESSAGES.NOT_FOUND }).trim().toLowerCase(),
});
