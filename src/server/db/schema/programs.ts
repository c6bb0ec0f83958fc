import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { mockExams } from "./exams";
import { programs, users } from "./users";

/**
 * Work a director gives the program or one PGY class (issue 32): a practice exam (a mock exam the same
 * for every resident) or a study set (categories and a number of questions to answer), due by a date.
 */
export const programAssignments = pgTable(
  "program_assignments",
  {
    id: uuid().primaryKey().defaultRandom(),
    programId: uuid()
      .notNull()
      .references(() => programs.id, { onDelete: "cascade" }),
    createdBy: uuid().references(() => users.id, { onDelete: "set null" }),
    kind: text().notNull(),
    title: text().notNull().default(""),
    /** The PGY class it is for ('PGY-2'…), or null for the whole program. */
    pgyLevel: text(),
    /** The exam every resident takes, for kind 'exam'. */
    mockExamId: uuid().references(() => mockExams.id, { onDelete: "cascade" }),
    /** For kind 'study': the categories (empty: any) and how many answers complete it. */
    categories: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    questionCount: integer().notNull(),
    dueAt: timestamp({ withTimezone: true }).notNull(),
    closedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("program_assignments_program_idx").on(t.programId, t.dueAt),
    check("program_assignments_kind_check", sql`${t.kind} in ('exam','study')`),
  ],
);

/**
 * Each resident's progress on a study-set assignment, kept as their answers arrive (never counted from
 * the review log per request): answers in the set's categories since the assignment was given.
 */
export const programAssignmentProgress = pgTable(
  "program_assignment_progress",
  {
    assignmentId: uuid()
      .notNull()
      .references(() => programAssignments.id, { onDelete: "cascade" }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    answered: integer().notNull().default(0),
    correct: integer().notNull().default(0),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.assignmentId, t.userId] })],
);

export type ProgramAssignmentRow = typeof programAssignments.$inferSelect;
