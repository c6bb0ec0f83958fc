import { createHash } from "node:crypto";
import { and, eq, exists, inArray } from "drizzle-orm";
import type { MediaType } from "../../../core/constants";
import { isMediaHash, MEDIA_MESSAGES, prepareImage } from "../../../core/media";
import type { Db } from "../../db/client";
import { media, questionMedia, questions } from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import { visibleTo } from "../questions/question-json";

export interface StoredMedia {
  sha256: string;
  mimeType: MediaType;
}

/**
 * Stores an image and answers its key. The type is read from the bytes and an SVG reduced to drawing
 * only (src/core/media); anything that is not an image is refused with a message saying so. Storage is
 * content-addressed: the same picture stored twice, by anyone, is one row (the first uploader stays).
 * Storing shows the image to nobody: who may fetch it is decided by the questions that show it.
 */
export async function storeMedia(
  tx: Db,
  input: { bytes: Uint8Array; uploadedBy: string | null },
): Promise<StoredMedia> {
  const prepared = prepareImage(input.bytes);
  if (!prepared.ok) throw badRequest(prepared.message);
  const sha256 = createHash("sha256").update(prepared.bytes).digest("hex");
  await tx
    .insert(media)
    .values({
      sha256,
      mimeType: prepared.mimeType,
      byteSize: prepared.bytes.length,
      bytes: prepared.bytes,
      uploadedBy: input.uploadedBy,
    })
    .onConflictDoNothing({ target: media.sha256 });
  return { sha256, mimeType: prepared.mimeType };
}

/** Of `hashes`, those that are stored. */
export async function storedHashes(db: Db, hashes: readonly string[]): Promise<Set<string>> {
  const wanted = [...new Set(hashes.filter(isMediaHash))];
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ sha256: media.sha256 })
    .from(media)
    .where(inArray(media.sha256, wanted));
  return new Set(rows.map((r) => r.sha256));
}

export interface MediaFile extends StoredMedia {
  bytes: Uint8Array;
}

/**
 * An image for a viewer who can see at least one question showing it (its creator's, or a public one);
 * to anyone else, and for a hash never stored, the same 404, so nobody learns what exists.
 */
export async function getMedia(db: Db, viewerId: string, sha256: string): Promise<MediaFile> {
  if (!isMediaHash(sha256)) throw notFound(MEDIA_MESSAGES.NOT_FOUND);
  const [row] = await db
    .select({ sha256: media.sha256, mimeType: media.mimeType, bytes: media.bytes })
    .from(media)
    .where(
      and(
        eq(media.sha256, sha256),
        exists(
          db
            .select({ one: questionMedia.questionId })
            .from(questionMedia)
            .innerJoin(questions, eq(questions.id, questionMedia.questionId))
            .where(and(eq(questionMedia.sha256, media.sha256), visibleTo(viewerId))),
        ),
      ),
    );
  if (!row) throw notFound(MEDIA_MESSAGES.NOT_FOUND);
  return { sha256: row.sha256, mimeType: row.mimeType as MediaType, bytes: row.bytes };
}

/**
 * Sets the images a question shows, in order (replacing what it showed). Every hash must be stored;
 * one that is not is refused, so a question never points at a picture nobody uploaded.
 */
export async function setQuestionMedia(
  tx: Db,
  questionId: string,
  hashes: readonly string[],
): Promise<void> {
  const ordered = [...new Set(hashes)];
  const stored = await storedHashes(tx, ordered);
  if (ordered.some((h) => !stored.has(h))) throw badRequest(MEDIA_MESSAGES.NOT_UPLOADED);
  await tx.delete(questionMedia).where(eq(questionMedia.questionId, questionId));
  if (ordered.length === 0) return;
  await tx
    .insert(questionMedia)
    .values(ordered.map((sha256, position) => ({ questionId, sha256, position })));
}
