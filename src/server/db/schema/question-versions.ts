import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import type { QuestionSnapshot } from "../../../core/question-history";
import { questions } from "./questions";
import { users } from "./users";

/**
 * A question's edit history (issue 36 item 4, decision 385): one row per state of its tracked fields,
 * written only by the row trigger on questions (drizzle/…_question_versions_trigger.sql), never by
 * application code. Version 1 is the state before the first change, attributed to the creator; a
 * question never changed has no rows (an import of 50,000 questions writes none).
 */
export const questionVersions = pgTable(
  "question_versions",
  {
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    version: integer().notNull(),
    /** The tracked fields after the change (src/core/question-history.ts). */
    snapshot: jsonb().$type<QuestionSnapshot>().notNull(),
    /** Who changed it (`prite.editor`, set by the editing paths); null where no user acted. */
    editorId: uuid().references(() => users.id, { onDelete: "set null" }),
    /** The version a restore brought back (`prite.restored_from`), else null. */
    restoredFrom: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.questionId, t.version] }),
    // Deleting an account sets its versions' editor to null without reading the whole table.
    index("question_versions_editor_idx")
      .on(t.editorId)
      .where(sql`${t.editorId} is not null`),
  ],
);

export type QuestionVersionRow = typeof questionVersions.$inferSelect;
