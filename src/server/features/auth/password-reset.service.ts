import { createHash } from "node:crypto";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { RESET_LINK_INVALID, type TResetPasswordInput } from "../../../core/schemas";
import { describeDevice } from "../../../core/user-agent";
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "../../auth/common-passwords";
import { hashPassword } from "../../auth/password";
import { invalidateUserSessions } from "../../auth/session";
import { reservePasswordResetRequest, type ThrottleLimits } from "../../auth/throttle";
import type { Db } from "../../db/client";
import { passwordResetTokens, sessions, users } from "../../db/schema";
import { AppError } from "../../errors";
import type { Mailer } from "../../mail/mailer";
import {
  recordAudit,
  type AuditMeta,
  type AuditOrigin,
  type AuditUser,
} from "../audit/audit.service";

/** A link asked for by email is short-lived; one an admin hands over must survive until it is read. */
export const EMAIL_RESET_LIFETIME_MS = 30 * 60 * 1000;
export const ADMIN_RESET_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * Every "Forgot password?" answer takes at least this long, so a known email (a token written, a mail
 * queued) cannot be told from an unknown one by timing (docs/decisions/325-password-recovery.md).
 */
export const FORGOT_PASSWORD_MIN_MS = 400;

export const MAIL_NOT_CONFIGURED =
  "Password reset by email is not set up on this server. Please ask your administrator for a reset link.";
export const FORGOT_PASSWORD_SENT =
  "If an account uses this email, a link to reset its password is on its way. It works for 30 minutes.";

export function resetThrottledMessage(wait: number): string {
  return `Too many password reset requests. Please try again in ${wait} minute${wait === 1 ? "" : "s"}.`;
}

const tokenHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** The page a link opens: `PUBLIC_URL/reset-password?token=…`, or the path alone without PUBLIC_URL. */
export function resetLinkPath(token: string): string {
  return `/reset-password?token=${encodeURIComponent(token)}`;
}

async function createResetToken(
  db: Db,
  userId: string,
  kind: "email" | "admin",
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  const token = encodeBase64urlNoPadding(bytes);
  const lifetime = kind === "email" ? EMAIL_RESET_LIFETIME_MS : ADMIN_RESET_LIFETIME_MS;
  const expiresAt = new Date(now.getTime() + lifetime);
  await db
    .insert(passwordResetTokens)
    .values({ id: tokenHash(token), userId, kind, expiresAt, createdAt: now });
  return { token, expiresAt };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * "Forgot password?": the same answer, after at least FORGOT_PASSWORD_MIN_MS, whether or not an
 * account has the email; the mail goes out after the answer, off the request's path.
 */
export async function requestPasswordReset(
  db: Db,
  email: string,
  meta: {
    now: Date;
    ip: string;
    limits: ThrottleLimits;
    mailer: Mailer | null;
    publicUrl: string | null;
    onMailError?: (err: unknown) => void;
    userAgent: string;
  },
): Promise<{ success: true; message: string }> {
  const { mailer, publicUrl } = meta;
  if (!mailer || !publicUrl) throw new AppError("SERVICE_UNAVAILABLE", MAIL_NOT_CONFIGURED);
  const started = performance.now();
  const emailKey = email.trim().toLowerCase();
  const minutes = await reservePasswordResetRequest(db, emailKey, meta.ip, meta.now, meta.limits);
  if (minutes > 0) throw new AppError("TOO_MANY_REQUESTS", resetThrottledMessage(minutes));
  const [user] = await db
    .select({ id: users.id, email: users.email, username: users.username })
    .from(users)
    .where(sql`lower(${users.email}) = ${emailKey}`)
    .limit(1);
  if (user) {
    const { token } = await db.transaction(async (tx) => {
      await recordAudit(tx, {
        kind: "password_reset.requested",
        actor: null,
        target: user,
        detail: { by: "email" },
        origin: { ip: meta.ip, userAgent: meta.userAgent },
        at: meta.now,
      });
      return createResetToken(tx, user.id, "email", meta.now);
    });
    const link = `${publicUrl}${resetLinkPath(token)}`;
    void mailer
      .send({
        to: user.email,
        subject: "Reset your PRITE Study password",
        text: [
          `Hello ${user.username},`,
          "",
          "Someone (hopefully you) asked to reset the password of your PRITE Study account.",
          "Open this link within 30 minutes to choose a new one:",
          "",
          link,
          "",
          "If you did not ask for this, ignore this email: your password stays as it is.",
        ].join("\n"),
      })
      .catch((err: unknown) => meta.onMailError?.(err));
  }
  const left = FORGOT_PASSWORD_MIN_MS - (performance.now() - started);
  if (left > 0) await sleep(left);
  return { success: true, message: FORGOT_PASSWORD_SENT };
}

/** An admin's one-time link for `username`, valid 24 hours; `url` is null without PUBLIC_URL. */
export async function createAdminResetLink(
  db: Db,
  username: string,
  meta: { now: Date; publicUrl: string | null; actor: AuditUser; origin: AuditOrigin },
): Promise<{ username: string; path: string; url: string | null; expiresAt: Date }> {
  const [user] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username.trim()})`)
    .limit(1);
  if (!user) throw new AppError("NOT_FOUND", "User not found");
  const { token, expiresAt } = await db.transaction(async (tx) => {
    await recordAudit(tx, {
      kind: "password_reset.link_created",
      actor: meta.actor,
      target: user,
      origin: meta.origin,
      at: meta.now,
    });
    return createResetToken(tx, user.id, "admin", meta.now);
  });
  const path = resetLinkPath(token);
  return {
    username: user.username,
    path,
    url: meta.publicUrl ? `${meta.publicUrl}${path}` : null,
    expiresAt,
  };
}

/**
 * Sets a new password through a link: the token is taken (deleted) in the same transaction that
 * changes the password, so two uses of one link cannot both succeed; every session of the account
 * ends and every other link of it dies. A link that was used, has expired or never existed changes
 * nothing and reads RESET_LINK_INVALID.
 */
export async function resetPassword(
  db: Db,
  input: TResetPasswordInput,
  meta: AuditMeta,
): Promise<{ success: true; message: string }> {
  const id = tokenHash(input.token);
  const [live] = await db
    .select({ userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .where(and(eq(passwordResetTokens.id, id), gt(passwordResetTokens.expiresAt, meta.at)))
    .limit(1);
  if (!live) throw new AppError("BAD_REQUEST", RESET_LINK_INVALID);
  if (await isCommonPassword(input.password)) {
    throw new AppError("BAD_REQUEST", COMMON_PASSWORD_MESSAGE);
  }
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const [taken] = await tx
      .delete(passwordResetTokens)
      .where(and(eq(passwordResetTokens.id, id), gt(passwordResetTokens.expiresAt, meta.at)))
      .returning({ userId: passwordResetTokens.userId, kind: passwordResetTokens.kind });
    if (!taken) throw new AppError("BAD_REQUEST", RESET_LINK_INVALID);
    const [account] = await tx
      .update(users)
      .set({ passwordHash })
      .where(eq(users.id, taken.userId))
      .returning({ id: users.id, username: users.username });
    await recordAudit(tx, {
      kind: "password_reset.completed",
      actor: account ?? null,
      detail: { link: taken.kind },
      ...meta,
    });
    await invalidateUserSessions(tx, taken.userId);
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, taken.userId));
  });
  return { success: true, message: "Your password has been reset. Please sign in." };
}

export interface SessionInfo {
  device: string;
  createdAt: string;
  lastUsedAt: string;
  current: boolean;
}

/** The account's live sessions, the current one first, then the most recently used. */
export async function listSessions(
  db: Db,
  userId: string,
  currentSessionId: string,
  now: Date,
): Promise<SessionInfo[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sql`coalesce(${sessions.lastUsedAt}, ${sessions.createdAt})`));
  return rows
    .map((s) => ({
      device: describeDevice(s.userAgent),
      createdAt: s.createdAt.toISOString(),
      lastUsedAt: (s.lastUsedAt ?? s.createdAt).toISOString(),
      current: s.id === currentSessionId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** "Sign out everywhere else": every session of the account but this one ends. */
export async function signOutOtherSessions(
  db: Db,
  userId: string,
  currentSessionId: string,
): Promise<{ success: true }> {
  await invalidateUserSessions(db, userId, { except: currentSessionId });
  return { success: true };
}
