import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * The audit log (issue 33, decision 340): who did what, when and from where. Ids are set to null when
 * an account is deleted; the usernames stay as text, so the record of a deleted account still reads.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: text().notNull(),
    // Who acted: null for the server itself (a scheduled backup) or a local `prite` command.
    userId: uuid().references(() => users.id, { onDelete: "set null" }),
    username: text().notNull().default(""),
    // Whom it concerned, when that is someone else (a promoted user, a reset link's account).
    targetUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    targetUsername: text().notNull().default(""),
    detail: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    ip: text().notNull().default(""),
    userAgent: text().notNull().default(""),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("audit_events_created_at_idx").on(t.createdAt),
    index("audit_events_user_id_created_at_idx").on(t.userId, t.createdAt),
    index("audit_events_kind_created_at_idx").on(t.kind, t.createdAt),
  ],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;
