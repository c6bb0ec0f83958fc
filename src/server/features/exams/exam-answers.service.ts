/**
 * Reading a running or finished exam and answering, flagging and striking out its questions; the
 * answer path is decision 212's two prepared statements.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { answerKeyOf } from "../../../core/correctness";
import { isItemCorrect, pastDeadline, remainingMs } from "../../../core/exams";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import {
  examAnswers,
  examQuestions,
  exams,
  questions,
  type ExamRow,
  type QuestionRow,
} from "../../db/schema";
import { AppError, badRequest } from "../../errors";
import { imagesByQuestion } from "../questions/question-json";
import { NOT_AN_OPTION } from "../study/study-writer.service";
import {
  EXAM_ERRORS,
  examSummary,
  expiredBefore,
  isFinished,
  loadOwnExam,
  requireInProgress,
  type ExamAnswerState,
  type ExamFeedback,
  type ExamView,
} from "./exams.service";

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
