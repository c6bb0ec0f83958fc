import { sql } from "drizzle-orm";
import {
  check,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { questions } from "./questions";
import { users } from "./users";

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/**
 * Images shown with questions (issue 17), content-addressed: the key is the lower-case hex SHA-256 of
 * the bytes, so the same picture imported twice, or by two residents, is stored once. Who may fetch one
 * is decided by question_media: those who can see a question that shows it.
 */
export const media = pgTable(
  "media",
  {
    sha256: text().primaryKey(),
    mimeType: text().notNull(),
    byteSize: integer().notNull(),
    bytes: bytea().notNull(),
    uploadedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("media_sha256_check", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
    check(
      "media_mime_type_check",
      sql`${t.mimeType} in ('image/png','image/jpeg','image/gif','image/webp','image/svg+xml')`,
    ),
    check("media_byte_size_check", sql`${t.byteSize} > 0 and ${t.byteSize} <= 5242880`),
  ],
);

/**
 * The images a question shows, in order: a flashcard's come from its HTML (`<img src="<sha256>">`), a
 * multiple-choice question's are shown below its stem.
 */
export const questionMedia = pgTable(
  "question_media",
  {
    questionId: uuid()
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    sha256: text()
      .notNull()
      .references(() => media.sha256, { onDelete: "restrict" }),
    position: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.questionId, t.sha256] }),
    index("question_media_sha256_idx").on(t.sha256),
  ],
);

export type MediaRow = typeof media.$inferSelect;
