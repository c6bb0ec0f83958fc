/**
 * One question (read, create, edit, delete; flashcards too) and the bulk save of POST /questions/bulk.
 */
import { and, eq, inArray } from "drizzle-orm";
import { FLASHCARD, yearRangeError } from "../../../core/constants";
import { imageHashes } from "../../../core/media";
import {
  firstIssueMessage,
  isUuid,
  ZBulkQuestionItem,
  ZQuestionInput,
  type TBulkQuestionItem,
  type TQuestionInput,
  type TQuestionInputPayload,
} from "../../../core/schemas";
import {
  ZFlashcardInput,
  type TFlashcardInput,
  type TFlashcardInputPayload,
} from "../../../core/schemas/flashcard";
import type { QuestionVisibility } from "../../../core/visibility";
import type { Db } from "../../db/client";
import { questions, users, type NewQuestionRow } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../../errors";
import { markEditor } from "../history/mark-editor";
import { setQuestionMedia } from "../media/media.service";
import { loadQuestionsJson } from "./question-access";
import {
  questionColumns,
  toQuestionJson,
  visibleTo,
  type CreatorInfo,
  type QuestionJson,
  type StoredQuestion,
} from "./question-json";
import {
  editedVisibility,
  newQuestionVisibility,
  writerOf,
  type VisibilityWrite,
} from "./visibility.service";
import { QUESTION_MESSAGES_SERVER as MSG, type TBulkCreateRequest } from "./questions.types";

/** Rows per INSERT: 14 columns × 500 stays far below PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 500;

// ---------------------------------------------------------------------------------------------------
// One question

async function findVisible(db: Db, viewerId: string, id: string): Promise<StoredQuestion | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select(questionColumns)
    .from(questions)
    .where(and(eq(questions.id, id), visibleTo(viewerId)));
  return row ?? null;
}

/**
 * The question if the caller created it. Another user's private question is indistinguishable from a
 * missing one (404); another user's public question is visible but not theirs to change (403).
 */
async function requireOwn(
  db: Db,
  userId: string,
  id: string,
  forbiddenMessage: string,
): Promise<StoredQuestion> {
  const row = await findVisible(db, userId, id);
  if (!row) throw notFound(MSG.NOT_FOUND);
  if (row.creatorId !== userId) throw forbidden(forbiddenMessage);
  return row;
}

export async function getQuestion(db: Db, viewerId: string, id: string): Promise<QuestionJson> {
  if (!isUuid(id)) throw notFound(MSG.NOT_FOUND);
  const [json] = await loadQuestionsJson(db, viewerId, [id]);
  if (!json) throw notFound(MSG.NOT_FOUND);
  return json;
}

export function checkYear(year: number, now: Date, prefix = ""): void {
  const error = yearRangeError(year, now);
  if (error) throw badRequest(prefix + error);
}

/** The creator as question JSON names them; 'Public Profile' also decides a new question's default. */
async function creatorInfo(db: Db, userId: string): Promise<CreatorInfo | null> {
  const [row] = await db
    .select({ username: users.username, publicProfile: users.publicProfile })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

export function storedFields(input: TQuestionInput) {
  return {
    text: input.text,
    options: input.options,
    correctAnswer: input.correctAnswer,
    correctAnswers: input.correctAnswers,
    numCorrectAnswers: input.numCorrectAnswers,
    questionType: input.questionType,
    instructions: input.instructions,
    explanation: input.explanation,
    category: input.category,
    part: input.part,
    year: input.year,
    number: input.number,
  };
}

export async function createQuestion(
  db: Db,
  userId: string,
  input: TQuestionInput,
  now: Date,
): Promise<QuestionJson> {
  checkYear(input.year, now);
  const creator = await creatorInfo(db, userId);
  const shared = newQuestionVisibility(await writerOf(db, userId), input);
  // The answer is built from the inserted row: no statement follows the insert, so a failure after it
  // (PostgreSQL going away) cannot report a saved question as not saved (bench/pg-outage.ts).
  const [row] = await db
    .insert(questions)
    .values({
      ...storedFields(input),
      creatorId: userId,
      ...shared,
      byHand: true,
      createdAt: now,
      updatedAt: now,
    })
    .returning(questionColumns);
  return toQuestionJson(row!, { viewerId: userId, creator, studyState: null });
}

/** What a flashcard sets on its row: front in `text`, no options and no answer key (issue 17). */
export function flashcardFields(input: TFlashcardInput) {
  return {
    text: input.front,
    back: input.back,
    options: {},
    correctAnswer: "",
    correctAnswers: [],
    numCorrectAnswers: 1,
    questionType: FLASHCARD,
    instructions: "",
    category: input.category,
    part: input.part,
    year: input.year,
    source: input.source,
  };
}

/** The images a flashcard shows: those of its front, then those of its back. */
export const flashcardImages = (input: TFlashcardInput) => [
  ...imageHashes(input.front),
  ...imageHashes(input.back),
];

/**
 * questions.createFlashcard (POST /questions with questionType 'flashcard'): front and back arrive
 * sanitized by ZFlashcardInput; the row and the images it shows are written in one transaction, and an
 * image that was never uploaded is refused (decision 230).
 */
export async function createFlashcard(
  db: Db,
  userId: string,
  input: TFlashcardInput,
  now: Date,
): Promise<QuestionJson> {
  checkYear(input.year, now);
  const id = await db.transaction(async (tx) => {
    const shared = newQuestionVisibility(await writerOf(tx, userId), input);
    const [row] = await tx
      .insert(questions)
      .values({
        ...flashcardFields(input),
        creatorId: userId,
        ...shared,
        byHand: true,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: questions.id });
    await setQuestionMedia(tx, row!.id, flashcardImages(input));
    return row!.id;
  });
  return getQuestion(db, userId, id);
}

function toFlashcardPayload(row: StoredQuestion): TFlashcardInputPayload {
  return {
    front: row.text,
    back: row.back,
    category: row.category,
    part: row.part,
    year: row.year,
    source: row.source,
    isPublic: row.isPublic,
  };
}

/**
 * A flashcard's edit: the given fields (`front`, or `text` as the question JSON names it, `back`,
 * category, part, year, source, isPublic) over the stored card, validated as a whole.
 */
async function updateFlashcard(
  db: Db,
  userId: string,
  row: StoredQuestion,
  data: Record<string, unknown>,
  now: Date,
): Promise<QuestionJson> {
  const given = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
  if (given.front === undefined && given.text !== undefined) given.front = given.text;
  const allowed = [
    "front",
    "back",
    "category",
    "part",
    "year",
    "source",
    "isPublic",
    "visibility",
    "shareStatement",
  ] as const;
  const changes = Object.fromEntries(allowed.flatMap((k) => (k in given ? [[k, given[k]]] : [])));
  const parsed = ZFlashcardInput.safeParse({ ...toFlashcardPayload(row), ...changes });
  if (!parsed.success) throw badRequest(firstIssueMessage(parsed.error));
  checkYear(parsed.data.year, now);
  const shared = editedVisibility(await writerOf(db, userId), row, {
    visibility: parsed.data.visibility,
    isPublic: "isPublic" in changes ? parsed.data.isPublic : undefined,
    shareStatement: parsed.data.shareStatement,
  });
  await db.transaction(async (tx) => {
    await markEditor(tx, userId, { at: now });
    await tx
      .update(questions)
      .set({
        ...flashcardFields(parsed.data),
        ...shared,
        updatedAt: now,
      })
      .where(and(eq(questions.id, row.id), eq(questions.creatorId, userId)));
    await setQuestionMedia(tx, row.id, flashcardImages(parsed.data));
  });
  return getQuestion(db, userId, row.id);
}

/**
 * The stored question as an edit's starting point. The stored type is only text to the database: the
 * schema checks it with the rest when the edit is validated.
 */
function toPayload(
  row: StoredQuestion,
): Omit<TQuestionInputPayload, "questionType"> & { questionType: string } {
  return {
    text: row.text,
    options: row.options,
    correctAnswer: row.correctAnswer,
    correctAnswers: row.correctAnswers,
    numCorrectAnswers: row.numCorrectAnswers,
    questionType: row.questionType,
    instructions: row.instructions,
    explanation: row.explanation,
    category: row.category,
    part: row.part,
    year: row.year,
    number: row.number,
    isPublic: row.isPublic,
  };
}

/**
 * PUT /questions/{id}: the given fields over the stored question, validated as a whole with the rules
 * in docs/product/validation.md 'Edit question'. Only the creator may change a question.
 */
export async function updateQuestion(
  db: Db,
  userId: string,
  id: string,
  data: Partial<TQuestionInputPayload>,
  now: Date,
): Promise<QuestionJson> {
  const row = await requireOwn(db, userId, id, MSG.EDIT_OTHERS);
  // A flashcard stays a flashcard: its own fields and rules (issue 17).
  if (row.questionType === FLASHCARD) return updateFlashcard(db, userId, row, data, now);
  const given: Partial<TQuestionInputPayload> = Object.fromEntries(
    Object.entries(data).filter(([, v]) => v !== undefined),
  );
  // The answer fields travel together: a new single answer replaces the stored list and vice versa.
  if (given.correctAnswer !== undefined && given.correctAnswers === undefined) {
    given.correctAnswers = [];
  } else if (given.correctAnswers !== undefined && given.correctAnswer === undefined) {
    given.correctAnswer = "";
  }
  const parsed = ZQuestionInput.safeParse({ ...toPayload(row), ...given });
  if (!parsed.success) throw badRequest(firstIssueMessage(parsed.error));
  checkYear(parsed.data.year, now);
  const shared = editedVisibility(await writerOf(db, userId), row, {
    visibility: parsed.data.visibility,
    isPublic: given.isPublic,
    shareStatement: parsed.data.shareStatement,
  });
  // In a transaction: the version the edit records names its editor (decision 385).
  await db.transaction(async (tx) => {
    await markEditor(tx, userId, { at: now });
    await tx
      .update(questions)
      .set({
        ...storedFields(parsed.data),
        ...shared,
        updatedAt: now,
      })
      .where(and(eq(questions.id, row.id), eq(questions.creatorId, userId)));
  });
  return getQuestion(db, userId, row.id);
}

export async function deleteQuestion(
  db: Db,
  userId: string,
  id: string,
): Promise<{ message: string }> {
  const row = await requireOwn(db, userId, id, MSG.DELETE_OTHERS);
  await db.delete(questions).where(and(eq(questions.id, row.id), eq(questions.creatorId, userId)));
  return { message: MSG.DELETED };
}

// ---------------------------------------------------------------------------------------------------
// Bulk

/** 'Item 3 (question 12): …' — which item of the request a message is about. */
export function itemPrefix(index: number, raw: unknown): string {
  const n = (raw as { number?: unknown } | null)?.number;
  const number = typeof n === "number" || (typeof n === "string" && n.trim() !== "") ? n : null;
  return number === null ? `Item ${index + 1}: ` : `Item ${index + 1} (question ${number}): `;
}

const blank = (v: unknown) => v === undefined || v === null || v === "";

/**
 * Validates every item (with the request's part and year as defaults, and the current year when neither
 * says, as the import screens default it: docs/product/constants.md) before anything is written; the first bad item fails
 * the whole request with a message naming it.
 */
export function validateBulkItems(req: TBulkCreateRequest, now: Date): TBulkQuestionItem[] {
  const defaultYear = blank(req.year) ? now.getFullYear() : req.year;
  return req.questions.map((raw, index) => {
    const withDefaults = {
      ...raw,
      part: blank(raw.part) ? (req.part ?? undefined) : raw.part,
      year: blank(raw.year) ? defaultYear : raw.year,
      isPublic: raw.isPublic ?? req.isPublic,
    };
    const parsed = ZBulkQuestionItem.safeParse(withDefaults);
    const prefix = itemPrefix(index, raw);
    if (!parsed.success) throw badRequest(prefix + firstIssueMessage(parsed.error));
    checkYear(parsed.data.year, now, prefix);
    return parsed.data;
  });
}

/**
 * What a bulk item sets on a question: A-E options with at most one answer. A merge that changes the
 * question's type (a multipleCorrect question becomes standard) clears the old type's instructions.
 */
function bulkFields(item: TBulkQuestionItem, previousType?: string) {
  const questionType =
    previousType === "fourOptions" && item.options.E === undefined ? "fourOptions" : "standard";
  return {
    ...(previousType !== undefined && previousType !== questionType ? { instructions: "" } : {}),
    text: item.text,
    options: item.options,
    correctAnswer: item.correctAnswer,
    correctAnswers: item.correctAnswer === "" ? [] : [item.correctAnswer],
    numCorrectAnswers: 1,
    questionType,
    category: item.category,
    part: item.part,
    year: item.year,
    number: item.number,
    explanation: item.explanation,
  };
}

/**
 * POST /questions/bulk: saves every item in one transaction and returns the saved questions in request
 * order. Items with an `_id` are merged into that question, which must be the caller's own (docs/product/product-decisions.md).
 */
export async function bulkCreateQuestions(
  db: Db,
  userId: string,
  req: TBulkCreateRequest,
  now: Date,
): Promise<QuestionJson[]> {
  const items = validateBulkItems(req, now);
  const ids = await db.transaction(async (tx) => {
    await markEditor(tx, userId, { at: now });
    const writer = await writerOf(tx, userId);
    // Parsed by ZBulkCreateRequest (the router's input): the output types.
    const level = req.visibility as QuestionVisibility | undefined;
    const statement = req.shareStatement as string | undefined;
    // The request's level (docs/product/visibility.md); an item's own isPublic still wins.
    const requested = { visibility: level, shareStatement: statement };
    const fallback = newQuestionVisibility(writer, { ...requested, isPublic: req.isPublic });
    const ofItem = (item: TBulkQuestionItem): VisibilityWrite =>
      item.isPublic === undefined || level !== undefined
        ? fallback
        : newQuestionVisibility(writer, { isPublic: item.isPublic });
    const savedIds: string[] = new Array<string>(items.length);

    const mergeIndexes = items.flatMap((item, i) => (item._id ? [i] : []));
    if (mergeIndexes.length > 0) {
      const targetIds = [...new Set(mergeIndexes.map((i) => items[i]!._id!))];
      const targets = await tx
        .select({
          id: questions.id,
          creatorId: questions.creatorId,
          type: questions.questionType,
          isPublic: questions.isPublic,
          programId: questions.programId,
          reserved: questions.reserved,
          shareStatement: questions.shareStatement,
        })
        .from(questions)
        .where(and(inArray(questions.id, targetIds), visibleTo(userId)));
      const byId = new Map(targets.map((t) => [t.id, t]));
      for (const i of mergeIndexes) {
        const item = items[i]!;
        const target = byId.get(item._id!);
        const prefix = itemPrefix(i, req.questions[i]);
        if (!target) throw notFound(prefix + MSG.NOT_FOUND);
        if (target.creatorId !== userId) throw forbidden(prefix + MSG.EDIT_OTHERS);
        if (target.type === FLASHCARD) throw badRequest(prefix + MSG.MERGE_FLASHCARD);
        await tx
          .update(questions)
          .set({
            ...bulkFields(item, target.type),
            ...editedVisibility(writer, target, {
              visibility: level,
              isPublic: item.isPublic,
              shareStatement: statement,
            }),
            updatedAt: now,
          })
          .where(eq(questions.id, target.id));
        savedIds[i] = target.id;
      }
    }

    const newIndexes = items.flatMap((item, i) => (item._id ? [] : [i]));
    for (let start = 0; start < newIndexes.length; start += INSERT_CHUNK) {
      const chunk = newIndexes.slice(start, start + INSERT_CHUNK);
      const values: NewQuestionRow[] = chunk.map((i, k) => {
        const item = items[i]!;
        return {
          ...bulkFields(item),
          creatorId: userId,
          ...ofItem(item),
          // Captured by hand (the paste capture saves here): studyable the day it is written.
          byHand: true,
          // Distinct, increasing times keep the request's order in the newest-first list.
          createdAt: new Date(now.getTime() + start + k),
          updatedAt: now,
        };
      });
      const inserted = await tx.insert(questions).values(values).returning({ id: questions.id });
      chunk.forEach((i, k) => {
        savedIds[i] = inserted[k]!.id;
      });
    }
    return savedIds;
  });
  return loadQuestionsJson(db, userId, ids);
}
