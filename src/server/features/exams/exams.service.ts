import crypto from "node:crypto";
import {
  and,
  asc,
  desc,
  eq,
  exists,
  inArray,
  isNotNull,
  lte,
  ne,
  notExists,
  sql,
  type SQL,
} from "drizzle-orm";
import { FLASHCARD } from "../../../core/constants";
import { answerKeyOf } from "../../../core/correctness";
import {
  drawBlueprint,
  EXAM_LIMITS,
  isItemCorrect,
  MAX_SEED,
  pastDeadline,
  remainingMs,
  type ExamMode,
  type ExamPart,
  type ExamPool,
  type ExamStatus,
} from "../../../core/exams";
import type { TCreateExamRequest } from "../../../core/schemas/exam";
import { categoryLabel } from "../../../core/stats";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import {
  examAnswers,
  examQuestions,
  exams,
  hasAnswerKey,
  questions,
  reviews,
  type ExamRow,
  type QuestionRow,
} from "../../db/schema";
import { AppError, badRequest, notFound } from "../../errors";
import { imagesByQuestion, visibleTo } from "../questions/question-json";
import { NOT_AN_OPTION } from "../study/study.service";

export const EXAM_ERRORS = {
  NOT_FOUND: "Exam not found",
  NO_QUESTIONS: "No questions match these settings.",
  SUBMITTED: "This exam has already been submitted; its answers can no longer change.",
  TIME_UP:
    "Time is up: this exam was submitted automatically, and answers after the deadline are not saved.",
  NOT_IN_EXAM: "This question is not part of this exam.",
  TUTOR_FINAL:
    "This question is already answered: tutor mode shows the correct answer, so the answer cannot change.",
  NOT_FINISHED: "Submit the exam first to see its report and review.",
} as const;

/** Each answer of an exam in its current state, as the taker left it. */
export interface ExamAnswerState {
  selected: string[];
  flagged: boolean;
  eliminated: string[];
  timeSpentMs: number;
  answeredAt: string | null;
}

/** What tutor mode shows after each answer, and every mode after submission. */
export interface ExamFeedback {
  isCorrect: boolean;
  correctAnswers: string[];
  explanation: string;
  generatedExplanation: string;
}

export interface ExamQuestionView {
  position: number;
  questionId: string;
  text: string;
  options: Record<string, string>;
  questionType: string;
  numCorrectAnswers: number;
  instructions: string;
  /** The images the question shows below its stem (SHA-256 keys, issue 17), in order. */
  images: string[];
  category: string;
  part: string;
  year: number;
  answer: ExamAnswerState;
  /** Null while a timed exam runs, and in tutor mode until the question is answered. */
  feedback: ExamFeedback | null;
}

export interface ExamSummary {
  id: string;
  mode: ExamMode;
  status: ExamStatus;
  part: ExamPart;
  categories: string[];
  pool: ExamPool;
  secondsPerQuestion: number;
  seed: number;
  requestedSize: number;
  questionCount: number;
  startedAt: string;
  endsAt: string | null;
  submittedAt: string | null;
  /** Number right, once submitted. */
  correctCount: number | null;
  /** Rounded percent right, once submitted. */
  scorePercent: number | null;
  mockExamId: string | null;
}

export interface ExamView extends ExamSummary {
  /** Milliseconds left of a timed exam at the time of the answer; null when untimed. */
  remainingMs: number | null;
  questions: ExamQuestionView[];
}

const FINISHED: ExamStatus[] = ["submitted", "expired"];
export const isFinished = (status: string) => FINISHED.includes(status as ExamStatus);

function percentOf(row: ExamRow): number | null {
  if (row.correctCount === null) return null;
  return row.questionCount > 0 ? Math.round((row.correctCount / row.questionCount) * 100) : 0;
}

export function examSummary(row: ExamRow): ExamSummary {
  return {
    id: row.id,
    mode: row.mode as ExamMode,
    status: row.status as ExamStatus,
    part: row.part as ExamPart,
    categories: row.categories,
    pool: row.pool as ExamPool,
    secondsPerQuestion: row.secondsPerQuestion,
    seed: row.seed,
    requestedSize: row.requestedSize,
    questionCount: row.questionCount,
    startedAt: row.startedAt.toISOString(),
    endsAt: row.endsAt?.toISOString() ?? null,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    correctCount: row.correctCount,
    scorePercent: percentOf(row),
    mockExamId: row.mockExamId,
  };
}

// ---------------------------------------------------------------------------------------------------
// Submission: exactly once, guarded in SQL.

/** The number right, counted from the answers as they stand when the exam closes. */
const correctCountSql = sql<number>`(
  select count(*)::int from ${examAnswers}
  where ${examAnswers.examId} = ${exams.id}
    and ${examAnswers.isCorrect} and cardinality(${examAnswers.selected}) > 0
)`;

/**
 * Closes exams that are still in progress. The `status = 'in_progress'` condition is the guard: of
 * two processes (two sweeps, a sweep and a request) that reach the same row, PostgreSQL lets the second
 * re-check it after the first commits, finds it no longer true, and changes nothing. Expired exams end
 * at their deadline, not at the moment they were noticed.
 */
async function closeExams(
  db: Db,
  ids: string[],
  how: { status: "submitted"; at: Date } | { status: "expired" },
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(exams)
    .set({
      status: how.status,
      submittedAt: how.status === "expired" ? sql`${exams.endsAt}` : how.at,
      correctCount: correctCountSql,
    })
    .where(and(inArray(exams.id, ids), eq(exams.status, "in_progress")))
    .returning({ id: exams.id });
  return rows.map((r) => r.id);
}

/** The moment before which an in-progress timed exam's deadline, grace included, has passed. */
const expiredBefore = (now: Date) => new Date(now.getTime() - EXAM_LIMITS.GRACE_MS);

/**
 * The deadline sweep: submits every timed exam whose time (and grace) ran out, whoever had it open.
 * `FOR UPDATE SKIP LOCKED` lets several server processes sweep one PostgreSQL at once, each taking rows
 * no other holds; the guarded update then submits each exactly once. Answers the ids it submitted.
 */
export async function sweepExpiredExams(
  db: Db,
  opts: { now: Date; batch?: number },
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: exams.id })
      .from(exams)
      .where(
        and(
          eq(exams.status, "in_progress"),
          isNotNull(exams.endsAt),
          lte(exams.endsAt, expiredBefore(opts.now)),
        ),
      )
      .orderBy(asc(exams.endsAt))
      .limit(opts.batch ?? 100)
      .for("update", { skipLocked: true });
    return closeExams(
      tx,
      due.map((r) => r.id),
      { status: "expired" },
    );
  });
}

/** The same for one user's overdue exams, done lazily before any of them is read or changed. */
async function expireOverdue(db: Db, where: { userId: string; examId?: string }, now: Date) {
  const overdue = await db
    .select({ id: exams.id })
    .from(exams)
    .where(
      and(
        eq(exams.userId, where.userId),
        where.examId ? eq(exams.id, where.examId) : undefined,
        eq(exams.status, "in_progress"),
        isNotNull(exams.endsAt),
        lte(exams.endsAt, expiredBefore(now)),
      ),
    );
  await closeExams(
    db,
    overdue.map((r) => r.id),
    { status: "expired" },
  );
}

/**
 * The caller's exam, submitted first if its time ran out. Another user's exam is not found (404):
 * exams are private to their taker. `lock` holds the row for the rest of the transaction, so a sweep
 * cannot submit it between the status check and the write that depends on it.
 */
export async function loadOwnExam(
  db: Db,
  opts: { userId: string; examId: string; now: Date; lock?: boolean },
): Promise<ExamRow> {
  await expireOverdue(db, { userId: opts.userId, examId: opts.examId }, opts.now);
  const query = db
    .select()
    .from(exams)
    .where(and(eq(exams.id, opts.examId), eq(exams.userId, opts.userId)));
  const [row] = opts.lock ? await query.for("update") : await query;
  if (!row) throw notFound(EXAM_ERRORS.NOT_FOUND);
  return row;
}

/** Refuses a change to an exam that is no longer running, in the words for why. */
function requireInProgress(row: ExamRow): void {
  if (row.status === "expired") throw new AppError("CONFLICT", EXAM_ERRORS.TIME_UP);
  if (row.status !== "in_progress") throw new AppError("CONFLICT", EXAM_ERRORS.SUBMITTED);
}

export async function submitExam(
  db: Db,
  opts: { userId: string; examId: string; now: Date },
): Promise<ExamSummary> {
  return db.transaction(async (tx) => {
    const row = await loadOwnExam(tx, { ...opts, lock: true });
    requireInProgress(row);
    await closeExams(tx, [row.id], { status: "submitted", at: opts.now });
    const [after] = await tx.select().from(exams).where(eq(exams.id, row.id));
    return examSummary(after!);
  });
}

// ---------------------------------------------------------------------------------------------------
// Creating an exam.

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

// ---------------------------------------------------------------------------------------------------
// Reading and answering.

/** The exam's questions in order with the caller's answers (left join: unanswered ones too). */
export async function examItems(db: Db, examId: string) {
  return db
    .select({
      position: examQuestions.position,
      question: questions,
      answer: examAnswers,
    })
    .from(examQuestions)
    .innerJoin(questions, eq(questions.id, examQuestions.questionId))
    .leftJoin(
      examAnswers,
      and(eq(examAnswers.examId, examQuestions.examId), eq(examAnswers.questionId, questions.id)),
    )
    .where(eq(examQuestions.examId, examId))
    .orderBy(asc(examQuestions.position));
}

type ExamItem = Awaited<ReturnType<typeof examItems>>[number];

export function answerState(answer: ExamItem["answer"]): ExamAnswerState {
  return {
    selected: answer?.selected ?? [],
    flagged: answer?.flagged ?? false,
    eliminated: answer?.eliminated ?? [],
    timeSpentMs: answer?.timeSpentMs ?? 0,
    answeredAt: answer?.answeredAt?.toISOString() ?? null,
  };
}

export function feedbackOf(
  question: ExamItem["question"],
  answer: ExamItem["answer"],
): ExamFeedback {
  return {
    isCorrect: !!answer && answer.selected.length > 0 && answer.isCorrect,
    correctAnswers: answerKeyOf(question),
    explanation: question.explanation,
    generatedExplanation: question.generatedExplanation,
  };
}

/** Feedback is shown after submission, and in tutor mode as soon as the question is answered. */
function showsFeedback(row: ExamRow, answer: ExamItem["answer"]): boolean {
  if (isFinished(row.status)) return true;
  return row.mode === "tutor" && !!answer && answer.selected.length > 0;
}

export async function examView(db: Db, row: ExamRow, now: Date): Promise<ExamView> {
  const items = await examItems(db, row.id);
  const images = await imagesByQuestion(
    db,
    items.map((item) => item.question.id),
  );
  return {
    ...examSummary(row),
    remainingMs: row.status === "in_progress" ? remainingMs(row.endsAt, now) : null,
    questions: items.map(({ position, question, answer }) => ({
      position,
      questionId: question.id,
      text: question.text,
      options: question.options,
      questionType: question.questionType,
      numCorrectAnswers: question.numCorrectAnswers,
      instructions: question.instructions,
      images: images.get(question.id) ?? [],
      category: question.category,
      part: question.part,
      year: question.year,
      answer: answerState(answer),
      feedback: showsFeedback(row, answer) ? feedbackOf(question, answer) : null,
    })),
  };
}

export async function getExam(
  db: Db,
  opts: { userId: string; examId: string; now: Date },
): Promise<ExamView> {
  const row = await loadOwnExam(db, opts);
  return examView(db, row, opts.now);
}

/** The question as part of this exam, or a clear refusal. */
async function examQuestion(tx: Db, examId: string, questionId: string) {
  const [found] = await tx
    .select({ question: questions, answer: examAnswers })
    .from(examQuestions)
    .innerJoin(questions, eq(questions.id, examQuestions.questionId))
    .leftJoin(
      examAnswers,
      and(eq(examAnswers.examId, examQuestions.examId), eq(examAnswers.questionId, questions.id)),
    )
    .where(and(eq(examQuestions.examId, examId), eq(examQuestions.questionId, questionId)));
  if (!found) throw badRequest(EXAM_ERRORS.NOT_IN_EXAM);
  return found;
}

function requireOptions(letters: readonly string[], options: Record<string, string>): string[] {
  const normalized = [...new Set(letters.map((l) => l.toUpperCase()))].sort();
  if (normalized.some((l) => !(l in options))) throw badRequest(NOT_AN_OPTION);
  return normalized;
}

/**
 * A change to one question of a running exam: the exam row is locked (so the deadline sweep waits or
 * skips it), the deadline and the question checked, then `write` runs in the same transaction.
 */
async function changeQuestion<T>(
  db: Db,
  opts: { userId: string; examId: string; questionId: string; now: Date },
  write: (tx: Db, exam: ExamRow, found: Awaited<ReturnType<typeof examQuestion>>) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const exam = await loadOwnExam(tx, { ...opts, lock: true });
    requireInProgress(exam);
    // Inside the grace: still running. Past it: loadOwnExam has just submitted it (TIME_UP above).
    if (pastDeadline(exam.endsAt, opts.now)) throw new AppError("CONFLICT", EXAM_ERRORS.TIME_UP);
    const found = await examQuestion(tx, exam.id, opts.questionId);
    return write(tx, exam, found);
  });
}

export interface SavedAnswer {
  questionId: string;
  answer: ExamAnswerState;
  remainingMs: number | null;
  /** Tutor mode: the correct answer and explanation at once; timed mode: null until the end. */
  feedback: ExamFeedback | null;
}

async function upsertAnswer(
  tx: Db,
  key: { examId: string; questionId: string; userId: string; category: string },
  set: Partial<typeof examAnswers.$inferInsert>,
) {
  const [row] = await tx
    .insert(examAnswers)
    .values({ ...key, ...set })
    .onConflictDoUpdate({ target: [examAnswers.examId, examAnswers.questionId], set })
    .returning();
  return row!;
}

/** One answer as the exam screen sends it. */
interface AnswerInput {
  userId: string;
  examId: string;
  questionId: string;
  selected: string[];
  timeSpentMs: number;
  now: Date;
}

/**
 * The answer path in two statements and no explicit transaction (issue 16 item 8): one read of the
 * exam, the question and its answer so far, then one INSERT … SELECT that writes only while the exam
 * is still running. Its `FOR SHARE` on the exam row waits for a submission or a sweep in flight (both
 * take the row FOR UPDATE) and re-reads the row after it, so an answer is never saved into a closed
 * exam; concurrent answers to one exam share the lock. Answers `null` when this path does not apply
 * (not found, no longer running, time up, or the guarded write changed nothing): the locking path
 * below then gives the exact refusal, and submits an overdue exam first.
 */
async function answerRunningExam(db: Db, opts: AnswerInput): Promise<SavedAnswer | null> {
  const { read, write } = answerStatements(db);
  const [found] = await read.execute({
    examId: opts.examId,
    questionId: opts.questionId,
    userId: opts.userId,
  });
  if (!found || found.exam.status !== "in_progress") return null;
  const { exam, question, answer } = found;
  const cutoff = expiredBefore(opts.now);
  if (exam.endsAt && exam.endsAt <= cutoff) return null;
  const selected = requireOptions(opts.selected, question.options);
  const tutor = exam.mode === "tutor";
  if (tutor && answer && answer.selected.length > 0) {
    throw new AppError("CONFLICT", EXAM_ERRORS.TUTOR_FINAL);
  }
  const [saved] = await write.execute({
    examId: exam.id,
    questionId: question.id,
    userId: opts.userId,
    selected: pgTextArray(selected),
    isCorrect: isItemCorrect(selected, answerKeyOf(question)),
    category: question.category,
    timeSpentMs: opts.timeSpentMs,
    answeredAt: selected.length > 0 ? opts.now.toISOString() : null,
    cutoff: cutoff.toISOString(),
    tutor,
  });
  if (!saved) return null;
  return {
    questionId: question.id,
    answer: answerState(saved),
    remainingMs: remainingMs(exam.endsAt, opts.now),
    feedback: tutor && selected.length > 0 ? feedbackOf(question, saved) : null,
  };
}

/**
 * PostgreSQL's text form of a text[] (`{"A","C"}`), sent as one parameter: a placeholder cannot
 * stand for a list of values, and both drivers take the literal alike.
 */
function pgTextArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, "\\$&")}"`).join(",")}}`;
}

/**
 * The two statements of the answer path, prepared once per database handle
 * (src/server/db/prepared.ts): a resident saves an answer every few seconds, and building these two
 * statements and planning them again each time was most of the request's own work (decision 212).
 */
function answerStatements(db: Db) {
  return prepared(db, "exam_answer", (d, name) => {
    const read = d
      .select({ exam: exams, question: questions, answer: examAnswers })
      .from(exams)
      .innerJoin(
        examQuestions,
        and(
          eq(examQuestions.examId, exams.id),
          eq(examQuestions.questionId, sql.placeholder("questionId")),
        ),
      )
      .innerJoin(questions, eq(questions.id, examQuestions.questionId))
      .leftJoin(
        examAnswers,
        and(eq(examAnswers.examId, exams.id), eq(examAnswers.questionId, examQuestions.questionId)),
      )
      .where(
        and(eq(exams.id, sql.placeholder("examId")), eq(exams.userId, sql.placeholder("userId"))),
      )
      .prepare(`${name}_read`);
    const write = d
      .insert(examAnswers)
      .select(
        d
          .select({
            examId: exams.id,
            questionId: sql`${sql.placeholder("questionId")}::uuid`.as("question_id"),
            userId: exams.userId,
            selected: sql`${sql.placeholder("selected")}::text[]`.as("selected"),
            isCorrect: sql`${sql.placeholder("isCorrect")}::boolean`.as("is_correct"),
            category: sql`${sql.placeholder("category")}::text`.as("category"),
            // Every column, in the table's order (drizzle's rule); a new row starts unmarked.
            flagged: sql`false`.as("flagged"),
            eliminated: sql`'{}'::text[]`.as("eliminated"),
            timeSpentMs: sql`${sql.placeholder("timeSpentMs")}::integer`.as("time_spent_ms"),
            answeredAt: sql`${sql.placeholder("answeredAt")}::timestamptz`.as("answered_at"),
          })
          .from(exams)
          .where(
            and(
              eq(exams.id, sql`${sql.placeholder("examId")}::uuid`),
              eq(exams.userId, sql`${sql.placeholder("userId")}::uuid`),
              eq(exams.status, "in_progress"),
              sql`(${exams.endsAt} is null or ${exams.endsAt} > ${sql.placeholder("cutoff")}::timestamptz)`,
            ),
          )
          .for("share"),
      )
      .onConflictDoUpdate({
        target: [examAnswers.examId, examAnswers.questionId],
        // The answer's own columns from the row offered; the flag and struck-out options stay.
        set: {
          selected: sql`excluded.selected`,
          isCorrect: sql`excluded.is_correct`,
          category: sql`excluded.category`,
          timeSpentMs: sql`excluded.time_spent_ms`,
          answeredAt: sql`excluded.answered_at`,
        },
        // Tutor mode: a shown answer is final, also against a second answer racing this one.
        where: sql`(not ${sql.placeholder("tutor")}::boolean or cardinality(${examAnswers.selected}) = 0)`,
      })
      .returning()
      .prepare(`${name}_write`);
    return { read, write };
  });
}

/** Saves one answer as it is given (an empty selection clears it in timed mode). */
export async function answerExamQuestion(db: Db, opts: AnswerInput): Promise<SavedAnswer> {
  const fast = await answerRunningExam(db, opts);
  if (fast) return fast;
  return changeQuestion(db, opts, async (tx, exam, { question, answer }) => {
    const selected = requireOptions(opts.selected, question.options);
    if (exam.mode === "tutor" && answer && answer.selected.length > 0) {
      throw new AppError("CONFLICT", EXAM_ERRORS.TUTOR_FINAL);
    }
    const saved = await upsertAnswer(
      tx,
      {
        examId: exam.id,
        questionId: question.id,
        userId: opts.userId,
        category: question.category,
      },
      {
        selected,
        isCorrect: isItemCorrect(selected, answerKeyOf(question)),
        category: question.category,
        timeSpentMs: opts.timeSpentMs,
        answeredAt: selected.length > 0 ? opts.now : null,
      },
    );
    return {
      questionId: question.id,
      answer: answerState(saved),
      remainingMs: remainingMs(exam.endsAt, opts.now),
      feedback: exam.mode === "tutor" && selected.length > 0 ? feedbackOf(question, saved) : null,
    };
  });
}

/** A flag or struck-out options: what the taker marks on a question besides the answer. */
async function markQuestion(
  db: Db,
  opts: { userId: string; examId: string; questionId: string; now: Date },
  marks: (question: QuestionRow) => Partial<typeof examAnswers.$inferInsert>,
): Promise<ExamAnswerState> {
  return changeQuestion(db, opts, async (tx, exam, { question }) => {
    const key = { examId: exam.id, questionId: question.id, userId: opts.userId };
    return answerState(
      await upsertAnswer(tx, { ...key, category: question.category }, marks(question)),
    );
  });
}

export function flagExamQuestion(
  db: Db,
  opts: { userId: string; examId: string; questionId: string; flagged: boolean; now: Date },
): Promise<ExamAnswerState> {
  return markQuestion(db, opts, () => ({ flagged: opts.flagged }));
}

export function eliminateExamOptions(
  db: Db,
  opts: { userId: string; examId: string; questionId: string; eliminated: string[]; now: Date },
): Promise<ExamAnswerState> {
  return markQuestion(db, opts, (question) => ({
    eliminated: requireOptions(opts.eliminated, question.options),
  }));
}

// ---------------------------------------------------------------------------------------------------
// History.

export async function listExams(
  db: Db,
  opts: { userId: string; now: Date },
): Promise<ExamSummary[]> {
  await expireOverdue(db, { userId: opts.userId }, opts.now);
  const rows = await db
    .select()
    .from(exams)
    .where(eq(exams.userId, opts.userId))
    .orderBy(desc(exams.startedAt), desc(exams.id));
  return rows.map(examSummary);
}

export async function deleteExam(
  db: Db,
  opts: { userId: string; examId: string },
): Promise<{ success: true }> {
  const rows = await db
    .delete(exams)
    .where(and(eq(exams.id, opts.examId), eq(exams.userId, opts.userId)))
    .returning({ id: exams.id });
  if (rows.length === 0) throw notFound(EXAM_ERRORS.NOT_FOUND);
  return { success: true };
}

/** A finished exam of the caller's, for the report and the review. */
export async function loadFinishedExam(
  db: Db,
  opts: { userId: string; examId: string; now: Date },
): Promise<ExamRow> {
  const row = await loadOwnExam(db, opts);
  if (!isFinished(row.status)) throw badRequest(EXAM_ERRORS.NOT_FINISHED);
  return row;
}
