import { integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

export const answerKeys = pgTable(
  "answer_keys",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    part: text().notNull(),
    year: integer().notNull(),
    // Question number → letter.
    answers: jsonb().$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("answer_keys_user_part_year_key").on(t.userId, t.part, t.year)],
);

export type AnswerKeyRow = typeof answerKeys.$inferSelect;
