import { and, eq, inArray, sql } from "drizzle-orm";
import { FLASHCARD, IMPORT_LETTERS, yearRangeError } from "../../../core/constants";
import {
  QUESTION_MESSAGES,
  ZBulkQuestionItem,
  answerWithoutTextMessage,
  firstIssueMessage,
  type TBulkQuestionItem,
} from "../../../core/schemas";
import {
  MIN_FLAGGED_TEXT_SIMILARITY,
  mergeQuestion,
  similarityKey,
  type DuplicateQuestion,
  type ManualMergeField,
} from "../../../core/similarity";
import { flashcardHtml, imageHashes } from "../../../core/media";
import { studyStateFromAnki } from "../../../core/import/anki/progress";
import type { Db } from "../../db/client";
import {
  questionMedia,
  questions,
  studyStates,
  users,
  type NewQuestionRow,
  type QuestionRow,
} from "../../db/schema";
import { badRequest, forbidden, notFound } from "../../errors";
import { questionColumns, visibleTo, type QuestionJson } from "../questions/question-json";
import { storedHashes } from "../media/media.service";
import { isUuid, questionJsonFor } from "../study/question-access";
import type { z } from "zod";
import {
  FLASHCARD_DUPLICATE_SIMILARITY,
  scoreFlashcardCandidates,
} from "../../../core/similarity/flashcards";
import { numberKey, textGroup, visibleBank, type VisibleBank } from "./visible-bank";
import {
  IMPORT_MESSAGES as MSG,
  ZCheckQuestion,
  ZFlashcardItem,
  ZImportExtras,
  type TFlashcardItem,
  type TImportExtras,
  type CheckDuplicatesResult,
  type CommitResult,
  type DuplicateResultJson,
  type TCommitRequest,
  type TImportProgress,
  type TMergeAction,
} from "./imports.types";

// ---------------------------------------------------------------------------------------------------
// Duplicate check

type CheckQuestion = z.output<typeof ZCheckQuestion>;

/** The incoming question as the core reference reads it (null options dropped). */
export function toDuplicateQuestion(q: CheckQuestion): DuplicateQuestion {
  const options: Record<string, string> = {};
  for (const [letter, text] of Object.entries(q.options ?? {})) {
    if (typeof text === "string") options[letter.trim().toUpperCase()] = text;
  }
  const out: DuplicateQuestion = {
    text: q.text,
    options,
    part: q.part ?? null,
    year: q.year ?? null,
    number: q.number ?? null,
  };
  if (q._id) out._id = q._id;
  return out;
}

const label = (v: unknown): string =>
  typeof v === "number" && Number.isFinite(v) ? String(v) : typeof v === "string" ? v.trim() : "";

/** Whole numbers only: the database columns are integers, and the reference compares exactly. */
function wholeNumber(v: unknown): number | null {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isSafeInteger(n) && Math.abs(n) < 2 ** 31 ? n : null;
}

/** Same text and options, ignoring case and whitespace (and the same part unless crossPart). */
function repeatKey(q: DuplicateQuestion, crossPart: boolean): string | null {
  const text = similarityKey(q.text);
  if (text === "") return null;
  const options = IMPORT_LETTERS.map((l) => similarityKey(q.options[l]));
  return [crossPart ? "" : label(q.part), text, ...options].join("\u0000");
}

/**
 * Positions (in the visible bank) worth scoring for one incoming question: every text similar enough
 * to make a flagged duplicate (exact, so flags and best matches are the reference's), and every
 * question with the same part, year and number.
 */
function candidatePositions(bank: VisibleBank, q: DuplicateQuestion, crossPart: boolean): number[] {
  const part = label(q.part);
  const positions = bank.text.search(
    q.text,
    textGroup(part, crossPart, null),
    MIN_FLAGGED_TEXT_SIMILARITY,
  );
  const year = /^\d+$/.test(label(q.year)) ? wholeNumber(label(q.year)) : null;
  const number = wholeNumber(q.number);
  if (year !== null && number !== null) {
    const same = bank.byNumber.get(numberKey(part, year, number));
    if (same) return [...new Set([...positions, ...same])];
  }
  return positions;
}

/** Question JSON for the ids, keyed by id (ids the viewer may not see are left out). */
async function questionJsonById(
  db: Db,
  viewerId: string,
  ids: string[],
): Promise<Map<string, QuestionJson>> {
  const out = new Map<string, QuestionJson>();
  for (let start = 0; start < ids.length; start += 5000) {
    const rows = await db
      .select(questionColumns)
      .from(questions)
      .where(and(inArray(questions.id, ids.slice(start, start + 5000)), visibleTo(viewerId)));
    // toQuestionJson never reads the search column.
    for (const json of await questionJsonFor(db, viewerId, rows as QuestionRow[])) {
      out.set(json._id, json);
    }
  }
  return out;
}

/**
 * imports.checkDuplicates: each incoming question against every question the user may see (own and
 * public, never another user's private one), with the results of the core reference
 * (`DuplicateScorer`) on the candidates the visible bank's indexes find. Read-only.
 */
export async function checkDuplicates(
  db: Db,
  userId: string,
  input: { questions: CheckQuestion[]; crossPart?: boolean },
): Promise<CheckDuplicatesResult> {
  const crossPart = input.crossPart ?? false;
  const incoming = input.questions.map(toDuplicateQuestion);
  const bank = await visibleBank(db, userId, crossPart);

  const isFlashcard = input.questions.map((q) => q.questionType === FLASHCARD);
  const positionsOf = incoming.map((q, i) =>
    // Questions without text are never duplicates (SPEC §5): nothing to look up. Flashcards are
    // scored apart, by front text against flashcards (decision 240).
    similarityKey(q.text) === "" || isFlashcard[i] ? [] : candidatePositions(bank, q, crossPart),
  );
  const checks = bank.scorer.score(incoming, positionsOf, { crossPart });
  incoming.forEach((q, i) => {
    if (!isFlashcard[i] || similarityKey(q.text) === "") return;
    const group = textGroup(label(q.part), crossPart, FLASHCARD);
    const found = bank.text.search(q.text, group, FLASHCARD_DUPLICATE_SIMILARITY);
    checks[i] = scoreFlashcardCandidates(
      q,
      found.map((p) => bank.questions[p]!),
      { crossPart },
    ) as (typeof checks)[number];
  });

  const seen = new Map<string, number>();
  const scored = incoming.map((q, index) => {
    const key = repeatKey(q, crossPart);
    let repeatOf: number | null = null;
    if (key !== null) {
      repeatOf = seen.get(key) ?? null;
      if (repeatOf === null) seen.set(key, index);
    }
    return { index, repeatOf, check: checks[index]! };
  });

  const matchedIds = [...new Set(scored.flatMap((s) => s.check.matches.map((m) => m.question.id)))];
  const json = await questionJsonById(db, userId, matchedIds);
  const results: DuplicateResultJson[] = scored.map(({ index, repeatOf, check }) => ({
    index,
    isDuplicate: check.isDuplicate,
    repeatOf,
    matches: check.matches.flatMap((m) => {
      const question = json.get(m.question.id);
      if (!question) return [];
      return [
        {
          question,
          similarity: {
            ...m.similarity,
            mergeStrategy: m.similarity.mergeStrategy === "metadata" ? "metadata" : "newer",
          },
          canMerge: m.question.creatorId === userId,
        },
      ];
    }),
  }));
  return { results };
}

// ---------------------------------------------------------------------------------------------------
// Commit

/** Rows per INSERT/UPDATE statement: 16 columns × 1000 stays far below PostgreSQL's 65,535 parameters. */
export const COMMIT_CHUNK = 1000;

/** 'Item 3 (question 12): …' — which item of the request a message is about. */
function itemPrefix(index: number, raw: unknown): string {
  const n = (raw as { number?: unknown } | null)?.number;
  const number = typeof n === "number" || (typeof n === "string" && n.trim() !== "") ? n : null;
  return number === null ? `Item ${index + 1}: ` : `Item ${index + 1} (question ${number}): `;
}

/** The content of a stored question that a merge may change. */
interface Content {
  text: string;
  options: Record<string, string>;
  correctAnswer: string;
  correctAnswers: string[];
  numCorrectAnswers: number;
  questionType: string;
  category: string;
  part: string;
  year: number;
  number: number | null;
  explanation: string;
}

type Target = Omit<QuestionRow, "searchText">;

function contentOf(row: Target): Content {
  return {
    text: row.text,
    options: row.options,
    correctAnswer: row.correctAnswer,
    correctAnswers: row.correctAnswers,
    numCorrectAnswers: row.numCorrectAnswers,
    questionType: row.questionType,
    category: row.category,
    part: row.part,
    year: row.year,
    number: row.number,
    explanation: row.explanation,
  };
}

/** What an incoming question carries: blanks are "not given", so a merge never erases with them. */
function carried(item: TBulkQuestionItem): Partial<TBulkQuestionItem> {
  const out: Partial<TBulkQuestionItem> = { text: item.text, options: item.options };
  if (item.correctAnswer !== "") out.correctAnswer = item.correctAnswer;
  if (item.category !== "") out.category = item.category;
  if (item.explanation !== "") out.explanation = item.explanation;
  if (item.number !== null) out.number = item.number;
  out.part = item.part;
  out.year = item.year;
  return out;
}

/**
 * SPEC §4 merge outcomes through the core `mergeQuestion`, then the answer fields brought in step with
 * the question type: a 'newer' merge takes the incoming content, which is a single-answer question
 * with options A-E.
 */
export function mergeContent(
  current: Content,
  item: TBulkQuestionItem,
  action: TMergeAction,
): Content {
  const existing = current as unknown as DuplicateQuestion;
  if (action.merge === "newer") {
    const merged = mergeQuestion(
      existing,
      carried(item) as DuplicateQuestion,
      "newer",
    ) as unknown as Content;
    const letter = merged.options[merged.correctAnswer] !== undefined ? merged.correctAnswer : "";
    return {
      ...merged,
      questionType:
        current.questionType === "fourOptions" && merged.options.E === undefined
          ? "fourOptions"
          : "standard",
      correctAnswer: letter,
      correctAnswers: letter === "" ? [] : [letter],
      numCorrectAnswers: 1,
    };
  }
  if (action.merge === "metadata") {
    return mergeQuestion(
      existing,
      item as unknown as DuplicateQuestion,
      "metadata",
    ) as unknown as Content;
  }
  const fields = (action.fields ?? []) as ManualMergeField[];
  const merged = mergeQuestion(
    existing,
    item as unknown as DuplicateQuestion,
    "manual",
    fields,
  ) as unknown as Content;
  if (current.questionType === "multipleCorrect") {
    return { ...merged, correctAnswer: "" };
  }
  const letter = merged.correctAnswer;
  return {
    ...merged,
    questionType:
      current.questionType === "fourOptions" && merged.options.E !== undefined
        ? "standard"
        : current.questionType,
    correctAnswers: letter === "" ? [] : [letter],
    numCorrectAnswers: 1,
  };
}

/** What a merge may break: the manual choice of fields can drop an option an answer points at. */
function contentProblem(c: Content): string | null {
  if (c.text.trim() === "") return QUESTION_MESSAGES.TEXT_REQUIRED;
  if (c.options.A === undefined || c.options.B === undefined) {
    return QUESTION_MESSAGES.OPTIONS_REQUIRED;
  }
  for (const letter of c.correctAnswers) {
    if (c.options[letter] === undefined) return answerWithoutTextMessage(letter);
  }
  return null;
}

/** 'Public Profile' decides whether new questions are public when the request does not say. */
async function profileDefaultPublic(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ publicProfile: users.publicProfile })
    .from(users)
    .where(eq(users.id, userId));
  return row?.publicProfile ?? false;
}

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

/** What a flashcard merge changes: its front, back and metadata (decision 240). */
function mergeFlashcard(
  current: Content & Extra,
  item: TFlashcardItem,
  source: string,
  action: TMergeAction,
): Content & Extra {
  const meta = {
    category: item.category !== "" ? item.category : current.category,
    part: item.part,
    year: item.year,
  };
  const content = { text: item.text, back: item.back };
  if (action.merge === "newer") {
    return { ...current, ...meta, ...content, source: source || current.source };
  }
  if (action.merge === "metadata") {
    return {
      ...current,
      category: current.category || item.category,
      part: item.part,
      year: item.year,
      source: current.source || source,
    };
  }
  const fields = new Set(action.fields ?? []);
  return {
    ...current,
    ...(fields.has("text") ? content : {}),
    ...(fields.has("category") ? { category: item.category } : {}),
    ...(fields.has("part") ? { part: item.part } : {}),
    ...(fields.has("year") ? { year: item.year } : {}),
  };
}

/** Whether a merge takes the incoming question's content (so its images too). */
function takesContent(action: TMergeAction): boolean {
  return (
    action.merge === "newer" ||
    (action.merge === "manual" && (action.fields ?? []).includes("text"))
  );
}

interface Extra {
  back: string;
  source: string;
}

/**
 * imports.commit: creates, merges and skips in one transaction. Any bad item, or a merge into a
 * question the caller did not create (403) or cannot see (404), fails the whole commit and nothing is
 * written. Creates are inserted in multi-row statements, merges updated in batches.
 */
export async function commitImport(
  db: Db,
  userId: string,
  input: TCommitRequest,
  now: Date,
): Promise<CommitResult> {
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

    // Creates: multi-row inserts.
    const createIndexes = input.items.flatMap((item, i) => (item.action === "create" ? [i] : []));
    if (createIndexes.length > 0) {
      const fallbackPublic = input.isPublic ?? (await profileDefaultPublic(tx, userId));
      for (let start = 0; start < createIndexes.length; start += COMMIT_CHUNK) {
        const chunk = createIndexes.slice(start, start + COMMIT_CHUNK);
        const values: NewQuestionRow[] = chunk.map((i, k) => {
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
              isPublic: card.isPublic ?? fallbackPublic,
              createdAt,
              updatedAt: now,
            };
          }
          const item = valid.item;
          return {
            creatorId: userId,
            source: valid.extras.source,
            text: item.text,
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
            isPublic: item.isPublic ?? fallbackPublic,
            // Distinct, increasing times keep the file's order in the newest-first list.
            createdAt,
            updatedAt: now,
          };
        });
        const inserted = await tx.insert(questions).values(values).returning({ id: questions.id });
        chunk.forEach((i, k) => {
          const id = inserted[k]!.id;
          order[i] = id;
          const extras = items[i]!.extras;
          if (extras.images.length > 0) newImages.set(id, extras.images);
          if (extras.progress) progressOf.set(id, extras.progress);
        });
      }
    }

    await saveImages(tx, newImages);
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
 * question (decision 241). A question the importer already studies keeps its own state: this app's
 * review log stays the truth for it.
 */
async function saveProgress(
  tx: Db,
  userId: string,
  progress: Map<string, TImportProgress>,
  now: Date,
): Promise<number> {
  const rows = [...progress].map(([questionId, p]) => {
    const s = studyStateFromAnki({ ...p, suspended: p.suspended ?? false }, now);
    return {
      userId,
      questionId,
      easeFactor: s.easeFactor,
      intervalDays: s.intervalDays,
      repetitions: s.repetitions,
      lapses: s.lapses,
      dueAt: s.dueAt,
      lastReviewedAt: s.lastReviewedAt,
    };
  });
  let written = 0;
  for (let start = 0; start < rows.length; start += COMMIT_CHUNK) {
    const inserted = await tx
      .insert(studyStates)
      .values(rows.slice(start, start + COMMIT_CHUNK))
      .onConflictDoNothing()
      .returning({ questionId: studyStates.questionId });
    written += inserted.length;
  }
  return written;
}
