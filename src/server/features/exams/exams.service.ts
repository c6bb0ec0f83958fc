/**
 * Practice exams (issue 16): their errors, shapes and summary, submission exactly once (decision 171)
 * and the history. Creating an exam is exam-create.service.ts; reading and answering one is
 * exam-answers.service.ts.
 */
import { and, asc, desc, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import {
  EXAM_LIMITS,
  type ExamMode,
  type ExamPart,
  type ExamPool,
  type ExamStatus,
} from "../../../core/exams";
import type { Db } from "../../db/client";
import { examAnswers, exams, type ExamRow } from "../../db/schema";
import { AppError, badRequest, notFound } from "../../errors";

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
export const expiredBefore = (now: Date) => new Date(now.getTime() - EXAM_LIMITS.GRACE_MS);

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
export function requireInProgress(row: ExamRow): void {
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
