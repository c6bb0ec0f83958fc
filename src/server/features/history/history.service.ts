/**
 * A question's edit history (issue 36 item 4, docs/product/history.md, decisions 385-389): the versions
 * the trigger on questions keeps, with who, when and what changed, and the restore of one of them.
 */
import { and, asc, eq } from "drizzle-orm";
import { FLASHCARD } from "../../../core/constants";
import {
  HISTORY_MESSAGES as MSG,
  restoreChangesSomething,
  versionChanges,
  type QuestionSnapshot,
} from "../../../core/question-history";
import { firstIssueMessage, isUuid, ZQuestionInput } from "../../../core/schemas";
import { ZFlashcardInput } from "../../../core/schemas/flashcard";
import { visibilityOf } from "../../../core/visibility";
import type { Db } from "../../db/client";
import { questions, questionVersions, users, type QuestionRow } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../../errors";
import { setQuestionMedia } from "../media/media.service";
import { membershipOf } from "../programs/program-access";
import { findVisibleQuestion, QUESTION_NOT_FOUND } from "../questions/question-access";
import {
  checkYear,
  flashcardFields,
  flashcardImages,
  storedFields,
} from "../questions/question-edits.service";
import { markEditor } from "./mark-editor";
import type {
  HistoryVersion,
  QuestionHistory,
  RestoreResult,
  ShownSnapshot,
} from "./history.types";

interface Caller {
  id: string;
  isAdmin: boolean;
}

/**
 * Who may see a question's history (decision 388): its owner; the directors of its program while it
 * is a program question; the server's admins for a public question (to judge reports; they may not
 * restore). Anyone else who can see the question is refused (403); one who cannot, told it is missing.
 */
async function access(
  db: Db,
  caller: Caller,
  id: string,
): Promise<{ row: QuestionRow; canRestore: boolean }> {
  const row = isUuid(id) ? await findVisibleQuestion(db, caller.id, id) : null;
  if (!row) throw notFound(QUESTION_NOT_FOUND);
  if (row.creatorId === caller.id) return { row, canRestore: true };
  if (!row.isPublic && row.programId) {
    const membership = await membershipOf(db, caller.id);
    if (membership?.role === "director" && membership.programId === row.programId) {
      return { row, canRestore: true };
    }
  }
  if (row.isPublic && caller.isAdmin) return { row, canRestore: false };
  throw forbidden(MSG.NOT_YOURS);
}

/** The row's tracked fields, as the trigger's question_snapshot() writes them. */
export function snapshotOf(row: QuestionRow): QuestionSnapshot {
  return {
    text: row.text,
    back: row.back,
    options: row.options,
    correctAnswer: row.correctAnswer,
    correctAnswers: row.correctAnswers,
    numCorrectAnswers: row.numCorrectAnswers,
    questionType: row.questionType,
    instructions: row.instructions,
    explanation: row.explanation,
    generatedExplanation: row.generatedExplanation,
    category: row.category,
    part: row.part,
    year: row.year,
    number: row.number,
    source: row.source,
    isPublic: row.isPublic,
    programId: row.programId,
    shareStatement: row.shareStatement,
    reserved: row.reserved,
  };
}

function shown(s: QuestionSnapshot): ShownSnapshot {
  const { programId: _programId, ...rest } = s;
  return { ...rest, visibility: visibilityOf(s) };
}

async function storedVersions(db: Db, questionId: string) {
  return db
    .select({
      version: questionVersions.version,
      snapshot: questionVersions.snapshot,
      at: questionVersions.createdAt,
      editorId: questionVersions.editorId,
      editorName: users.username,
      restoredFrom: questionVersions.restoredFrom,
    })
    .from(questionVersions)
    .leftJoin(users, eq(users.id, questionVersions.editorId))
    .where(eq(questionVersions.questionId, questionId))
    .orderBy(asc(questionVersions.version));
}

async function historyOf(db: Db, row: QuestionRow, canRestore: boolean): Promise<QuestionHistory> {
  let stored = await storedVersions(db, row.id);
  if (stored.length === 0) {
    // Never changed: the question as it reads is its first version, the creator's.
    const [creator] = await db
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, row.creatorId));
    stored = [
      {
        version: 1,
        snapshot: snapshotOf(row),
        at: row.updatedAt,
        editorId: row.creatorId,
        editorName: creator?.username ?? null,
        restoredFrom: null,
      },
    ];
  }
  const last = stored[stored.length - 1]!.version;
  const versions: HistoryVersion[] = versionChanges(stored)
    .map((v) => ({
      version: v.version,
      at: v.at.toISOString(),
      editor: v.editorId && v.editorName ? { id: v.editorId, username: v.editorName } : null,
      restoredFrom: v.restoredFrom,
      current: v.version === last,
      changes: v.changes,
      snapshot: shown(v.snapshot),
    }))
    .reverse();
  return { questionId: row.id, canRestore, versions };
}

/** questions.history (GET /api/questions/:id/history): every version, newest first, with its changes. */
export async function questionHistory(
  db: Db,
  caller: Caller,
  questionId: string,
): Promise<QuestionHistory> {
  const { row, canRestore } = await access(db, caller, questionId);
  return historyOf(db, row, canRestore);
}

/**
 * The columns a restore writes: the version's content, validated as an edit of the question's kind
 * would be (decision 387); the question's visibility and reservation stay as they are.
 */
function restoredColumns(target: QuestionSnapshot, now: Date) {
  if (target.questionType === FLASHCARD) {
    const parsed = ZFlashcardInput.safeParse({
      front: target.text,
      back: target.back,
      category: target.category,
      part: target.part,
      year: target.year,
      source: target.source,
    });
    if (!parsed.success) throw badRequest(firstIssueMessage(parsed.error));
    checkYear(parsed.data.year, now);
    return {
      columns: {
        ...flashcardFields(parsed.data),
        explanation: target.explanation,
        generatedExplanation: target.generatedExplanation,
        number: target.number,
      },
      images: flashcardImages(parsed.data),
    };
  }
  const parsed = ZQuestionInput.safeParse({
    text: target.text,
    options: target.options,
    correctAnswer: target.correctAnswer,
    correctAnswers: target.correctAnswers,
    numCorrectAnswers: target.numCorrectAnswers,
    questionType: target.questionType,
    instructions: target.instructions,
    explanation: target.explanation,
    category: target.category,
    part: target.part,
    year: target.year,
    number: target.number,
  });
  if (!parsed.success) throw badRequest(firstIssueMessage(parsed.error));
  checkYear(parsed.data.year, now);
  return {
    columns: {
      ...storedFields(parsed.data),
      back: target.back,
      source: target.source,
      generatedExplanation: target.generatedExplanation,
    },
    images: null,
  };
}

/**
 * questions.restoreVersion (POST /api/questions/:id/history/:version/restore): the version's content
 * becomes the question's again, as a new version naming the restorer and the version restored. A
 * question keeps its kind: a flashcard's version restores a flashcard, and a version of the other kind
 * is refused by validation.
 */
export async function restoreVersion(
  db: Db,
  caller: Caller,
  input: { id: string; version: number },
  now: Date,
): Promise<RestoreResult> {
  const { row, canRestore } = await access(db, caller, input.id);
  if (!canRestore) throw forbidden(MSG.RESTORE_NOT_YOURS);
  const [stored] = await db
    .select({ snapshot: questionVersions.snapshot })
    .from(questionVersions)
    .where(
      and(eq(questionVersions.questionId, row.id), eq(questionVersions.version, input.version)),
    );
  const target = stored?.snapshot ?? (input.version === 1 ? snapshotOf(row) : null);
  if (!target) throw notFound(MSG.VERSION_NOT_FOUND);
  if (!restoreChangesSomething(snapshotOf(row), target)) throw badRequest(MSG.NOTHING_TO_RESTORE);
  if ((target.questionType === FLASHCARD) !== (row.questionType === FLASHCARD)) {
    throw badRequest(MSG.OTHER_KIND);
  }
  const { columns, images } = restoredColumns(target, now);
  await db.transaction(async (tx) => {
    await markEditor(tx, caller.id, { at: now, restoredFrom: input.version });
    await tx
      .update(questions)
      .set({ ...columns, updatedAt: now })
      .where(eq(questions.id, row.id));
    if (images) await setQuestionMedia(tx, row.id, images);
  });
  const [after] = await db.select().from(questions).where(eq(questions.id, row.id));
  return { message: MSG.RESTORED(input.version), history: await historyOf(db, after!, true) };
}
