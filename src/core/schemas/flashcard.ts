import { z } from "zod";
import { LIMITS } from "../constants";
import { htmlToText } from "../import/anki/html";
import { flashcardHtml, imageHashes } from "../media/html";
import { ZPart, ZYear, maxLengthMessage, optionalText, type TPart } from "./common";
import { ZQuestionVisibility, ZShareStatement, type QuestionVisibility } from "../visibility";

export const FLASHCARD_MESSAGES = {
  FRONT_REQUIRED: "The front of the card is required",
  BACK_REQUIRED: "The back of the card is required",
  FRONT_TEXT: "The front of the card must be text",
  BACK_TEXT: "The back of the card must be text",
  SOURCE_TEXT: "Source must be text",
} as const;

/** A flashcard as stored: both sides sanitized HTML whose images are stored media hashes (issue 17). */
export type TFlashcardInput = {
  front: string;
  back: string;
  category: string;
  part: TPart;
  year: number;
  source: string;
  isPublic?: boolean;
  visibility?: QuestionVisibility;
  shareStatement?: string;
};

/** A side with nothing to show once sanitized: no text and no image. */
function blankSide(html: string): boolean {
  return htmlToText(html).trim() === "" && imageHashes(html).length === 0;
}

const ZSide = (typeMessage: string) =>
  z
    .string({ error: typeMessage })
    .nullish()
    .transform((v) => flashcardHtml(v ?? ""));

const ZFlashcardFields = z.object({
  front: ZSide(FLASHCARD_MESSAGES.FRONT_TEXT),
  back: ZSide(FLASHCARD_MESSAGES.BACK_TEXT),
  category: optionalText("Category must be text"),
  part: ZPart,
  year: ZYear,
  source: optionalText(FLASHCARD_MESSAGES.SOURCE_TEXT),
  isPublic: z.boolean({ error: "isPublic must be true or false" }).optional(),
  visibility: ZQuestionVisibility,
  shareStatement: ZShareStatement,
});

/**
 * questions.createFlashcard, and a flashcard's fields in questions.update: front and back are HTML, made
 * safe here with the core sanitizer (decision 180) so the browser, the server and the CLI agree; an image
 * is kept only when it refers to stored media by hash (`<img src="<sha256>">`), decision 230.
 */
export const ZFlashcardInput = ZFlashcardFields.transform((raw, ctx): TFlashcardInput => {
  const issue = (message: string, path: string) =>
    ctx.addIssue({ code: "custom", message, path: [path] });
  if (blankSide(raw.front)) issue(FLASHCARD_MESSAGES.FRONT_REQUIRED, "front");
  if (raw.front.length > LIMITS.FLASHCARD_SIDE) {
    issue(maxLengthMessage("The front of the card", LIMITS.FLASHCARD_SIDE), "front");
  }
  if (blankSide(raw.back)) issue(FLASHCARD_MESSAGES.BACK_REQUIRED, "back");
  if (raw.back.length > LIMITS.FLASHCARD_SIDE) {
    issue(maxLengthMessage("The back of the card", LIMITS.FLASHCARD_SIDE), "back");
  }
  const category = raw.category.trim();
  if (category.length > LIMITS.CATEGORY) {
    issue(maxLengthMessage("Category", LIMITS.CATEGORY), "category");
  }
  const source = raw.source.trim();
  if (source.length > LIMITS.SOURCE) issue(maxLengthMessage("Source", LIMITS.SOURCE), "source");
  return { ...raw, category, source };
});
export type TFlashcardInputPayload = z.input<typeof ZFlashcardInput>;
