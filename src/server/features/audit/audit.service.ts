import { and, desc, eq, gte, lt, or, sql, type SQL } from "drizzle-orm";
import { USER_AGENT_MAX } from "../../auth/session";
import type { AuditKind } from "../../../core/audit";
import type { Db } from "../../db/client";
import { queryRows } from "../../db/raw";
import { auditEvents, sessions, type AuditEventRow } from "../../db/schema";

export { AUDIT_KINDS, type AuditKind } from "../../../core/audit";

/** An account as the log keeps it: the id (null once deleted) and the username as text. */
export interface AuditUser {
  id: string | null;
  username: string;
}

/** Where a request came from: the address as the server sees it (TRUST_PROXY-aware) and its User-Agent. */
export interface AuditOrigin {
  ip: string;
  userAgent: string;
}

export interface AuditEvent {
  kind: AuditKind;
  /** Who acted; null for the server itself (a scheduled backup) or a local command. */
  actor: AuditUser | null;
  /** Whom it concerned, when that is not the actor. */
  target?: AuditUser | null;
  detail?: Record<string, unknown>;
  origin: AuditOrigin;
  at: Date;
}

/** Where and when an act happened, as its service receives it. */
export interface AuditMeta {
  origin: AuditOrigin;
  at: Date;
}

/** A procedure's caller as the log records where it came from. */
export function auditMeta(ctx: { ip: string; userAgent: string; now: () => Date }): AuditMeta {
  return { origin: { ip: ctx.ip, userAgent: ctx.userAgent }, at: ctx.now() };
}

/** The origin of what the server does on its own, and of local `prite` commands. */
export const SERVER_ORIGIN: AuditOrigin = { ip: "local", userAgent: "" };

/**
 * Writes one entry. Callers pass the transaction of the act they record, so a failed act leaves no
 * entry and a recorded one cannot be lost.
 */
export async function recordAudit(tx: Db, event: AuditEvent): Promise<void> {
  await tx.insert(auditEvents).values({
    kind: event.kind,
    userId: event.actor?.id ?? null,
    username: event.actor?.username ?? "",
    targetUserId: event.target?.id ?? null,
    targetUsername: event.target?.username ?? "",
    detail: event.detail ?? {},
    ip: event.origin.ip,
    userAgent: event.origin.userAgent.slice(0, USER_AGENT_MAX),
    createdAt: event.at,
  });
}

/**
 * A device is a User-Agent string: new when no other session of the account, and no earlier entry of
 * the log, carries it. Called before the new session is written.
 */
export async function isNewDevice(tx: Db, userId: string, fullUserAgent: string): Promise<boolean> {
  const userAgent = fullUserAgent.slice(0, USER_AGENT_MAX);
  const [seen] = await queryRows<{ seen: boolean }>(
    tx,
    sql`select exists (select 1 from ${sessions} where ${sessions.userId} = ${userId} and ${sessions.userAgent} = ${userAgent})
      or exists (select 1 from ${auditEvents} where ${auditEvents.userId} = ${userId} and ${auditEvents.userAgent} = ${userAgent}) as seen`,
  );
  return !seen?.seen;
}

/** A sign-in, recorded when it comes from a device the account has not used before. */
export async function recordSignIn(
  tx: Db,
  user: { id: string; username: string },
  origin: AuditOrigin,
  at: Date,
  method: "password" | "sso" | "registration",
): Promise<void> {
  if (!(await isNewDevice(tx, user.id, origin.userAgent))) return;
  await recordAudit(tx, {
    kind: "sign_in.new_device",
    actor: user,
    detail: { method },
    origin,
    at,
  });
}

export interface AuditEntryJson {
  id: string;
  kind: string;
  userId: string | null;
  username: string;
  targetUsername: string;
  detail: Record<string, unknown>;
  ip: string;
  userAgent: string;
  createdAt: string;
}

export interface AuditQuery {
  username?: string;
  kind?: string;
  since?: Date;
  /** The `nextCursor` of the page before. */
  cursor?: string;
  limit: number;
}

function entryJson(row: AuditEventRow): AuditEntryJson {
  return {
    id: row.id,
    kind: row.kind,
    userId: row.userId,
    username: row.username,
    targetUsername: row.targetUsername,
    detail: row.detail,
    ip: row.ip,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
  };
}

// A cursor is the last entry's time and id: entries written at the same instant keep their order.
const encodeCursor = (row: AuditEventRow) =>
  Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");
function decodeCursor(cursor: string): { at: Date; id: string } | null {
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const date = new Date(at ?? "");
  if (!id || Number.isNaN(date.getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) return null;
  return { at: date, id };
}

/** Newest first; a username matches whoever acted or was acted on. */
export async function listAudit(
  db: Db,
  query: AuditQuery,
): Promise<{ entries: AuditEntryJson[]; nextCursor: string | null }> {
  const where: SQL[] = [];
  if (query.username) {
    const name = query.username.trim().toLowerCase();
    where.push(
      or(
        sql`lower(${auditEvents.username}) = ${name}`,
        sql`lower(${auditEvents.targetUsername}) = ${name}`,
      )!,
    );
  }
  if (query.kind) where.push(eq(auditEvents.kind, query.kind));
  if (query.since) where.push(gte(auditEvents.createdAt, query.since));
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  if (after) {
    where.push(
      or(
        lt(auditEvents.createdAt, after.at),
        and(eq(auditEvents.createdAt, after.at), lt(auditEvents.id, after.id)),
      )!,
    );
  }
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(...where))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    entries: page.map(entryJson),
    nextCursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null,
  };
}

/** Deletes entries older than `retentionDays`; safe when several processes sweep together. */
export async function sweepAudit(db: Db, now: Date, retentionDays: number): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000);
  const deleted = await db
    .delete(auditEvents)
    .where(lt(auditEvents.createdAt, cutoff))
    .returning({ id: auditEvents.id });
  return deleted.length;
}
