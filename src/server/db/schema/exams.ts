import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { questions } from "./questions";
import { programs, users } from "./users";

/**
 * A shared mock exam (issue 16 item 6): a fixed set of public questions and the settings every taker
 * gets, reached with an 8-character join code. Each taker's attempt is an ordinary row of `exams`.
 */
export const mockExams = pgTable(
  "mock_exams",
  {
    id: uuid().primaryKey().defaultRandom(),
    creatorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    code: text().notNull(),
    mode: text().notNull(),
    part: text().notNull(),
    categories: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    secondsPerQuestion: integer().notNull(),
    seed: bigint({ mode: "number" }).notNull(),
    closed: boolean().notNull().default(false),
    /** Set when a program director gave it (issue 32): drawn from that program's bank and public questions. */
    programId: uuid().references(() => programs.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("mock_exams_code_key").on(t.code),
    index("mock_exams_creator_idx").on(t.creatorId, t.createdAt),
    check("mock_exams_mode_check", sql`${t.mode} in ('tutor','timed')`),
    check("mock_exams_part_check", sql`${t.part} in ('1','2','both')`),
  ],
);

export const mockExamQuestions = pgTable(
  "mock_exam_questions",
  {
    mockExamId: uuid()
      .notNull()
      .references(() => mockExams.id, { onDelete: "cascade" }),
    position: integer().notNull(),
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.mockExamId, t.position] }),
    uniqueIndex("mock_exam_questions_question_key").on(t.mockExamId, t.questionId),
    index("mock_exam_questions_question_idx").on(t.questionId),
  ],
);

/**
 * One practice exam of one user. A timed exam's deadline is `ends_at`, in the database: any server
 * process submits it once it has passed (exams.service.ts, the sweep), so no in-memory timer is the
 * only record of it.
 */
export const exams = pgTable(
  "exams",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // A taker's attempt keeps its results when the mock exam's creator deletes their account.
    mockExamId: uuid().references(() => mockExams.id, { onDelete: "set null" }),
    mode: text().notNull(),
    status: text().notNull().default("in_progress"),
    /** The size asked for; questionCount is what the pool allowed. */
    requestedSize: integer().notNull(),
    questionCount: integer().notNull(),
    part: text().notNull(),
    /** Empty: every category. */
    categories: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    pool: text().notNull(),
    secondsPerQuestion: integer().notNull(),
    seed: bigint({ mode: "number" }).notNull(),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    /** Null for tutor mode, which is untimed. */
    endsAt: timestamp({ withTimezone: true }),
    submittedAt: timestamp({ withTimezone: true }),
    /** Set once, when the exam is submitted (by its taker or by the deadline). */
    correctCount: integer(),
  },
  (t) => [
    index("exams_user_started_idx").on(t.userId, t.startedAt.desc()),
    index("exams_mock_idx").on(t.mockExamId),
    // The sweep's scan: only timed exams still running, oldest deadline first.
    index("exams_deadline_idx")
      .on(t.endsAt)
      .where(sql`${t.status} = 'in_progress' and ${t.endsAt} is not null`),
    check("exams_mode_check", sql`${t.mode} in ('tutor','timed')`),
    check("exams_status_check", sql`${t.status} in ('in_progress','submitted','expired')`),
    check("exams_part_check", sql`${t.part} in ('1','2','both')`),
    check("exams_pool_check", sql`${t.pool} in ('unused','incorrect','flagged','all')`),
  ],
);

export const examQuestions = pgTable(
  "exam_questions",
  {
    examId: uuid()
      .notNull()
      .references(() => exams.id, { onDelete: "cascade" }),
    position: integer().notNull(),
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.examId, t.position] }),
    uniqueIndex("exam_questions_question_key").on(t.examId, t.questionId),
    index("exam_questions_question_idx").on(t.questionId),
  ],
);

/** What the taker did with one question: written as they go, so an exam resumes on any device. */
export const examAnswers = pgTable(
  "exam_answers",
  {
    examId: uuid()
      .notNull()
      .references(() => exams.id, { onDelete: "cascade" }),
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    // The exam's owner again, so statistics read a user's answers from one index (decision 170).
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Empty: not answered (or the answer was cleared). */
    selected: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Decided when the answer is given, by the study rule, as a review's is. */
    isCorrect: boolean().notNull().default(false),
    // Category at answer time, so statistics survive later edits of the question (as reviews do).
    category: text().notNull().default(""),
    flagged: boolean().notNull().default(false),
    eliminated: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    timeSpentMs: integer().notNull().default(0),
    answeredAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.examId, t.questionId] }),
    index("exam_answers_user_answered_idx").on(t.userId, t.answeredAt),
    // The week ranking's answers of the last minutes before its window (decision 220).
    index("exam_answers_answered_at_idx").on(t.answeredAt),
    index("exam_answers_question_idx").on(t.questionId),
  ],
);

export type MockExamRow = typeof mockExams.$inferSelect;
export type ExamRow = typeof exams.$inferSelect;
export type ExamAnswerRow = typeof examAnswers.$inferSelect;
