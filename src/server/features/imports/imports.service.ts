/**
 * imports.commit (decision 032): creates, merges and skips in one transaction, with the images a deck
 * shows and, when asked, the Anki progress it carries. The duplicate check is duplicate-check.service.ts.
 */
import { and, inArray, sql } from "drizzle-orm";
import { recordAudit, type AuditMeta } from "../audit/audit.service";
import { FLASHCARD, yearRangeError } from "../../../core/constants";
import {
  ZBulkQuestionItem,
  firstIssueMessage,
  isUuid,
  type TBulkQuestionItem,
} from "../../../core/schemas";
import { flashcardHtml, imageHashes } from "../../../core/media";
import { studyStateFromAnki } from "../../../core/import/anki/progress";
import type { Db } from "../../db/client";
import { questionMedia, questions } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../../errors";
import { markEditor } from "../history/mark-editor";
import { storedHashes } from "../media/media.service";
import { questionJsonById } from "../questions/question-access";
import { questionColumns, visibleTo } from "../questions/question-json";
import {
  newQuestionVisibility,
  writerOf,
  type VisibilityWrite,
} from "../questions/visibility.service";
import { visibilityOf } from "../../../core/visibility";
import { itemPrefix } from "../questions/question-edits.service";
import { insertImportedQuestions, type ImportedQuestionRow } from "./insert-questions";
import { keepImportedStates } from "../study/study-writer.service";
import {
  contentOf,
  contentProblem,
  mergeContent,
  mergeFlashcard,
  takesContent,
  type Content,
  type Extra,
  type Target,
} from "./merge-content";
import {
  IMPORT_MESSAGES as MSG,
  ZFlashcardItem,
  ZImportExtras,
  type CommitResult,
  type TCommitRequest,
  type TFlashcardItem,
  type TImportExtras,
  type TImportProgress,
  type TMergeAction,
} from "./imports.types";

// The router, the duplicates bench and tests name the imports service for the check too.
export { checkDuplicates } from "./duplicate-check.service";

/** Rows per INSERT/UPDATE statement: 16 columns × 1000 stays far below PostgreSQL's 65,535 parameters. */
export const COMMIT_CHUNK = 1000;

/** 'Public Profile' decides whether new questions are public when the request does not say. */
/** A validated item: a file row's question or a flashcard, with what a deck adds. */
type Valid =
  | { kind: "question"; item: TBulkQuestionItem; extras: TImportExtras }
  | { kind: "flashcard"; item: TFlashcardItem; extras: TImportExtras };

function isFlashcardPayload(raw: unknown): boolean {
  return (raw as { questionType?: unknown } | null)?.questionType === FLASHCARD;
}

function validateItems(input: TCommitRequest, now: Date): (Valid | null)[] {
  return input.items.map((item, index) => {
    if (item.action === "skip") return null;
    const prefix = itemPrefix(index, item.question);
    const extras = ZImportExtras.safeParse(item.question);
    if (!extras.success) throw badRequest(prefix + firstIssueMessage(extras.error));
    if (isFlashcardPayload(item.question)) {
      const parsed = ZFlashcardItem.safeParse(item.question);
      if (!parsed.success) throw badRequest(prefix + firstIssueMessage(parsed.error));
      const yearError = yearRangeError(parsed.data.year, now);
      if (yearError) throw badRequest(prefix + yearError);
      // Stored flashcard HTML is the core sanitizer's with hash images only; the images a flashcard
      // shows are those its front and back name, in order.
      const text = flashcardHtml(parsed.data.text);
      const back = flashcardHtml(parsed.data.back);
      if (htmlIsBlank(text)) throw badRequest(prefix + MSG.FLASHCARD_FRONT);
      const images = [...new Set([...imageHashes(text), ...imageHashes(back)])];
      return {
        kind: "flashcard",
        item: { ...parsed.data, text, back },
        extras: { ...extras.data, images },
      };
    }
    const parsed = ZBulkQuestionItem.safeParse(item.question);
    if (!parsed.success) throw badRequest(prefix + firstIssueMessage(parsed.error));
    const yearError = yearRangeError(parsed.data.year, now);
    if (yearError) throw badRequest(prefix + yearError);
    return { kind: "question", item: parsed.data, extras: extras.data };
  });
}

function htmlIsBlank(html: string): boolean {
  return !/<img\b/i.test(html) && html.replace(/<[^<>]*>|&nbsp;|\s/g, "") === "";
}

/**
 * imports.commit: creates, merges and skips in one transaction. Any bad item, or a merge into a
 * question the caller did not create (403) or cannot see (404), fails the whole commit and nothing is
 * written. Creates are inserted in multi-row statements, merges updated in batches.
 */
export async function commitImport(
  db: Db,
  user: { id: string; username: string },
  input: TCommitRequest,
  meta: AuditMeta,
): Promise<CommitResult> {
  const userId = user.id;
  const now = meta.at;
  const items = validateItems(input, now);
  const counts = { merged: 0, imported: 0, skipped: 0, duplicates: 0 };
  input.items.forEach((item) => {
    if (item.action === "skip") counts.skipped++;
    else if (item.action === "create") counts.imported++;
    else counts.merged++;
    if (item.hadDuplicate === true || typeof item.action === "object") counts.duplicates++;
  });

  let progressKept = 0;
  const savedIds = await db.transaction(async (tx) => {
    await markEditor(tx, userId, { at: now });
    const order: (string | null)[] = new Array<string | null>(items.length).fill(null);
    /** Question id → the images it shows from now on (created, or merged with new content). */
    const newImages = new Map<string, string[]>();
    /** Question id → the Anki scheduling its item carried. */
    const progressOf = new Map<string, TImportProgress>();
    await checkImagesUploaded(tx, input, items);

    // Merges: every target checked before anything is written, applied in item order in memory.
    const mergeIndexes = input.items.flatMap((item, i) =>
      typeof item.action === "object" ? [i] : [],
    );
    if (mergeIndexes.length > 0) {
      const targetIds = [
        ...new Set(
          mergeIndexes
            .map((i) => (input.items[i]!.action as TMergeAction).targetId)
            .filter((id) => isUuid(id)),
        ),
      ];
      const targets: Target[] = [];
      for (let start = 0; start < targetIds.length; start += 5000) {
        targets.push(
          ...(await tx
            .select(questionColumns)
            .from(questions)
            .where(
              and(inArray(questions.id, targetIds.slice(start, start + 5000)), visibleTo(userId)),
            )),
        );
      }
      const byId = new Map(targets.map((t) => [t.id, t]));
      const state = new Map<string, Content & Extra>();
      for (const i of mergeIndexes) {
        const action = input.items[i]!.action as TMergeAction;
        const target = byId.get(action.targetId);
        if (!target) throw notFound(MSG.NOT_FOUND);
        if (target.creatorId !== userId) throw forbidden(MSG.MERGE_OTHERS);
        const valid = items[i]!;
        const prefix = itemPrefix(i, input.items[i]!.question);
        if ((target.questionType === FLASHCARD) !== (valid.kind === "flashcard")) {
          throw badRequest(prefix + MSG.MERGE_KIND);
        }
        const current = state.get(target.id) ?? {
          ...contentOf(target),
          back: target.back,
          source: target.source,
        };
        let merged: Content & Extra;
        if (valid.kind === "flashcard") {
          merged = mergeFlashcard(current, valid.item, valid.extras.source, action);
        } else {
          const source = valid.extras.source;
          merged = {
            ...mergeContent(current, valid.item, action),
            back: current.back,
            source: action.merge === "newer" ? source || current.source : current.source || source,
          };
          const problem = contentProblem(merged);
          if (problem) throw badRequest(prefix + problem);
        }
        state.set(target.id, merged);
        if (takesContent(action) && valid.extras.images.length > 0) {
          newImages.set(target.id, valid.extras.images);
        }
        if (valid.extras.progress) progressOf.set(target.id, valid.extras.progress);
        order[i] = target.id;
      }
      const updates = [...state.entries()].map(([id, c]) => ({
        id,
        text: c.text,
        options: c.options,
        correct_answer: c.correctAnswer,
        correct_answers: c.correctAnswers,
        num_correct_answers: c.numCorrectAnswers,
        question_type: c.questionType,
        category: c.category,
        part: c.part,
        year: c.year,
        number: c.number,
        explanation: c.explanation,
        back: c.back,
        source: c.source,
      }));
      for (let start = 0; start < updates.length; start += COMMIT_CHUNK) {
        await tx.execute(sql`
          update questions q set
            text = v.text, options = v.options, correct_answer = v.correct_answer,
            correct_answers = v.correct_answers, num_correct_answers = v.num_correct_answers,
            question_type = v.question_type, category = v.category, part = v.part, year = v.year,
            number = v.number, explanation = v.explanation, back = v.back, source = v.source,
            updated_at = ${now.toISOString()}::timestamptz
          from jsonb_to_recordset(${JSON.stringify(updates.slice(start, start + COMMIT_CHUNK))}::jsonb)
            as v(id uuid, text text, options jsonb, correct_answer text, correct_answers text[],
                 num_correct_answers int, question_type text, category text, part text, year int,
                 number int, explanation text, back text, source text)
          where q.id = v.id and q.creator_id = ${userId}`);
      }
    }

    // Creates: one statement per chunk (insert-questions.ts).
    const createIndexes = input.items.flatMap((item, i) => (item.action === "create" ? [i] : []));
    const visibility = { public: 0, private: 0, program: 0 };
    if (createIndexes.length > 0) {
      // The import's level (docs/product/visibility.md): program for a program's member unless asked
      // otherwise; an item's own isPublic still wins when the request names no level.
      const writer = await writerOf(tx, userId);
      const fallback = newQuestionVisibility(writer, {
        visibility: input.visibility,
        isPublic: input.isPublic,
        shareStatement: input.shareStatement,
      });
      const ofItem = (isPublic: boolean | undefined): VisibilityWrite =>
        isPublic === undefined || input.visibility !== undefined
          ? fallback
          : newQuestionVisibility(writer, { isPublic });
      for (let start = 0; start < createIndexes.length; start += COMMIT_CHUNK) {
        const chunk = createIndexes.slice(start, start + COMMIT_CHUNK);
        const values: ImportedQuestionRow[] = chunk.map((i, k) => {
          const valid = items[i]!;
          const createdAt = new Date(now.getTime() + start + k);
          if (valid.kind === "flashcard") {
            const card = valid.item;
            return {
              creatorId: userId,
              text: card.text,
              back: card.back,
              options: {},
              correctAnswer: "",
              correctAnswers: [],
              numCorrectAnswers: 0,
              questionType: FLASHCARD,
              category: card.category,
              part: card.part,
              year: card.year,
              number: null,
              explanation: "",
              source: valid.extras.source,
              ...ofItem(card.isPublic),
              createdAt,
              updatedAt: now,
            };
          }
          const item = valid.item;
          return {
            creatorId: userId,
            source: valid.extras.source,
            text: item.text,
            back: "",
            options: item.options,
            correctAnswer: item.correctAnswer,
            correctAnswers: item.correctAnswer === "" ? [] : [item.correctAnswer],
            numCorrectAnswers: 1,
            questionType: "standard",
            category: item.category,
            part: item.part,
            year: item.year,
            number: item.number,
            explanation: item.explanation,
            ...ofItem(item.isPublic),
            // Distinct, increasing times keep the file's order in the newest-first list.
            createdAt,
            updatedAt: now,
          };
        });
        for (const v of values) {
          visibility[
            visibilityOf({ isPublic: v.isPublic ?? false, programId: v.programId ?? null })
          ]++;
        }
        const inserted = await insertImportedQuestions(tx, values);
        chunk.forEach((i, k) => {
          const id = inserted[k]!;
          order[i] = id;
          const extras = items[i]!.extras;
          if (extras.images.length > 0) newImages.set(id, extras.images);
          if (extras.progress) progressOf.set(id, extras.progress);
        });
      }
    }

    await saveImages(tx, newImages);
    await recordAudit(tx, {
      kind: "import.committed",
      actor: user,
      detail: {
        imported: counts.imported,
        merged: counts.merged,
        skipped: counts.skipped,
        ...visibility,
      },
      ...meta,
    });
    if (input.keepProgress === true) {
      progressKept = await saveProgress(tx, userId, progressOf, now);
    }
    return [...new Set(order.filter((id): id is string => id !== null))];
  });

  const json = await questionJsonById(db, userId, savedIds);
  return {
    total: input.items.length,
    duplicates: counts.duplicates,
    merged: counts.merged,
    imported: counts.imported,
    skipped: counts.skipped,
    progressKept,
    errors: [],
    questions: savedIds.flatMap((id) => json.get(id) ?? []),
  };
}

/** Every image an item shows must have been uploaded (imports.uploadMedia) first. */
async function checkImagesUploaded(
  tx: Db,
  input: TCommitRequest,
  items: (Valid | null)[],
): Promise<void> {
  const wanted = items.flatMap((v) => v?.extras.images ?? []);
  if (wanted.length === 0) return;
  const present = await storedHashes(tx, wanted);
  items.forEach((v, i) => {
    if (v && v.extras.images.some((h) => !present.has(h))) {
      throw badRequest(itemPrefix(i, input.items[i]!.question) + MSG.IMAGE_MISSING);
    }
  });
}

/** The images each question shows, in order, replacing what a merged question showed. */
async function saveImages(tx: Db, images: Map<string, string[]>): Promise<void> {
  if (images.size === 0) return;
  const ids = [...images.keys()];
  for (let start = 0; start < ids.length; start += 5000) {
    await tx
      .delete(questionMedia)
      .where(inArray(questionMedia.questionId, ids.slice(start, start + 5000)));
  }
  const rows = [...images].flatMap(([questionId, hashes]) =>
    hashes.map((sha256, position) => ({ questionId, sha256, position })),
  );
  for (let start = 0; start < rows.length; start += COMMIT_CHUNK * 5) {
    await tx.insert(questionMedia).values(rows.slice(start, start + COMMIT_CHUNK * 5));
  }
}

/**
 * "Keep my Anki progress": each card's Anki scheduling becomes the importer's study state of the
 * question (decision 241), written by the study writer, which keeps a state the importer already has.
 */
function saveProgress(
  tx: Db,
  userId: string,
  progress: Map<string, TImportProgress>,
  now: Date,
): Promise<number> {
  const states = new Map(
    [...progress].map(([questionId, p]) => [
      questionId,
      studyStateFromAnki({ ...p, suspended: p.suspended ?? false }, now),
    ]),
  );
  return keepImportedStates(tx, userId, states);
}
