import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export const users = pgTable(
  "users",
  {
    id: uuid().primaryKey().defaultRandom(),
    username: text().notNull(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    displayName: text().notNull().default(""),
    pgyLevel: text().notNull().default(""),
    specialty: text().notNull().default(""),
    institution: text().notNull().default(""),
    isAdmin: boolean().notNull().default(false),
    shareUsageData: boolean().notNull().default(false),
    publicProfile: boolean().notNull().default(false),
    timeZone: text().notNull().default("UTC"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastLogin: timestamp({ withTimezone: true }),
    // When the PRITE scores form was offered after registration (once; null = not yet offered).
    scoresOnboardingOfferedAt: timestamp({ withTimezone: true }),
    // Study scheduler (issue 19): FSRS for new accounts; migration 0018 keeps existing accounts on SM-2.
    scheduler: text().notNull().default("fsrs"),
    desiredRetention: doublePrecision().notNull().default(0.9),
    maximumInterval: integer().notNull().default(36_500),
    // Fitted FSRS-6 weights (21, validated by src/core/srs/fsrs.ts); null = the defaults.
    fsrsParameters: doublePrecision().array(),
  },
  (t) => [
    // Usernames and emails are unique regardless of case: "Alice" and "alice" are one person.
    uniqueIndex("users_username_lower_key").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    // SHA-256 of the token, hex: a database leak yields no usable session.
    id: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // Shown in Settings' list of active sessions (issue 33): the signing-in client's User-Agent, cut
    // short, and when the session was last seen (moved at most every few minutes; null = never since).
    userAgent: text().notNull().default(""),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId)],
);

/**
 * One-time password reset links (issue 33): only the SHA-256 of the token is stored; a row is deleted
 * when used, and every row of its user when the password changes through one of them.
 */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** 'email': asked for on the Sign In page; 'admin': made by an administrator. */
    kind: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("password_reset_tokens_user_id_idx").on(t.userId)],
);

export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    usernameKey: text().notNull(),
    ip: text().notNull(),
    /** 'sign-in': a password check that failed or is under way; 'register': an account created. */
    kind: text().notNull().default("sign-in"),
    attemptedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("login_attempts_username_idx").on(t.usernameKey, t.attemptedAt),
    index("login_attempts_ip_idx").on(t.ip, t.attemptedAt),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
