import { asc, eq, inArray } from "drizzle-orm";
import {
  ANKI_EXPORT_MESSAGES,
  writeAnkiPackage,
  type AnkiExportItem,
  type AnkiExportMedia,
} from "../../../core/export/anki";
import { FLASHCARD } from "../../../core/constants";
import { exportFileName } from "../../../core/file-names";
import { sqlJsLoader } from "../../../core/import/anki";
import type { Db } from "../../db/client";
import { media, questionMedia, questions } from "../../db/schema";

export { ANKI_EXPORT_MESSAGES };

export interface AnkiExport {
  /** The .apkg file, base64. */
  package: string;
  fileName: string;
  counts: { multipleChoice: number; flashcards: number; images: number };
}

const loadSqlite = sqlJsLoader();

/**
 * The user's own questions (decision 245: the same "my questions" as Export My Questions, decision 042)
 * as an Anki package, with the images question_media lists for them, read in one transaction. A user
 * without questions gets a valid package with no notes; the web and the CLI say so instead of saving it.
 */
export async function exportAnkiPackage(db: Db, userId: string, now: Date): Promise<AnkiExport> {
  const { rows, links, files } = await db.transaction(async (tx) => {
    const rows = await tx
      .select({
        id: questions.id,
        text: questions.text,
        options: questions.options,
        correctAnswer: questions.correctAnswer,
        correctAnswers: questions.correctAnswers,
        questionType: questions.questionType,
        explanation: questions.explanation,
        back: questions.back,
        source: questions.source,
        category: questions.category,
        part: questions.part,
        year: questions.year,
        createdAt: questions.createdAt,
        updatedAt: questions.updatedAt,
      })
      .from(questions)
      .where(eq(questions.creatorId, userId))
      .orderBy(asc(questions.createdAt), asc(questions.id));
    const links = await tx
      .select({ questionId: questionMedia.questionId, sha256: questionMedia.sha256 })
      .from(questionMedia)
      .innerJoin(questions, eq(questions.id, questionMedia.questionId))
      .where(eq(questions.creatorId, userId))
      .orderBy(asc(questionMedia.questionId), asc(questionMedia.position));
    const hashes = [...new Set(links.map((l) => l.sha256))];
    const files: AnkiExportMedia[] = [];
    // A few hundred hashes per query keeps the parameter list small on both databases.
    for (let at = 0; at < hashes.length; at += 500) {
      const slice = hashes.slice(at, at + 500);
      files.push(
        ...(await tx
          .select({ sha256: media.sha256, mimeType: media.mimeType, bytes: media.bytes })
          .from(media)
          .where(inArray(media.sha256, slice))),
      );
    }
    return { rows, links, files };
  });

  const imagesOf = new Map<string, string[]>();
  for (const l of links) {
    const list = imagesOf.get(l.questionId) ?? [];
    list.push(l.sha256);
    imagesOf.set(l.questionId, list);
  }
  const items: AnkiExportItem[] = rows.map((r) => {
    const flashcard = r.questionType === FLASHCARD;
    const correct =
      r.correctAnswers.length > 0 ? r.correctAnswers : r.correctAnswer ? [r.correctAnswer] : [];
    return {
      id: r.id,
      kind: flashcard ? "flashcard" : "multipleChoice",
      text: r.text,
      options: flashcard ? {} : r.options,
      correctAnswers: flashcard ? [] : correct,
      explanation: r.explanation,
      back: r.back,
      category: r.category,
      source: r.source,
      part: r.part,
      year: r.year,
      images: imagesOf.get(r.id) ?? [],
      createdAt: r.createdAt.getTime(),
      updatedAt: r.updatedAt.getTime(),
    };
  });
  const bytes = await writeAnkiPackage(
    items,
    files.map((f) => ({ ...f, bytes: new Uint8Array(f.bytes) })),
    { loadSqlite, now: now.getTime() },
  );
  const flashcards = items.filter((i) => i.kind === "flashcard").length;
  return {
    package: Buffer.from(bytes).toString("base64"),
    fileName: exportFileName("prite_questions_", now, "apkg"),
    counts: {
      multipleChoice: items.length - flashcards,
      flashcards,
      images: files.length,
    },
  };
}
