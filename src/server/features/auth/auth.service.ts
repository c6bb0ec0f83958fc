import { eq, sql } from "drizzle-orm";
import type { TLoginInput, TRegisterInput } from "../../../core/schemas";
import { canonicalTimeZone } from "../../../core/stats";
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "../../auth/common-passwords";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../../auth/password";
import { createSession, invalidateSession, invalidateUserSessions } from "../../auth/session";
import {
  clearSignInFailures,
  pruneSignInFailures,
  reserveRegistration,
  reserveSignInAttempt,
  type ThrottleLimits,
} from "../../auth/throttle";
import type { Db } from "../../db/client";
import { users, type UserRow } from "../../db/schema";
import { AppError } from "../../errors";
import { recordSignIn } from "../audit/audit.service";

export const INVALID_CREDENTIALS = "Invalid username or password";
export const USERNAME_TAKEN = "Username is already taken";
export const EMAIL_TAKEN = "An account with this email already exists";

// Any constant works: it only serialises first sign-ups so exactly one becomes admin.
const FIRST_ADMIN_LOCK = 70_111_001;

/**
 * The runtime's canonical name of the zone when it knows it: stored and compared in that spelling, so
 * a client that varies the letter case writes nothing new (issue 24).
 */
export function validTimeZone(tz: string | null | undefined): string | null {
  return canonicalTimeZone(tz);
}

export async function registerUser(
  db: Db,
  input: TRegisterInput,
  meta: {
    now: Date;
    timeZone: string | null;
    ip?: string;
    limits?: ThrottleLimits;
    userAgent?: string;
    /** Written in the account's transaction: an institution's account linked to it (issue 33). */
    afterInsert?: (tx: Db, user: UserRow) => Promise<void>;
  },
): Promise<{ user: UserRow; token: string; expiresAt: Date }> {
  // Counted before anything else, so a burst of parallel sign-ups cannot pass together; an
  // administrator's `prite users add` passes no address and is not limited.
  if (meta.ip !== undefined && meta.limits) {
    const minutes = await reserveRegistration(db, meta.ip, meta.now, meta.limits);
    if (minutes > 0) throw new AppError("TOO_MANY_REQUESTS", registrationThrottledMessage(minutes));
  }
  if (await isCommonPassword(input.password)) {
    throw new AppError("BAD_REQUEST", COMMON_PASSWORD_MESSAGE);
  }
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK})`);
    const clash = await tx
      .select({ username: users.username, email: users.email })
      .from(users)
      .where(
        sql`lower(${users.username}) = lower(${input.username}) or lower(${users.email}) = lower(${input.email})`,
      )
      .limit(2);
    if (clash.some((u) => u.username.toLowerCase() === input.username.toLowerCase())) {
      throw new AppError("CONFLICT", USERNAME_TAKEN);
    }
    if (clash.length > 0) throw new AppError("CONFLICT", EMAIL_TAKEN);
    const [{ existing } = { existing: 0 }] = await tx
      .select({ existing: sql<number>`count(*)::int` })
      .from(users);
    const [user] = await tx
      .insert(users)
      .values({
        username: input.username,
        email: input.email,
        passwordHash,
        pgyLevel: input.pgyLevel,
        isAdmin: existing === 0,
        timeZone: validTimeZone(meta.timeZone) ?? "UTC",
        createdAt: meta.now,
        lastLogin: meta.now,
      })
      .returning();
    await meta.afterInsert?.(tx, user!);
    const { token, session } = await createSession(tx, user!.id, meta.now, meta.userAgent);
    return { user: user!, token, expiresAt: session.expiresAt };
  });
}

/** 'N minutes', in the singular for one minute. */
const minutesText = (n: number) => `${n} minute${n === 1 ? "" : "s"}`;

/** docs/product/product-decisions.md's throttled text ("… in N minutes."), in the singular for one minute. */
export function signInThrottledMessage(wait: number): string {
  return `Too many sign-in attempts. Please try again in ${minutesText(wait)}.`;
}

/**
 * Counts a password check before the password is verified, so parallel guesses cannot overrun the
 * limit; past it, 429 with the minutes to wait in `message`'s words.
 */
async function reservePasswordCheck(
  db: Db,
  usernameKey: string,
  meta: { now: Date; ip: string; limits: ThrottleLimits },
  message: (minutes: number) => string,
): Promise<void> {
  const blockedMinutes = await reserveSignInAttempt(
    db,
    usernameKey,
    meta.ip,
    meta.now,
    meta.limits,
  );
  if (blockedMinutes > 0) throw new AppError("TOO_MANY_REQUESTS", message(blockedMinutes));
}

/** The password change's throttled text, in the sign-in message's words. */
export function passwordChecksThrottledMessage(wait: number): string {
  return `Too many wrong passwords. Please try again in ${minutesText(wait)}.`;
}

/** Registration per address (issue 24 item 7). */
export function registrationThrottledMessage(wait: number): string {
  return `Too many accounts created from this address. Please try again in ${minutesText(wait)}.`;
}

export async function loginUser(
  db: Db,
  input: TLoginInput,
  meta: {
    now: Date;
    ip: string;
    timeZone: string | null;
    limits: ThrottleLimits;
    userAgent?: string;
  },
): Promise<{ user: UserRow; token: string; expiresAt: Date }> {
  const usernameKey = input.username.trim().toLowerCase();
  await reservePasswordCheck(db, usernameKey, meta, signInThrottledMessage);
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${usernameKey}`)
    .limit(1);
  const ok = user
    ? await verifyPassword(user.passwordHash, input.password)
    : (await burnPasswordCheck(input.password), false);
  // A failure is already recorded: the reserved attempt stays.
  if (!user || !ok) throw new AppError("UNAUTHORIZED", INVALID_CREDENTIALS);
  return db.transaction(async (tx) => {
    await clearSignInFailures(tx, usernameKey, meta.ip);
    await pruneSignInFailures(tx, meta.now, meta.limits);
    const timeZone = validTimeZone(meta.timeZone) ?? user.timeZone;
    const [updated] = await tx
      .update(users)
      .set({ lastLogin: meta.now, timeZone })
      .where(eq(users.id, user.id))
      .returning();
    const origin = { ip: meta.ip, userAgent: meta.userAgent ?? "" };
    await recordSignIn(tx, user, origin, meta.now, "password");
    const { token, session } = await createSession(tx, user.id, meta.now, meta.userAgent);
    return { user: updated!, token, expiresAt: session.expiresAt };
  });
}

export async function logoutSession(db: Db, sessionId: string): Promise<void> {
  await invalidateSession(db, sessionId);
}

/**
 * A password change checks the current password like a sign-in: counted in the sign-in throttle's
 * store before it is verified, 429 with the minutes to wait past the limit (issue 24), so a stolen
 * session is no password oracle.
 */
export async function changePassword(
  db: Db,
  user: UserRow,
  currentSessionId: string,
  input: { currentPassword: string; newPassword: string },
  meta: { now: Date; ip: string; limits: ThrottleLimits },
): Promise<void> {
  const usernameKey = user.username.toLowerCase();
  await reservePasswordCheck(db, usernameKey, meta, passwordChecksThrottledMessage);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError("BAD_REQUEST", "Current password is incorrect");
  }
  await clearSignInFailures(db, usernameKey, meta.ip);
  if (await isCommonPassword(input.newPassword)) {
    throw new AppError("BAD_REQUEST", COMMON_PASSWORD_MESSAGE);
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    // Every other device signs in again; this one stays signed in.
    await invalidateUserSessions(tx, user.id, { except: currentSessionId });
  });
}
