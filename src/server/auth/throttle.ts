import { and, count, eq, gt, lt } from "drizzle-orm";
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

/** Minutes until sign-in is allowed again, or 0 when it is allowed now. */
export async function signInBlockedFor(
  db: Db,
  usernameKey: string,
  ip: string,
  now: Date,
  limits: ThrottleLimits,
): Promise<number> {
  const since = new Date(now.getTime() - limits.windowMinutes * 60_000);
  const userRows = await db
    .select({ at: loginAttempts.attemptedAt })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.usernameKey, usernameKey), gt(loginAttempts.attemptedAt, since)))
    .orderBy(loginAttempts.attemptedAt);
  const [ipCount] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.ip, ip), gt(loginAttempts.attemptedAt, since)));
  const waitUntil = (oldest: Date) =>
    Math.max(
      1,
      Math.ceil((oldest.getTime() + limits.windowMinutes * 60_000 - now.getTime()) / 60_000),
    );
  if (userRows.length >= limits.maxPerUser) {
    // The window slides: the block lifts when enough old failures fall out of it.
    const pivot = userRows[userRows.length - limits.maxPerUser]!;
    return waitUntil(pivot.at);
  }
  if ((ipCount?.n ?? 0) >= limits.maxPerIp) return limits.windowMinutes;
  return 0;
}

export async function recordSignInFailure(
  db: Db,
  usernameKey: string,
  ip: string,
  now: Date,
): Promise<void> {
  await db.insert(loginAttempts).values({ usernameKey, ip, attemptedAt: now });
}

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
