import { sql } from "drizzle-orm";
import {
  bigint,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { questions } from "./questions";

/*
 * Item statistics (issue 36 item 5, decisions 390-392; docs/product/item-statistics.md), kept by
 * triggers as answers arrive, like the dashboard's figures (decision 220): the custom migration
 * item_stats_triggers adds every counted answer — a study review outside an exam's lapse records, or
 * an answer of a finished exam (decision 170) — and takes it away when it is deleted. Rows may fall
 * back to 0; readers treat those as no answers.
 */

/** Counted answers of one question, and the sums of its exam (x, y) pairs (decision 391). */
export const questionItemStats = pgTable(
  "question_item_stats",
  {
    questionId: uuid()
      .primaryKey()
      .references(() => questions.id, { onDelete: "cascade" }),
    answered: integer().notNull().default(0),
    correct: integer().notNull().default(0),
    timeMsSum: bigint({ mode: "number" }).notNull().default(0),
    /** Finished exam attempts (of two questions or more) that held the question. */
    examN: integer().notNull().default(0),
    /** Σx: of those, the attempts that answered it right. */
    examSx: integer().notNull().default(0),
    /** Σy, Σy², Σxy over the attempts' rest scores (the share right of their other questions). */
    examSy: doublePrecision().notNull().default(0),
    examSyy: doublePrecision().notNull().default(0),
    examSxy: doublePrecision().notNull().default(0),
  },
  (t) => [
    // "Most missed": the share right, lowest first, among questions answered often enough.
    index("question_item_stats_share_idx")
      .on(sql`(${t.correct}::float8 / ${t.answered})`)
      .where(sql`${t.answered} > 0`),
  ],
);

/** Counted answers of one question that chose each option letter (upper case). */
export const questionOptionPicks = pgTable(
  "question_option_picks",
  {
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    option: text().notNull(),
    picks: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.questionId, t.option] })],
);
