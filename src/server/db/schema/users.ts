import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  integer,
  index,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

/**
 * A residency program (issue 32): its own bank (questions with `program_id` that are not public), its
 * members (users.program_id, one program per user), assignments and the director's dashboard. Joined
 * with an 8-character code like a mock exam's, which a director can renew.
 */
export const programs = pgTable(
  "programs",
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    institution: text().notNull().default(""),
    code: text().notNull(),
    // Dashboard flags (docs/product/programs.md): inactive for this many days, or below this accuracy.
    inactiveDays: integer().notNull().default(14),
    accuracyFlag: doublePrecision().notNull().default(0.6),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("programs_code_key").on(t.code)],
);

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
    // Program membership (issue 32): at most one program at a time, kept on the user row so every
    // request's visibility check reads it from the session's user without another query.
    programId: uuid().references((): AnyPgColumn => programs.id, { onDelete: "set null" }),
    /** 'director' or 'resident' while programId is set; meaningless otherwise. */
    programRole: text(),
    programJoinedAt: timestamp({ withTimezone: true }),
    /** PRITE scores reach the program's dashboard only when the resident turns this on. */
    shareScoresWithProgram: boolean().notNull().default(false),
    // The study plan (issue 34, docs/product/study-plan.md).
    /** New questions introduced per day (0-500). */
    newPerDay: integer().notNull().default(20),
    /** The most new questions a day the exam plan may raise the pace to. */
    maxNewPerDay: integer().notNull().default(100),
    /** The resident's next PRITE, a calendar date in their time zone; null = no exam date. */
    examDate: date({ mode: "string" }),
    /** Predicted recall wanted on the exam day. */
    examTargetRetention: doublePrecision().notNull().default(0.9),
    /** The bank the exam plan covers: these categories, or every category when empty. */
    planCategories: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    loadBalance: boolean().notNull().default(true),
    /** Light days of the week (0 = Sunday … 6 = Saturday) that get fewer reviews, e.g. call days. */
    easyDays: smallint()
      .array()
      .notNull()
      .default(sql`'{}'::smallint[]`),
    /** Failures that make a question a leech (Anki's default, 8). */
    leechThreshold: integer().notNull().default(8),
    /** While set and in the future, a catch-up spreads the backlog and pauses new questions. */
    catchUpUntil: timestamp({ withTimezone: true }),
  },
  (t) => [
    // Usernames and emails are unique regardless of case: "Alice" and "alice" are one person.
    uniqueIndex("users_username_lower_key").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
    index("users_program_idx")
      .on(t.programId)
      .where(sql`${t.programId} is not null`),
    check(
      "users_program_role_check",
      // A deleted program leaves programId null and the role behind: readers ignore a role without a program.
      sql`${t.programId} is null or ${t.programRole} in ('director','resident')`,
    ),
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

export type ProgramRow = typeof programs.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
