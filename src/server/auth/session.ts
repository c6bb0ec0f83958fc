import { createHash } from "node:crypto";
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { prepared } from "../db/prepared";
import { sessions, users, type SessionRow, type UserRow } from "../db/schema";
import type { SessionCache } from "./session-cache";

const DAY_MS = 24 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 30 * DAY_MS;
export const SESSION_RENEW_THRESHOLD_MS = 15 * DAY_MS;

/** 20 random bytes (160 bits) as base32: only its SHA-256 is ever stored. */
export function generateSessionToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

export function sessionIdFromToken(token: string): string {
  // Node's native SHA-256: every authenticated request hashes its token (1.7% of a due-page request's
  // CPU with @oslojs's JavaScript one, issue 20).
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** How stale a session's `lastUsedAt` may grow before a request moves it (one write per this). */
export const SESSION_LAST_USED_STEP_MS = 5 * 60 * 1000;
export const USER_AGENT_MAX = 256;

export async function createSession(
  db: Db,
  userId: string,
  now: Date,
  userAgent = "",
): Promise<{ token: string; session: SessionRow }> {
  const token = generateSessionToken();
  const [session] = await db
    .insert(sessions)
    .values({
      id: sessionIdFromToken(token),
      userId,
      expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
      createdAt: now,
      userAgent: userAgent.slice(0, USER_AGENT_MAX),
      lastUsedAt: now,
    })
    .returning();
  return { token, session: session! };
}

export interface ValidatedSession {
  session: SessionRow;
  user: UserRow;
  renewed: boolean;
}

export async function validateSessionToken(
  db: Db,
  token: string,
  now: Date,
  cache?: SessionCache,
): Promise<ValidatedSession | null> {
  // Tokens are base32 of 20 bytes: anything else cannot be ours, so skip the lookup.
  if (!/^[a-z2-7]{32}$/.test(token)) return null;
  const id = sessionIdFromToken(token);
  const cached = cache?.get(id, now.getTime());
  // A session due for renewal goes to the database, which renews it.
  if (cached && cached.session.expiresAt.getTime() - now.getTime() >= SESSION_RENEW_THRESHOLD_MS) {
    return { session: cached.session, user: cached.user, renewed: false };
  }
  const epoch = cache?.epoch ?? 0;
  // Every authenticated request runs this: prepared once per handle (src/server/db/prepared.ts).
  const rows = await prepared(db, "validate_session", (d, name) =>
    d
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.id, sql.placeholder("id")))
      .limit(1)
      .prepare(name),
  ).execute({ id });
  const row = rows[0];
  if (!row) return null;
  if (row.session.expiresAt.getTime() <= now.getTime()) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  const lastUsed = (row.session.lastUsedAt ?? row.session.createdAt).getTime();
  const lastUsedAt = now.getTime() - lastUsed >= SESSION_LAST_USED_STEP_MS ? now : undefined;
  if (row.session.expiresAt.getTime() - now.getTime() < SESSION_RENEW_THRESHOLD_MS) {
    const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
    await db
      .update(sessions)
      .set({ expiresAt, ...(lastUsedAt && { lastUsedAt }) })
      .where(eq(sessions.id, id));
    const session = { ...row.session, expiresAt, lastUsedAt: lastUsedAt ?? row.session.lastUsedAt };
    return { session, user: row.user, renewed: true };
  }
  // Settings' session list reads it; migration 0027 keeps this write off 'auth_changed'.
  if (lastUsedAt) await db.update(sessions).set({ lastUsedAt }).where(eq(sessions.id, id));
  const session = lastUsedAt ? { ...row.session, lastUsedAt } : row.session;
  cache?.store(id, { session, user: row.user }, epoch, now.getTime());
  return { session, user: row.user, renewed: false };
}

export async function invalidateSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

export async function invalidateUserSessions(
  db: Db,
  userId: string,
  opts: { except?: string } = {},
): Promise<void> {
  await db
    .delete(sessions)
    .where(
      opts.except
        ? and(eq(sessions.userId, userId), ne(sessions.id, opts.except))
        : eq(sessions.userId, userId),
    );
}
