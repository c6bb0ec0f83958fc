import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { questions } from "./questions";
import { users } from "./users";

/**
 * Reports of a problem with a question (issue 36, docs/product/reports.md, decisions 380-384). A reader
 * has at most one open report per question (a partial unique index); its handler (the owner, the
 * program's directors, an admin for public questions) closes it as answered, fixed or dismissed with a
 * note the reporter reads. Open wrong-answer reports show readers a notice, looked up by a partial
 * index; a trigger (drizzle custom migration) moves the due page's versions when one opens or closes.
 */
export const questionReports = pgTable(
  "question_reports",
  {
    id: uuid().primaryKey().defaultRandom(),
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    reporterId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text().notNull(),
    comment: text().notNull().default(""),
    status: text().notNull().default("open"),
    /** The handler's answer, fix note or reason for dismissing: shown to the reporter. */
    response: text().notNull().default(""),
    resolvedById: uuid().references(() => users.id, { onDelete: "set null" }),
    resolvedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "question_reports_kind_check",
      sql`${t.kind} in ('wrong_answer','unclear','outdated','duplicate','copyright','other')`,
    ),
    check(
      "question_reports_status_check",
      sql`${t.status} in ('open','answered','fixed','dismissed')`,
    ),
    // One open report per reader and question; closed ones stay as the record.
    uniqueIndex("question_reports_open_unique")
      .on(t.questionId, t.reporterId)
      .where(sql`${t.status} = 'open'`),
    // The "key may be wrong" notice of a page of questions: only open wrong-answer reports are indexed.
    index("question_reports_open_wrong_answer_idx")
      .on(t.questionId, t.createdAt)
      .where(sql`${t.status} = 'open' and ${t.kind} = 'wrong_answer'`),
    index("question_reports_question_created_idx").on(t.questionId, t.createdAt),
    index("question_reports_reporter_created_idx").on(t.reporterId, t.createdAt.desc()),
  ],
);

export type QuestionReportRow = typeof questionReports.$inferSelect;
