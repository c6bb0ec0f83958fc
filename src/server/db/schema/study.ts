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
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { exams } from "./exams";
import { questions } from "./questions";
import { users } from "./users";

/** One row per user and question they have studied: the SM-2 state (docs/product/scheduling.md). */
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
    // FSRS memory state (issue 19); null while SM-2 schedules the card.
    stability: doublePrecision(),
    fsrsDifficulty: doublePrecision(),
    // The answer waiting for its difficulty rating, if any.
    pendingReviewId: bigint({ mode: "number" }),
    /**
     * Whether the question can still be studied by this user: visible to them (own or public) and with
     * an answer to check against (decision 021). Kept by triggers (drizzle/0012) whenever a question's
     * visibility or answers change, so the due list and its count read study_states alone.
     */
    available: boolean().notNull().default(true),
    /**
     * A leech (issue 34, decision 372): failed the user's leech threshold times. It leaves the day's
     * list until the user resets it; set by the study writer when a failure reaches the threshold.
     */
    leech: boolean().notNull().default(false),
    /** When the row was first written (the question introduced); null for states kept from an Anki import. */
    introducedAt: timestamp({ withTimezone: true }).defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.questionId] }),
    // The due list's order (most overdue first, never-scheduled first of all), so a page is read off
    // the index and stops after `limit` rows; its count is an index-only scan.
    index("study_states_due_order_idx")
      .on(t.userId, t.dueAt.asc().nullsFirst(), t.questionId)
      .where(sql`${t.available} and not ${t.leech}`),
    index("study_states_question_idx").on(t.questionId),
    // New questions introduced today (the daily limit): a range of one user's rows.
    index("study_states_introduced_idx")
      .on(t.userId, t.introducedAt)
      .where(sql`${t.introducedAt} is not null`),
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
    /**
     * The id a device gave the answer when it was made offline (issue 18): the same id sent twice is
     * one review. Null for answers given online.
     */
    clientId: uuid(),
    /**
     * Set on the lapse "Study these incorrect" records for a question missed in this exam: the
     * schedulers' replay reads it like any review, the statistics skip it because the exam answer
     * already counts (docs/decisions/170-exams-count-once-in-statistics.md).
     */
    examId: uuid().references(() => exams.id, { onDelete: "set null" }),
  },
  (t) => [
    index("reviews_user_reviewed_idx").on(t.userId, t.reviewedAt),
    // The week ranking reads every user's answers of the last minutes before its window (decision 220).
    index("reviews_reviewed_at_idx").on(t.reviewedAt),
    uniqueIndex("reviews_user_client_id_idx")
      .on(t.userId, t.clientId)
      .where(sql`${t.clientId} IS NOT NULL`),
    index("reviews_question_idx").on(t.questionId),
    // Deleting an exam clears its id from these few rows without reading the whole log.
    index("reviews_exam_idx")
      .on(t.examId)
      .where(sql`${t.examId} is not null`),
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

/**
 * Residents who found a question a leech (issue 34): one row per user and question, written by a
 * trigger when study_states.leech turns true (drizzle custom migration), kept when the resident resets
 * the question, so the owner's count is of residents, not of marks. A resident's report that the
 * question is bad is recorded here too (until issue 36's reports).
 */
export const leechMarks = pgTable(
  "leech_marks",
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    markedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    reportedAt: timestamp({ withTimezone: true }),
    reportNote: text().notNull().default(""),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.questionId] }),
    index("leech_marks_question_idx").on(t.questionId),
  ],
);

/**
 * A question the user reset to new (a leech's "Reset"): replays of the review log (a sync, a scheduler
 * switch) start after this moment, so the reset is not undone by the answers before it.
 */
export const studyResets = pgTable(
  "study_resets",
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    resetAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.questionId] })],
);

export type StudyStateRow = typeof studyStates.$inferSelect;
export type ReviewRow = typeof reviews.$inferSelect;
export type StudySessionRow = typeof studySessions.$inferSelect;
