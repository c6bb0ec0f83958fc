import { ImportError } from "../errors";
import type { ZipLimits, ZipMessages } from "../zip-guard";

/** docs/ARCHITECTURE.md / issue 17: an Anki package of up to 200 MB, images included. */
export const MAX_ANKI_FILE_BYTES = 200 * 1024 * 1024;

/**
 * An Anki package is a ZIP like a workbook, but bigger and with many more parts (one per media
 * file); its expanded size includes the zstd-compressed collection and media once decompressed.
 */
export const ANKI_ZIP_LIMITS: ZipLimits = {
  maxEntries: 100_000,
  maxTotalUncompressed: 500 * 1024 * 1024,
  maxRatio: 100,
  ratioAppliesAbove: 1024 * 1024,
};

/** The product's words for each way a deck can be refused; shown to the user as they are. */
export const ANKI_ZIP_MESSAGES: ZipMessages = {
  damaged: "The Anki deck is damaged or is not a real .apkg file.",
  tooManyEntries: "The Anki deck has more than 100,000 files inside. It was refused.",
  tooLarge: "The Anki deck would expand to more than 500 MB. Split it into smaller decks.",
  ratio:
    "The Anki deck contains a part that expands more than 100 times (a possible zip bomb). It was refused.",
  encrypted: "The Anki deck is password-protected. Export it again from Anki.",
  method: "The Anki deck uses a compression method that is not supported.",
};

export const ANKI_MESSAGES = {
  unsupported: "Unsupported file format. Please upload an Anki deck (.apkg or .colpkg).",
  fileTooLarge: "The Anki deck is larger than 200 MB. Split it into smaller decks.",
  notZip:
    "This file is not an Anki deck. Export the deck from Anki as an .apkg file and try again.",
  noCollection:
    "The file holds no Anki collection (collection.anki21b, collection.anki21 or collection.anki2). Export the deck again from Anki.",
  corrupt: "The Anki collection in this file is damaged or encrypted and cannot be read.",
  stubOnly:
    "This deck holds only the note that tells old Anki versions to update. Export it again from a current Anki.",
  noUsableNotes: "No usable notes found in this Anki deck.",
  badImage: (name: string, reason: string): string =>
    `The image ${name} in this deck was refused: ${reason.replace(/\.$/, "")}. Nothing was imported.`,
} as const;

export type AnkiFileKind = "apkg" | "colpkg";

/** Refuses a file by its name and size before anything reads its bytes, as `checkUpload` does. */
export function checkAnkiUpload(fileName: string, byteLength: number): AnkiFileKind {
  const dot = fileName.lastIndexOf(".");
  const ext = dot === -1 ? "" : fileName.slice(dot + 1).toLowerCase();
  if (ext !== "apkg" && ext !== "colpkg") throw new ImportError(ANKI_MESSAGES.unsupported);
  if (byteLength > MAX_ANKI_FILE_BYTES) throw new ImportError(ANKI_MESSAGES.fileTooLarge);
  return ext;
}

/**
 * What each kind of note warning says about all the notes it is about: the line the CLI and the
 * review print once for the kind, with its count and first notes (issue 31).
 */
export const ANKI_WARNING_KINDS = {
  colourAnswer: "Answer inferred from the colour of its option on the back of the card.",
  noAnswer: "No answer found on the back of the card: set it while reviewing.",
  noAnswerField: "The note has no answer field: set the answer while reviewing.",
  emptyAnswer: "The answer is empty: set it while reviewing.",
  unreadAnswer: "The answer names no single option: set it while reviewing.",
  sound: "Sound removed: PRITE Study does not play audio.",
  missingImage: "An image is not in the deck's media; it was left out.",
} as const;

export type AnkiWarningKind = keyof typeof ANKI_WARNING_KINDS;
