import { and, desc, eq, gt, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { queryRows } from "../db/raw";
import { loginAttempts } from "../db/schema";

export interface ThrottleLimits {
  /** Failed password checks for one account from one address. */
  maxPerUser: number;
  /** Failed password checks from one address, all accounts together. */
  maxPerIp: number;
  /**
   * Failed password checks for one account from all addresses together: the ceiling on distributed
   * guessing, ten times the per-address limit by default, so one address can never reach it alone.
   */
  maxPerAccount?: number;
  windowMinutes: number;
  /** Accounts created from one address per hour (0: unlimited). */
  registrationsPerHour?: number;
  /** Password reset emails asked for one address (email) per hour, from all places (issue 33). */
  resetRequestsPerAccount?: number;
  /** Password reset emails asked for from one address per hour, all accounts together. */
  resetRequestsPerIp?: number;
}

const DEFAULT_RESET_REQUESTS_PER_ACCOUNT = 5;
const DEFAULT_RESET_REQUESTS_PER_IP = 30;

export const DEFAULT_THROTTLE: ThrottleLimits = {
  maxPerUser: 10,
  maxPerIp: 100,
  maxPerAccount: 100,
  windowMinutes: 10,
  registrationsPerHour: 10,
};

const SIGN_IN = "sign-in";
const REGISTER = "register";
const RESET_REQUEST = "reset-request";
const REGISTRATION_WINDOW_MS = 60 * 60_000;

// Advisory lock classes (the first key of pg_advisory_xact_lock(int, int)); any constants work.
const USERNAME_LOCK = 70_111_010;
const IP_LOCK = 70_111_011;

/**
 * When the block on one key (an account, an address, or both) lifts, or null when that key is not
 * blocked. The window slides: the block lifts when the `max`-th newest attempt falls out of it.
 */
async function blockedUntil(
  db: Db,
  key: SQL | undefined,
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

/**
 * The `max`-th newest attempt within the window on one key (an account, an address, or both), as a
 * scalar subquery: the block on that key lifts when this attempt falls out of the window; null when
 * the key is not blocked.
 */
function pivotOf(key: SQL | undefined, max: number, since: Date): SQL {
  return sql`(select ${loginAttempts.attemptedAt} from ${loginAttempts} where ${and(key, gt(loginAttempts.attemptedAt, since))} order by ${loginAttempts.attemptedAt} desc offset ${max - 1} limit 1)`;
}

function minutesUntil(until: number, now: Date): number {
  if (until <= now.getTime()) return 0;
  return Math.max(1, Math.ceil((until - now.getTime()) / 60_000));
}

/**
 * Always the account first, then the IP: one order, so two attempts can never deadlock. One statement
 * (evaluated left to right), so the locks cost one round trip: every sign-in from one address waits on
 * the address's lock, so the time it is held is what 8 sign-ins at once from one network wait for.
 */
async function lockAccountAndAddress(tx: Db, accountKey: string, ip: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(${USERNAME_LOCK}, hashtext(${accountKey})), pg_advisory_xact_lock(${IP_LOCK}, hashtext(${ip}))`,
  );
}

/**
 * The three blocks on a sign-in as scalar subqueries of one row (per account and address, per address,
 * per account from all addresses with a ceiling one address cannot reach: another address's failures
 * never lock an owner out, docs/decisions/160-no-targeted-lockout.md), each the attempt whose leaving
 * the window lifts it, or null.
 */
function signInPivots(usernameKey: string, ip: string, now: Date, limits: ThrottleLimits): SQL {
  const since = new Date(now.getTime() - limits.windowMinutes * 60_000);
  const signIn = eq(loginAttempts.kind, SIGN_IN);
  const account = eq(loginAttempts.usernameKey, usernameKey);
  const address = eq(loginAttempts.ip, ip);
  const maxPerAccount = limits.maxPerAccount ?? limits.maxPerUser * 10;
  return sql`${pivotOf(and(signIn, account, address), limits.maxPerUser, since)} as per_user, ${pivotOf(and(signIn, address), limits.maxPerIp, since)} as per_ip, ${pivotOf(and(signIn, account), maxPerAccount, since)} as per_account`;
}

type Pivot = Date | string | null;
interface PivotRow extends Record<string, unknown> {
  per_user: Pivot;
  per_ip: Pivot;
  per_account: Pivot;
}

/** Whole minutes until the latest of the three blocks lifts (at least 1), or 0 when none holds. */
function blockedMinutesOf(row: PivotRow | undefined, now: Date, limits: ThrottleLimits): number {
  const windowMs = limits.windowMinutes * 60_000;
  const until = Math.max(
    ...[row?.per_user, row?.per_ip, row?.per_account].map((p) =>
      p === null || p === undefined ? 0 : new Date(p).getTime() + windowMs,
    ),
  );
  return minutesUntil(until, now);
}

/**
 * Whole minutes until a password check is allowed again (at least 1), or 0 when it is allowed now:
 * one statement for the three limits.
 */
export async function signInBlockedFor(
  db: Db,
  usernameKey: string,
  ip: string,
  now: Date,
  limits: ThrottleLimits,
): Promise<number> {
  const [row] = await queryRows<PivotRow>(
    db,
    sql`select ${signInPivots(usernameKey, ip, now, limits)}`,
  );
  return blockedMinutesOf(row, now, limits);
}

/**
 * Checks the limits and records the attempt in one step, before the password is verified: under a lock
 * on the username and one on the IP, so parallel guesses cannot all pass the check before any of them
 * is counted. The caller forgets the attempt again when the password turns out right
 * (docs/decisions/060-sign-in-throttle-under-concurrency.md). Sign-in and the current password of a
 * password change share this store and these limits.
 * Answers the minutes to wait when blocked (nothing recorded), or 0 when the attempt was recorded.
 */
export async function reserveSignInAttempt(
  db: Db,
  usernameKey: string,
  ip: string,
  now: Date,
  limits: ThrottleLimits,
): Promise<number> {
  // Under the locks, one statement reads the three limits and records the attempt when none holds
  // (issue 35 item 4: the address's lock is held for four round trips instead of eight). The check
  // reads after the locks are taken, in a statement of its own, so it sees every attempt recorded
  // before them (decision 060).
  return db.transaction(async (tx) => {
    await lockAccountAndAddress(tx, usernameKey, ip);
    const [row] = await queryRows<PivotRow>(
      tx,
      sql`with pivots as (select ${signInPivots(usernameKey, ip, now, limits)}),
        recorded as (
          insert into ${loginAttempts} (username_key, ip, kind, attempted_at)
          select ${usernameKey}::text, ${ip}::text, ${SIGN_IN}::text, ${now.toISOString()}::timestamptz
          from pivots where per_user is null and per_ip is null and per_account is null
          returning 1
        )
        select per_user, per_ip, per_account from pivots`,
    );
    return blockedMinutesOf(row, now, limits);
  });
}

/**
 * A right password forgets this account's failures from this address (the reserved attempt among
 * them); failures from other addresses still count toward the account's ceiling.
 */
export async function clearSignInFailures(db: Db, usernameKey: string, ip: string): Promise<void> {
  await db
    .delete(loginAttempts)
    .where(
      and(
        eq(loginAttempts.kind, SIGN_IN),
        eq(loginAttempts.usernameKey, usernameKey),
        eq(loginAttempts.ip, ip),
      ),
    );
}

/**
 * Registration per address (issue 24): counts the accounts created from `ip` in the last hour and
 * records this one, under the address's lock. Answers the minutes to wait, or 0 when recorded.
 */
export async function reserveRegistration(
  db: Db,
  ip: string,
  now: Date,
  limits: ThrottleLimits,
): Promise<number> {
  const max = limits.registrationsPerHour ?? 0;
  if (max <= 0) return 0;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${IP_LOCK}, hashtext(${ip}))`);
    const until = await blockedUntil(
      tx,
      and(eq(loginAttempts.kind, REGISTER), eq(loginAttempts.ip, ip)),
      max,
      now,
      REGISTRATION_WINDOW_MS,
    );
    const minutes = minutesUntil(until ?? 0, now);
    if (minutes > 0) return minutes;
    await tx
      .insert(loginAttempts)
      .values({ usernameKey: "", ip, kind: REGISTER, attemptedAt: now });
    return 0;
  });
}

/**
 * "Forgot password?" per account (the email asked about, whether or not an account has it, so the
 * limit says nothing about who is registered) and per address, within the hour, counted and
 * recorded in one step under the same locks as sign-in. Answers the minutes to wait, or 0 when
 * recorded; rows older than the hour go with `pruneSignInFailures`.
 */
export async function reservePasswordResetRequest(
  db: Db,
  emailKey: string,
  ip: string,
  now: Date,
  limits: ThrottleLimits,
): Promise<number> {
  return db.transaction(async (tx) => {
    await lockAccountAndAddress(tx, emailKey, ip);
    const kind = eq(loginAttempts.kind, RESET_REQUEST);
    const window = REGISTRATION_WINDOW_MS;
    const perAccount = limits.resetRequestsPerAccount ?? DEFAULT_RESET_REQUESTS_PER_ACCOUNT;
    const perIp = limits.resetRequestsPerIp ?? DEFAULT_RESET_REQUESTS_PER_IP;
    const account = and(kind, eq(loginAttempts.usernameKey, emailKey));
    const until = Math.max(
      (await blockedUntil(tx, account, perAccount, now, window)) ?? 0,
      (await blockedUntil(tx, and(kind, eq(loginAttempts.ip, ip)), perIp, now, window)) ?? 0,
    );
    const minutes = minutesUntil(until, now);
    if (minutes > 0) return minutes;
    await tx
      .insert(loginAttempts)
      .values({ usernameKey: emailKey, ip, kind: RESET_REQUEST, attemptedAt: now });
    return 0;
  });
}

/** Old rows are worthless once outside every window; trimming keeps the table small. */
export async function pruneSignInFailures(
  db: Db,
  now: Date,
  limits: ThrottleLimits,
): Promise<void> {
  const signInSince = new Date(now.getTime() - limits.windowMinutes * 60_000);
  const registerSince = new Date(now.getTime() - REGISTRATION_WINDOW_MS);
  await db
    .delete(loginAttempts)
    .where(
      or(
        and(eq(loginAttempts.kind, SIGN_IN), lt(loginAttempts.attemptedAt, signInSince)),
        lt(loginAttempts.attemptedAt, registerSince),
      ),
    );
}
