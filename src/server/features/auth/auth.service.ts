import { eq, sql } from "drizzle-orm";
import type { TLoginInput, TRegisterInput } from "../../../core/schemas";
import { isValidTimeZone } from "../../../core/stats";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../../auth/password";
import { createSession, invalidateSession, invalidateUserSessions } from "../../auth/session";
import {
  clearSignInFailures,
  pruneSignInFailures,
  reserveSignInAttempt,
  type ThrottleLimits,
} from "../../auth/throttle";
import type { Db } from "../../db/client";
import { users, type UserRow } from "../../db/schema";
import { AppError } from "../../errors";

export const INVALID_CREDENTIALS = "Invalid username or password";
export const USERNAME_TAKEN = "Username is already taken";
export const EMAIL_TAKEN = "An account with this email already exists";

// Any constant works: it only serialises first sign-ups so exactly one becomes admin.
const FIRST_ADMIN_LOCK = 70_111_001;

/** The zone when this runtime knows it (formatters cached per zone: every dashboard view asks). */
export function validTimeZone(tz: string | null | undefined): string | null {
  return tz && isValidTimeZone(tz) ? tz : null;
}

export async function registerUser(
  db: Db,
  input: TRegisterInput,
  meta: { now: Date; timeZone: string | null },
): Promise<{ user: UserRow; token: string; expiresAt: Date }> {
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
    const { token, session } = await createSession(tx, user!.id, meta.now);
    return { user: user!, token, expiresAt: session.expiresAt };
  });
}

/** DESIGN §7's throttled text ("… in N minutes."), in the singular for one minute. */
export function signInThrottledMessage(minutes: number): string {
  return `Too many sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

export async function loginUser(
  db: Db,
  input: TLoginInput,
  meta: { now: Date; ip: string; timeZone: string | null; limits: ThrottleLimits },
): Promise<{ user: UserRow; token: string; expiresAt: Date }> {
  const usernameKey = input.username.trim().toLowerCase();
  // The attempt is counted before the password is checked, so parallel guesses cannot overrun the limit.
  const blockedMinutes = await reserveSignInAttempt(
    db,
    usernameKey,
    meta.ip,
    meta.now,
    meta.limits,
  );
  if (blockedMinutes > 0) {
    throw new AppError("TOO_MANY_REQUESTS", signInThrottledMessage(blockedMinutes));
  }
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
    await clearSignInFailures(tx, usernameKey);
    await pruneSignInFailures(tx, meta.now, meta.limits);
    const timeZone = validTimeZone(meta.timeZone) ?? user.timeZone;
    const [updated] = await tx
      .update(users)
      .set({ lastLogin: meta.now, timeZone })
      .where(eq(users.id, user.id))
      .returning();
    const { token, session } = await createSession(tx, user.id, meta.now);
    return { user: updated!, token, expiresAt: session.expiresAt };
  });
}

export async function logoutSession(db: Db, sessionId: string): Promise<void> {
  await invalidateSession(db, sessionId);
}

export async function changePassword(
  db: Db,
  user: UserRow,
  currentSessionId: string,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError("BAD_REQUEST", "Current password is incorrect");
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    // Every other device signs in again; this one stays signed in.
    await invalidateUserSessions(tx, user.id, { except: currentSessionId });
  });
}
