import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

export const priteScores = pgTable(
  "prite_scores",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    year: text().notNull(),
    overallPercentile: integer().notNull(),
    psychiatryPercentile: integer(),
    neurosciencePercentile: integer(),
    somaPercentile: integer(),
    growthPercentile: integer(),
    sections: jsonb().$type<{ name: string; percentile: number }[]>().notNull().default([]),
    notes: text().notNull().default(""),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("prite_scores_user_idx").on(t.userId, t.year)],
);

export type PriteScoreRow = typeof priteScores.$inferSelect;
