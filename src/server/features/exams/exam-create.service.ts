/** Creating a practice exam (issue 16): the caller's pool and blueprint, drawn with a stored seed. */
import crypto from "node:crypto";
import { and, eq, exists, inArray, ne, notExists, sql, type SQL } from "drizzle-orm";
import { FLASHCARD } from "../../../core/constants";
import { drawBlueprint, MAX_SEED, type ExamPart, type ExamPool } from "../../../core/exams";
import type { TCreateExamRequest } from "../../../core/schemas/exam";
import { categoryLabel } from "../../../core/stats";
import type { Db } from "../../db/client";
import {
  examAnswers,
  examQuestions,
  exams,
  hasAnswerKey,
  questions,
  reviews,
  type ExamRow,
} from "../../db/schema";
import { badRequest } from "../../errors";
import { visibleTo } from "../questions/question-json";
import { examView } from "./exam-answers.service";
import { EXAM_ERRORS, type ExamView } from "./exams.service";

/** The stored categories a chosen label stands for ('Uncategorized' is also the empty category). */
function storedCategories(labels: readonly string[]): string[] {
  const out = new Set<string>();
  for (const label of labels) {
    const name = categoryLabel(label);
    out.add(name);
    if (name === categoryLabel("")) out.add("");
  }
  return [...out];
}

/**
 * Question filters every exam applies: multiple choice with an answer key (flashcards never enter an
 * exam, issue 17), the part, the categories.
 */
export function settingsFilter(settings: { part: ExamPart; categories: readonly string[] }) {
  return and(
    hasAnswerKey(questions),
    ne(questions.questionType, FLASHCARD),
    settings.part === "both" ? undefined : eq(questions.part, settings.part),
    settings.categories.length > 0
      ? inArray(questions.category, storedCategories(settings.categories))
      : undefined,
  );
}

/** The caller's pool choice as a condition on `questions` (issue 16: unused / incorrect / flagged / all). */
function poolFilter(userId: string, pool: ExamPool) {
  switch (pool) {
    case "all":
      return undefined;
    case "unused":
      // Never answered in study, never in one of the caller's exams.
      return and(
        notExists(
          sql`(select 1 from ${reviews} where ${reviews.userId} = ${userId} and ${reviews.questionId} = ${questions.id})`,
        ),
        notExists(
          sql`(select 1 from ${examQuestions} join ${exams} on ${exams.id} = ${examQuestions.examId}
               where ${exams.userId} = ${userId} and ${examQuestions.questionId} = ${questions.id})`,
        ),
      );
    case "incorrect":
      // The caller's latest answer to it, in study or an exam, was wrong.
      return sql`(
        select x.is_correct from (
          select ${reviews.isCorrect} as is_correct, ${reviews.reviewedAt} as at from ${reviews}
          where ${reviews.userId} = ${userId} and ${reviews.questionId} = ${questions.id}
          union all
          select ${examAnswers.isCorrect}, ${examAnswers.answeredAt} from ${examAnswers}
          where ${examAnswers.userId} = ${userId} and ${examAnswers.questionId} = ${questions.id}
            and ${examAnswers.answeredAt} is not null and cardinality(${examAnswers.selected}) > 0
        ) x order by x.at desc limit 1
      ) = false`;
    case "flagged":
      return exists(
        sql`(select 1 from ${examAnswers} where ${examAnswers.userId} = ${userId}
             and ${examAnswers.questionId} = ${questions.id} and ${examAnswers.flagged})`,
      );
  }
}

/** Eligible question ids by category label. */
export async function eligiblePool(db: Db, where: SQL | undefined): Promise<Map<string, string[]>> {
  // One row per category with its ids: 50,000 eligible questions arrive as 34 rows, not 50,000.
  const rows = await db
    .select({
      category: questions.category,
      // In id order, which is also the text order of their lower-case hex: the draw then need not sort.
      ids: sql<string[]>`array_agg(${questions.id}::text order by ${questions.id})`,
    })
    .from(questions)
    .where(where)
    .groupBy(questions.category);
  const pool = new Map<string, string[]>();
  for (const row of rows) {
    const label = categoryLabel(row.category);
    const list = pool.get(label);
    if (list) list.push(...row.ids);
    else pool.set(label, [...row.ids]);
  }
  return pool;
}

/** A fresh seed; stored with the exam so its draw can be repeated. */
export const newSeed = () => crypto.randomInt(0, MAX_SEED);

export interface CreatedExam {
  exam: ExamView;
  /** Set when fewer questions matched than were asked for. */
  notice: string | null;
}

export function smallerExamNotice(requested: number, got: number): string | null {
  if (got >= requested) return null;
  return `Only ${got} question${got === 1 ? "" : "s"} match these settings, so this exam has ${got} instead of ${requested}.`;
}

/** Writes an exam and its questions in order (one transaction is the caller's). */
export async function insertExam(
  tx: Db,
  values: {
    userId: string;
    mockExamId: string | null;
    settings: TCreateExamRequest;
    seed: number;
    questionIds: string[];
    now: Date;
  },
): Promise<ExamRow> {
  const { settings, now } = values;
  const count = values.questionIds.length;
  const [row] = await tx
    .insert(exams)
    .values({
      userId: values.userId,
      mockExamId: values.mockExamId,
      mode: settings.mode,
      requestedSize: settings.size,
      questionCount: count,
      part: settings.part,
      categories: settings.categories,
      pool: settings.pool,
      secondsPerQuestion: settings.secondsPerQuestion,
      seed: values.seed,
      startedAt: now,
      endsAt:
        settings.mode === "timed"
          ? new Date(now.getTime() + count * settings.secondsPerQuestion * 1000)
          : null,
    })
    .returning();
  await tx.insert(examQuestions).values(
    values.questionIds.map((questionId, i) => ({
      examId: row!.id,
      position: i + 1,
      questionId,
    })),
  );
  return row!;
}

export async function createExam(
  db: Db,
  opts: { userId: string; now: Date; settings: TCreateExamRequest },
): Promise<CreatedExam> {
  const { userId, settings } = opts;
  const pool = await eligiblePool(
    db,
    and(visibleTo(userId), settingsFilter(settings), poolFilter(userId, settings.pool)),
  );
  const seed = newSeed();
  const drawn = drawBlueprint({ pool, size: settings.size, seed });
  if (drawn.questionIds.length === 0) throw badRequest(EXAM_ERRORS.NO_QUESTIONS);
  const row = await db.transaction((tx) =>
    insertExam(tx, {
      userId,
      mockExamId: null,
      settings,
      seed,
      questionIds: drawn.questionIds,
      now: opts.now,
    }),
  );
  return {
    exam: await examView(db, row, opts.now),
    notice: smallerExamNotice(settings.size, drawn.questionIds.length),
  };
}
