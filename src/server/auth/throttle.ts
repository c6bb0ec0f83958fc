import { and, desc, eq, gt, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { loginAttempts } from "../db/schema";

export interface ThrottleLimits {
  maxPerUser: number;
  maxPerIp: number;
  windowMinutes: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = {
  maxPerUser: 10,
  maxPerIp: 100,
  windowMinutes: 10,
};

// Advisory lock classes (the first key of pg_advisory_xact_lock(int, int)); any constants work.
const USERNAME_LOCK = 70_111_010;
const IP_LOCK = 70_111_011;

/**
 * When the block on one key (a username or an IP) lifts, or null when that key is not blocked.
 * The window slides: the block lifts when the `max`-th newest attempt falls out of it.
 */
async function blockedUntil(
  db: Db,
  key: SQL,
  max: number,
  now: Date,
  windowMs: number,
): Promise<number | null> {
  const [pivot] = await db
    .select({ at: loginAttempts.attemptedAt })
    .from(loginAttempts)
    .where(and(key, gt(loginAttempts.attemptedAt, new Date(now.getTime() - windowMs))))
    .orderBy(desc(loginAttempts.attemptedAt))
    .offset(max - 1)
    .limit(1);
  return pivot ? pivot.at.getTime() + windowMs : null;
}

/** Whole minutes until sign-in is allowed again (at least 1), or 0 when it is allowed now. */
export async function signInBlockedFor(
  db: Db,
  usernameKey: string,
  ip: string,
  now: Date,
  limits: ThrottleLimits,
): Promise<number> {
  const windowMs = limits.windowMinutes * 60_000;
  const until = Math.max(
    (await blockedUntil(
      db,
      eq(loginAttempts.usernameKey, usernameKey),
      limits.maxPerUser,
      now,
      windowMs,
    )) ?? 0,
    (await blockedUntil(db, eq(loginAttempts.ip, ip), limits.maxPerIp, now, windowMs)) ?? 0,
  );
  if (until <= now.getTime()) return 0;
  return Math.max(1, Math.ceil((until - now.getTime()) / 60_000));
}

/**
 * Checks the limits and records the attempt in one step, before the password is verified: under a lock
 * on the username and one on the IP, so parallel guesses cannot all pass the check before any of them
 * is counted. The caller deletes the attempt again when the password turns out right
 * (docs/decisions/060-sign-in-throttle-under-concurrency.md).
 * Answers the minutes to wait when blocked (nothing recorded), or 0 when the attempt was recorded.
 */
export async function reserveSignInAttempt(
  db: Db,
  usernameKey: string,
  ip: string,
  now: Date,
  limits: ThrottleLimits,
): Promise<number> {
  return db.transaction(async (tx) => {
    // Always the username first, then the IP: one order, so two sign-ins can never deadlock.
    await tx.execute(sql`select pg_advisory_xact_lock(${USERNAME_LOCK}, hashtext(${usernameKey}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(${IP_LOCK}, hashtext(${ip}))`);
    const blockedMinutes = await signInBlockedFor(tx, usernameKey, ip, now, limits);
    if (blockedMinutes > 0) return blockedMinutes;
    await tx.insert(loginAttempts).values({ usernameKey, ip, attemptedAt: now });
    return 0;
  });
}

/** A successful sign-in forgets the username's failures, the reserved attempt among them. */
export async function clearSignInFailures(db: Db, usernameKey: string): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.usernameKey, usernameKey));
}

/** Old rows are worthless once outside every window; trimming keeps the table small. */
export async function pruneSignInFailures(
  db: Db,
  now: Date,
  limits: ThrottleLimits,
): Promise<void> {
  await db
    .delete(loginAttempts)
    .where(lt(loginAttempts.attemptedAt, new Date(now.getTime() - limits.windowMinutes * 60_000)));
}
