import crypto from "node:crypto";
import type { Db } from "../../db/client";
import { media, questionMedia, questions } from "../../db/schema";

/** A 1×1 PNG (the media store reads the real type from the bytes). */
export const PNG = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  ),
);
export const PNG_HASH = crypto.createHash("sha256").update(PNG).digest("hex");

/**
 * A flashcard stored as the data model keeps one (drizzle/0021): sanitized HTML front and back, the
 * front showing PNG by its hash, listed in question_media. For the Anki export tests.
 */
export async function addFlashcardWithImage(
  db: Db,
  creatorId: string,
  card: { front: string; back: string; source: string; category: string },
): Promise<string> {
  return db.transaction(async (tx) => {
    await tx
      .insert(media)
      .values({ sha256: PNG_HASH, mimeType: "image/png", byteSize: PNG.length, bytes: PNG })
      .onConflictDoNothing();
    const [row] = await tx
      .insert(questions)
      .values({
        creatorId,
        text: card.front,
        back: card.back,
        questionType: "flashcard",
        source: card.source,
        category: card.category,
        part: "1",
        year: 2024,
      })
      .returning({ id: questions.id });
    await tx.insert(questionMedia).values({ questionId: row!.id, sha256: PNG_HASH, position: 0 });
    return row!.id;
  });
}
