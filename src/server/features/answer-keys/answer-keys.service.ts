import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { yearRangeError } from "../../../core/constants";
import { parseAnswerKey } from "../../../core/parsing";
import type { Db } from "../../db/client";
import { answerKeys, questions, type AnswerKeyRow } from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import { markEditor } from "../history/mark-editor";
import {
  ANSWER_KEY_MAX_ITEMS,
  ANSWER_KEY_MESSAGES,
  type AnswerKeyJson,
  type ApplyAnswerKeyResult,
} from "./answer-keys.types";

function checkYear(year: number, now: Date): void {
  const error = yearRangeError(year, now);
  if (error) throw badRequest(error);
}

/** Answers in question-number order, so exports and the review grid read naturally. */
function sortedAnswers(answers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(answers).sort((a, b) => Number(a) - Number(b))) {
    out[key] = answers[key]!;
  }
  return out;
}

export function toAnswerKeyJson(row: AnswerKeyRow): AnswerKeyJson {
  const answers = sortedAnswers(row.answers);
  return {
    _id: row.id,
    part: row.part as "1" | "2",
    year: row.year,
    answers,
    count: Object.keys(answers).length,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listAnswerKeys(db: Db, userId: string): Promise<AnswerKeyJson[]> {
  const rows = await db
    .select()
    .from(answerKeys)
    .where(eq(answerKeys.userId, userId))
    .orderBy(sql`${answerKeys.year} desc`, asc(answerKeys.part));
  return rows.map(toAnswerKeyJson);
}

export async function getAnswerKey(
  db: Db,
  userId: string,
  part: string,
  year: number,
): Promise<AnswerKeyJson | null> {
  const [row] = await db
    .select()
    .from(answerKeys)
    .where(
      and(eq(answerKeys.userId, userId), eq(answerKeys.part, part), eq(answerKeys.year, year)),
    );
  return row ? toAnswerKeyJson(row) : null;
}

/** One key per user, part and year: saving replaces (docs/product/data.md). */
export async function saveAnswerKey(
  db: Db,
  userId: string,
  input: { part: string; year: number; answers: Record<string, string> },
  now: Date,
): Promise<AnswerKeyJson> {
  checkYear(input.year, now);
  const answers = sortedAnswers(input.answers);
  const [row] = await db
    .insert(answerKeys)
    .values({ userId, part: input.part, year: input.year, answers, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [answerKeys.userId, answerKeys.part, answerKeys.year],
      set: { answers, updatedAt: now },
    })
    .returning();
  return toAnswerKeyJson(row!);
}

/** Raw key text → stored key, with the parser's warnings (numeric answers, extra sections). */
export async function importAnswerKeyText(
  db: Db,
  userId: string,
  input: { part: string; year: number; text: string },
  now: Date,
): Promise<{ key: AnswerKeyJson; warnings: string[] }> {
  checkYear(input.year, now);
  const parsed = parseAnswerKey(input.text);
  const answers: Record<string, string> = {};
  for (const [n, letter] of Object.entries(parsed.answers)) answers[n] = letter;
  if (Object.keys(answers).length === 0) throw badRequest(ANSWER_KEY_MESSAGES.EMPTY);
  if (Object.keys(answers).length > ANSWER_KEY_MAX_ITEMS) {
    throw badRequest(ANSWER_KEY_MESSAGES.TOO_MANY);
  }
  const key = await saveAnswerKey(db, userId, { ...input, answers }, now);
  return { key, warnings: parsed.warnings };
}

export async function deleteAnswerKey(
  db: Db,
  userId: string,
  part: string,
  year: number,
): Promise<void> {
  const deleted = await db
    .delete(answerKeys)
    .where(and(eq(answerKeys.userId, userId), eq(answerKeys.part, part), eq(answerKeys.year, year)))
    .returning({ id: answerKeys.id });
  if (deleted.length === 0) throw notFound(ANSWER_KEY_MESSAGES.NOT_FOUND);
}

/**
 * Sets the stored answers on the caller's own questions of that part and year, by question number,
 * in one transaction. Answered questions keep their answer unless `overwrite` (docs/product/validation.md asks before
 * overwriting; the client asks, the server obeys the flag).
 */
export async function applyAnswerKey(
  db: Db,
  userId: string,
  input: { part: string; year: number; overwrite: boolean },
  now: Date,
): Promise<ApplyAnswerKeyResult> {
  const key = await getAnswerKey(db, userId, input.part, input.year);
  if (!key) throw notFound(ANSWER_KEY_MESSAGES.NOT_FOUND);
  const numbers = Object.keys(key.answers).map(Number);
  return db.transaction(async (tx) => {
    await markEditor(tx, userId, { at: now });
    const rows = await tx
      .select({
        id: questions.id,
        number: questions.number,
        correctAnswer: questions.correctAnswer,
        questionType: questions.questionType,
      })
      .from(questions)
      .where(
        and(
          eq(questions.creatorId, userId),
          eq(questions.part, input.part),
          eq(questions.year, input.year),
          inArray(questions.number, numbers),
        ),
      )
      .for("update");
    const result: ApplyAnswerKeyResult = {
      matched: rows.length,
      applied: 0,
      kept: 0,
      skippedMultipleCorrect: 0,
    };
    const byLetter = new Map<string, string[]>();
    for (const row of rows) {
      const letter = key.answers[String(row.number)];
      if (!letter) continue;
      if (row.questionType === "multipleCorrect") {
        result.skippedMultipleCorrect++;
        continue;
      }
      if (row.correctAnswer === letter) continue;
      if (row.correctAnswer !== "" && !input.overwrite) {
        result.kept++;
        continue;
      }
      const ids = byLetter.get(letter) ?? [];
      ids.push(row.id);
      byLetter.set(letter, ids);
      result.applied++;
    }
    // One statement per letter: at most five, whatever the size of the key.
    for (const [letter, ids] of byLetter) {
      await tx
        .update(questions)
        .set({ correctAnswer: letter, correctAnswers: [letter], updatedAt: now })
        .where(inArray(questions.id, ids));
    }
    return result;
  });
}
