import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { questions } from "./questions";
import { users } from "./users";

/** One row per user and question they have studied: the SM-2 state (DESIGN §5). */
export const studyStates = pgTable(
  "study_states",
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    easeFactor: doublePrecision().notNull().default(2.5),
    intervalDays: integer().notNull().default(0),
    repetitions: integer().notNull().default(0),
    lapses: integer().notNull().default(0),
    dueAt: timestamp({ withTimezone: true }),
    lastReviewedAt: timestamp({ withTimezone: true }),
    // The answer waiting for its difficulty rating, if any.
    pendingReviewId: bigint({ mode: "number" }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.questionId] }),
    index("study_states_user_due_idx").on(t.userId, t.dueAt),
    index("study_states_question_idx").on(t.questionId),
  ],
);

/** Append-only log of every answer; all study statistics are computed from it. */
export const reviews = pgTable(
  "reviews",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    sessionId: uuid().references(() => studySessions.id, { onDelete: "set null" }),
    // Category at answer time, so stats survive later edits of the question.
    category: text().notNull().default(""),
    difficulty: smallint(),
    isCorrect: boolean().notNull(),
    selected: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    timeSpentMs: integer().notNull().default(0),
    reviewedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("reviews_user_reviewed_idx").on(t.userId, t.reviewedAt),
    index("reviews_question_idx").on(t.questionId),
  ],
);

export const studySessions = pgTable(
  "study_sessions",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    category: text(),
    questionCount: integer().notNull().default(0),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("study_sessions_user_started_idx").on(t.userId, t.startedAt)],
);

export type StudyStateRow = typeof studyStates.$inferSelect;
export type ReviewRow = typeof reviews.$inferSelect;
export type StudySessionRow = typeof studySessions.$inferSelect;
