import { sql } from "drizzle-orm";
import {
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./users";

/*
 * Figures the dashboard and the rankings read, kept by triggers as answers arrive (issue 20, decision
 * 220; drizzle/0022). Every counted answer — a study review outside an exam's lapse records, or an
 * answer of a finished exam (decision 170) — and every study session is added here by whatever wrote
 * it, and taken away when it is deleted. Rows may fall back to 0; readers skip those.
 */

/** Counted answers per user: the all-time ranking reads one row per user. */
export const answerTotals = pgTable("answer_totals", {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  answered: integer().notNull().default(0),
  correct: integer().notNull().default(0),
});

/** Counted answers per user and stored category (the category at answer time). */
export const answerCategoryTotals = pgTable(
  "answer_category_totals",
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    category: text().notNull(),
    answered: integer().notNull().default(0),
    correct: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.category] })],
);

/**
 * Counted answers and study sessions per user and UTC quarter hour. Every time zone's day starts on a
 * quarter hour today, so a day in any zone is a sum of these; a quarter that straddles a day boundary
 * (an old offset) is read from the log instead (stats.service.ts).
 */
export const answerQuarters = pgTable(
  "answer_quarters",
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    quarter: timestamp({ withTimezone: true }).notNull(),
    answered: integer().notNull().default(0),
    correct: integer().notNull().default(0),
    sessions: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.quarter] }),
    index("answer_quarters_quarter_idx").on(t.quarter),
  ],
);

/**
 * Counted answers per user from `answer_window_start.start_at` on: the week ranking reads this plus
 * the answers between its start and the week's, and the start moves forward a quarter at a time.
 */
export const answerWindow = pgTable("answer_window", {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  answered: integer().notNull().default(0),
  correct: integer().notNull().default(0),
});

/** One row: where `answer_window` starts. */
export const answerWindowStart = pgTable("answer_window_start", {
  id: smallint().primaryKey().default(1),
  startAt: timestamp({ withTimezone: true })
    .notNull()
    .default(sql`'-infinity'`),
});
