import { sql, type SQL } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
  type PgColumn,
} from "drizzle-orm/pg-core";

/**
 * A question can be studied only when it has an answer to check against (decision 021): the study
 * pool's queries and the partial indexes behind their counts share this one text, which PostgreSQL
 * needs to match for the indexes to be used. A flashcard (issue 17) is rated by the resident, not
 * checked, so it is always studiable.
 */
export function hasAnswerKey(columns: {
  correctAnswers: PgColumn;
  correctAnswer: PgColumn;
  questionType: PgColumn;
}): SQL {
  return sql`(${columns.questionType} = 'flashcard' or cardinality(${columns.correctAnswers}) > 0 or ${columns.correctAnswer} <> '')`;
}
import { programs, users } from "./users";

export const questions = pgTable(
  "questions",
  {
    id: uuid().primaryKey().defaultRandom(),
    creatorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    text: text().notNull(),
    // Keyed by letter A..O; empty options are not stored.
    options: jsonb().$type<Record<string, string>>().notNull().default({}),
    correctAnswer: text().notNull().default(""),
    correctAnswers: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    numCorrectAnswers: integer().notNull().default(1),
    questionType: text().notNull().default("standard"),
    instructions: text().notNull().default(""),
    explanation: text().notNull().default(""),
    // A flashcard's back, sanitized HTML (its front is `text`); '' for multiple choice.
    back: text().notNull().default(""),
    // Where the question came from, e.g. the Anki deck it was imported from; filterable in Browse.
    source: text().notNull().default(""),
    generatedExplanation: text().notNull().default(""),
    category: text().notNull().default(""),
    part: text().notNull(),
    year: integer().notNull(),
    number: integer(),
    isPublic: boolean().notNull().default(false),
    /**
     * The program whose bank holds the question (issue 32). Visibility: public when isPublic, else
     * program when programId is set (its members see it), else private (docs/product/programs.md).
     */
    programId: uuid().references(() => programs.id, { onDelete: "set null" }),
    /** Reserved for assessments: hidden from the program's residents until a director releases it. */
    reserved: boolean().notNull().default(false),
    /** Made public with the sharer's statement that they may share it, naming the source. */
    shareStatement: text().notNull().default(""),
    /**
     * Written or captured by hand (questions.create, createFlashcard, bulkCreate), not imported: the
     * day's study list takes such a question the day it is written (issue 34, decision 370).
     */
    byHand: boolean().notNull().default(false),
    /**
     * Taken out of public view by copyright reports from three readers (issue 36, decision 382): private
     * to its owner until an admin restores it (cleared) or keeps it down (kept, the owner may not make
     * it public again).
     */
    takenDownAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // Lower-cased text, option values and explanation in one column so one trigram index serves search.
    // question_search_text (drizzle/0009) reads the options' values only: no letters, quotes or colons.
    searchText: text()
      .notNull()
      .generatedAlwaysAs(sql`question_search_text(text, options, explanation)`),
  },
  (t) => [
    check("questions_part_check", sql`${t.part} in ('1','2')`),
    check(
      "questions_type_check",
      sql`${t.questionType} in ('standard','fourOptions','multipleCorrect','flashcard')`,
    ),
    check("questions_reserved_check", sql`not (${t.reserved} and ${t.isPublic})`),
    // A program's bank, newest first (Browse, study pool, exams): only program questions are indexed.
    index("questions_program_created_idx")
      .on(t.programId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.programId} is not null and not ${t.isPublic}`),
    index("questions_creator_created_idx").on(t.creatorId, t.createdAt.desc()),
    index("questions_public_created_idx")
      .on(t.createdAt.desc())
      .where(sql`${t.isPublic}`),
    index("questions_part_year_number_idx").on(t.part, t.year, t.number),
    index("questions_category_idx").on(t.category),
    index("questions_source_idx")
      .on(t.source)
      .where(sql`${t.source} <> ''`),
    // Search asks the trigram index only for public questions (one user's own are checked row by row,
    // decision 265), so private ones are not indexed.
    index("questions_public_search_trgm_idx")
      .using("gin", sql`${t.searchText} gin_trgm_ops`)
      .where(sql`${t.isPublic}`),
    // The due list and dashboard take the newest public questions in (created_at, id) order, and count
    // public questions per category without reading the rows (issue 8).
    index("questions_public_newest_idx")
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`${t.isPublic}`),
    // …and search walks one category's public questions newest first (decision 265): it replaces the
    // index on category alone, whose lookups it serves as well.
    index("questions_public_category_newest_idx")
      .on(t.category, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.isPublic}`),
    // The due page counts the own and the public questions never studied with every page: from these,
    // without reading a row (the study pool's answer-key rule is their predicate, decision 021). The
    // own ones' index also holds created_at and by_hand (INCLUDE, which drizzle-kit cannot write:
    // drizzle/0040, decision 428), so the split by hand-written today reads no row either.
    index("questions_creator_keyed_idx").on(t.creatorId, t.id).where(hasAnswerKey(t)),
    index("questions_public_keyed_idx")
      .on(t.id, t.creatorId)
      .where(sql`${t.isPublic} and ${hasAnswerKey(t)}`),
  ],
);

export type QuestionRow = typeof questions.$inferSelect;
export type NewQuestionRow = typeof questions.$inferInsert;

/**
 * Public questions per category, kept by statement triggers on questions (drizzle/0014), so the
 * dashboard, category statistics and Browse's filter read 34 rows instead of counting the whole public
 * bank on every view (issue 8).
 */
export const publicCategoryCounts = pgTable("public_category_counts", {
  category: text().primaryKey(),
  questions: integer().notNull(),
});
