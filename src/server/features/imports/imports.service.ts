import { and, eq, inArray, sql } from "drizzle-orm";
import { IMPORT_LETTERS, yearRangeError } from "../../../core/constants";
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
import type { Db } from "../../db/client";
import { questions, users, type NewQuestionRow, type QuestionRow } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../../errors";
import { questionColumns, visibleTo, type QuestionJson } from "../questions/question-json";
import { isUuid, questionJsonFor } from "../study/question-access";
import type { z } from "zod";
import { numberKey, visibleBank, type VisibleBank } from "./visible-bank";
import {
  IMPORT_MESSAGES as MSG,
  ZCheckQuestion,
  type CheckDuplicatesResult,
  type CommitResult,
  type DuplicateResultJson,
  type TCommitRequest,
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
  const positions = bank.text.search(q.text, crossPart ? "" : part, MIN_FLAGGED_TEXT_SIMILARITY);
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

  const positionsOf = incoming.map((q) =>
    // Questions without text are never duplicates (SPEC §5): nothing to look up.
    similarityKey(q.text) === "" ? [] : candidatePositions(bank, q, crossPart),
  );
  const checks = bank.scorer.score(incoming, positionsOf, { crossPart });

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

function validateItems(input: TCommitRequest, now: Date): (TBulkQuestionItem | null)[] {
  return input.items.map((item, index) => {
    if (item.action === "skip") return null;
    const prefix = itemPrefix(index, item.question);
    const parsed = ZBulkQuestionItem.safeParse(item.question);
    if (!parsed.success) throw badRequest(prefix + firstIssueMessage(parsed.error));
    const yearError = yearRangeError(parsed.data.year, now);
    if (yearError) throw badRequest(prefix + yearError);
    return parsed.data;
  });
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

  const savedIds = await db.transaction(async (tx) => {
    const order: (string | null)[] = new Array<string | null>(items.length).fill(null);

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
      const state = new Map<string, Content>();
      for (const i of mergeIndexes) {
        const action = input.items[i]!.action as TMergeAction;
        const target = byId.get(action.targetId);
        if (!target) throw notFound(MSG.NOT_FOUND);
        if (target.creatorId !== userId) throw forbidden(MSG.MERGE_OTHERS);
        const merged = mergeContent(state.get(target.id) ?? contentOf(target), items[i]!, action);
        const problem = contentProblem(merged);
        if (problem) throw badRequest(itemPrefix(i, input.items[i]!.question) + problem);
        state.set(target.id, merged);
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
      }));
      for (let start = 0; start < updates.length; start += COMMIT_CHUNK) {
        await tx.execute(sql`
          update questions q set
            text = v.text, options = v.options, correct_answer = v.correct_answer,
            correct_answers = v.correct_answers, num_correct_answers = v.num_correct_answers,
            question_type = v.question_type, category = v.category, part = v.part, year = v.year,
            number = v.number, explanation = v.explanation, updated_at = ${now.toISOString()}::timestamptz
          from jsonb_to_recordset(${JSON.stringify(updates.slice(start, start + COMMIT_CHUNK))}::jsonb)
            as v(id uuid, text text, options jsonb, correct_answer text, correct_answers text[],
                 num_correct_answers int, question_type text, category text, part text, year int,
                 number int, explanation text)
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
          const item = items[i]!;
          return {
            creatorId: userId,
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
            createdAt: new Date(now.getTime() + start + k),
            updatedAt: now,
          };
        });
        const inserted = await tx.insert(questions).values(values).returning({ id: questions.id });
        chunk.forEach((i, k) => {
          order[i] = inserted[k]!.id;
        });
      }
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
    errors: [],
    questions: savedIds.flatMap((id) => json.get(id) ?? []),
  };
}
