import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { LIMITS } from "../../../core/constants";
import { AUTH_MESSAGES, ZRegisterInput } from "../../../core/schemas";
import {
  emailDomainAllowed,
  passwordSignInOffMessage,
  proposedUsername,
  ssoAlreadyLinkedMessage,
  type SsoOutcome,
} from "../../../core/sso";
import type { OidcClaims } from "../../auth/oidc";
import { verifyPassword } from "../../auth/password";
import { createSession } from "../../auth/session";
import {
  clearSignInFailures,
  reserveSignInAttempt,
  type ThrottleLimits,
} from "../../auth/throttle";
import type { Db } from "../../db/client";
import { oidcIdentities, users, type UserRow } from "../../db/schema";
import { AppError } from "../../errors";
import { LOCAL_CALLER_IP, type Context } from "../../trpc/context";
import { recordSignIn } from "../audit/audit.service";
import { registerUser, signInThrottledMessage, validTimeZone } from "./auth.service";

/**
 * PASSWORD_SIGN_IN=off (issue 33): passwords are refused on every surface but the CLI's local mode,
 * which is how an operator still adds or promotes accounts.
 */
export function refusePasswordSignIn(ctx: Pick<Context, "config" | "ip">): void {
  const { signIn } = ctx.config;
  if (signIn.passwordSignIn || ctx.ip === LOCAL_CALLER_IP) return;
  throw new AppError("FORBIDDEN", passwordSignInOffMessage(signIn.ssoName ?? ""));
}

/** An identity the callback accepted, waiting for the account's details or the password (sealed). */
export interface PendingSso {
  kind: "create" | "link";
  issuer: string;
  subject: string;
  email: string;
  /** The account with the same email (kind "link"). */
  userId?: string;
}

export type SsoResolution =
  | { kind: "signed-in"; user: UserRow; token: string; expiresAt: Date }
  | { kind: "pending"; pending: PendingSso }
  | { kind: "refused"; outcome: SsoOutcome };

interface SignInMeta {
  now: Date;
  timeZone?: string | null;
  /** Shown in Settings' list of active sessions. */
  userAgent?: string;
  /** The caller's address as the server sees it, for the audit log. */
  ip?: string;
}

/**
 * What the provider's answer leads to: the linked account signs in; an unknown identity makes a new
 * account or, for an email the provider verified, links an existing one once its password confirms;
 * anything else is refused with a reason Sign In shows.
 */
export async function resolveSsoSignIn(
  db: Db,
  claims: OidcClaims,
  allowedDomains: readonly string[],
  meta: SignInMeta,
): Promise<SsoResolution> {
  if (!claims.email) return { kind: "refused", outcome: "no-email" };
  if (!emailDomainAllowed(claims.email, allowedDomains)) {
    return { kind: "refused", outcome: "domain" };
  }
  const [linked] = await db
    .select({ user: users })
    .from(oidcIdentities)
    .innerJoin(users, eq(users.id, oidcIdentities.userId))
    .where(
      and(eq(oidcIdentities.issuer, claims.issuer), eq(oidcIdentities.subject, claims.subject)),
    )
    .limit(1);
  if (linked) return { kind: "signed-in", ...(await startSession(db, linked.user, meta)) };
  const identity = { issuer: claims.issuer, subject: claims.subject, email: claims.email };
  const [sameEmail] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${claims.email})`)
    .limit(1);
  if (!sameEmail) return { kind: "pending", pending: { kind: "create", ...identity } };
  if (!claims.emailVerified) return { kind: "refused", outcome: "unverified" };
  return { kind: "pending", pending: { kind: "link", ...identity, userId: sameEmail.id } };
}

/** The first free username from the email (jane, jane2, jane3, …), for the completion screen. */
export async function freeUsername(db: Db, email: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const candidate = proposedUsername(email, attempt);
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = lower(${candidate})`)
      .limit(1);
    if (!taken) return candidate;
  }
  return proposedUsername(email, 50 + Math.floor(Math.random() * 1e6));
}

async function linkIdentity(db: Db, pending: PendingSso, userId: string, now: Date, name: string) {
  const inserted = await db
    .insert(oidcIdentities)
    .values({
      issuer: pending.issuer,
      subject: pending.subject,
      userId,
      email: pending.email,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ userId: oidcIdentities.userId });
  if (inserted.length === 0) throw new AppError("CONFLICT", ssoAlreadyLinkedMessage(name));
}

/**
 * The completion screen's account: the chosen username and PGY level, the provider's email, and a
 * password nobody knows (the account signs in with the provider; a reset can give it one later).
 */
export async function createSsoAccount(
  db: Db,
  pending: PendingSso,
  input: { username?: unknown; pgyLevel?: unknown },
  meta: SignInMeta & { ip: string; limits: ThrottleLimits; providerName: string },
) {
  if (pending.kind !== "create") throw new AppError("BAD_REQUEST", "Nothing to complete");
  const password = randomBytes(32).toString("base64url");
  const parsed = ZRegisterInput.safeParse({
    username: input.username,
    pgyLevel: input.pgyLevel,
    email: pending.email,
    password,
  });
  if (!parsed.success) {
    throw new AppError("BAD_REQUEST", parsed.error.issues[0]?.message ?? "Invalid input");
  }
  return registerUser(db, parsed.data, {
    now: meta.now,
    timeZone: meta.timeZone ?? null,
    ip: meta.ip,
    limits: meta.limits,
    afterInsert: (tx, user) => linkIdentity(tx, pending, user.id, meta.now, meta.providerName),
  });
}

/**
 * Links the provider's identity to the account with the same email once its password confirms, a
 * check counted like a sign-in's (decisions 060, 160), and signs in.
 */
export async function linkSsoAccount(
  db: Db,
  pending: PendingSso,
  password: unknown,
  meta: SignInMeta & { ip: string; limits: ThrottleLimits; providerName: string },
) {
  if (pending.kind !== "link" || !pending.userId) {
    throw new AppError("BAD_REQUEST", "Nothing to link");
  }
  if (typeof password !== "string" || password.length === 0) {
    throw new AppError("BAD_REQUEST", "Please enter your password");
  }
  if (password.length > LIMITS.PASSWORD_MAX) {
    throw new AppError("BAD_REQUEST", AUTH_MESSAGES.PASSWORD_LONG);
  }
  const [user] = await db.select().from(users).where(eq(users.id, pending.userId)).limit(1);
  if (!user) throw new AppError("NOT_FOUND", "The account to link no longer exists");
  const usernameKey = user.username.toLowerCase();
  const blocked = await reserveSignInAttempt(db, usernameKey, meta.ip, meta.now, meta.limits);
  if (blocked > 0) throw new AppError("TOO_MANY_REQUESTS", signInThrottledMessage(blocked));
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw new AppError("UNAUTHORIZED", "Incorrect password");
  }
  return db.transaction(async (tx) => {
    await clearSignInFailures(tx, usernameKey, meta.ip);
    await linkIdentity(tx, pending, user.id, meta.now, meta.providerName);
    return startSession(tx, user, meta);
  });
}

async function startSession(db: Db, user: UserRow, meta: SignInMeta) {
  const timeZone = validTimeZone(meta.timeZone) ?? user.timeZone;
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({ lastLogin: meta.now, timeZone })
      .where(eq(users.id, user.id))
      .returning();
    const origin = { ip: meta.ip ?? "", userAgent: meta.userAgent ?? "" };
    await recordSignIn(tx, user, origin, meta.now, "sso");
    const { token, session } = await createSession(tx, user.id, meta.now, meta.userAgent);
    return { user: updated!, token, expiresAt: session.expiresAt };
  });
}
