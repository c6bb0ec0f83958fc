import { asc, count, eq, sql } from "drizzle-orm";
import { recordAudit, type AuditMeta } from "../audit/audit.service";
import { TRPCError } from "@trpc/server";
import { ACTIVE_USER_DAYS, PGY_LEVELS } from "../../../core/constants";
import type { Db } from "../../db/client";
import { questions, users } from "../../db/schema";

/** One row of GET /admin/users (docs/product/rest-api.md): no password hash, no settings, nothing private beyond email. */
export interface AdminUserJson {
  _id: string;
  username: string;
  email: string;
  pgyLevel: string;
  createdAt: string;
  lastLogin: string | null;
  questionsAdded: number;
  isAdmin: boolean;
}

export const UNSPECIFIED_PGY = "Unspecified";

export interface PgyCount {
  /** The stored value ('1' … 'Other'), or '' for users without a (known) level. */
  level: string;
  /** 'PGY-1' … 'Other', or 'Unspecified'. */
  label: string;
  count: number;
}

export interface AdminStats {
  totalUsers: number;
  /** Last sign-in (or, never signed in, creation) within the last 30 days. */
  activeUsers: number;
  questionsAdded: number;
  /** Questions per user, rounded; 0 with no users. */
  averageQuestionsPerUser: number;
  /** Users per PGY level in the levels' order, then 'Unspecified'; levels without users are left out. */
  pgyDistribution: PgyCount[];
}

const DAY_MS = 86_400_000;

/** Every user with the number of questions they created, oldest account first. */
export async function listAdminUsers(db: Db, onlyUserId?: string): Promise<AdminUserJson[]> {
  const added = db
    .select({ creatorId: questions.creatorId, n: count().as("n") })
    .from(questions)
    .where(onlyUserId === undefined ? undefined : eq(questions.creatorId, onlyUserId))
    .groupBy(questions.creatorId)
    .as("added");
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      pgyLevel: users.pgyLevel,
      createdAt: users.createdAt,
      lastLogin: users.lastLogin,
      isAdmin: users.isAdmin,
      questionsAdded: sql<number>`coalesce(${added.n}, 0)::int`,
    })
    .from(users)
    .leftJoin(added, eq(added.creatorId, users.id))
    .where(onlyUserId === undefined ? undefined : eq(users.id, onlyUserId))
    .orderBy(asc(users.createdAt), asc(users.username));
  return rows.map((r) => ({
    _id: r.id,
    username: r.username,
    email: r.email,
    pgyLevel: r.pgyLevel,
    createdAt: r.createdAt.toISOString(),
    lastLogin: r.lastLogin ? r.lastLogin.toISOString() : null,
    questionsAdded: Number(r.questionsAdded),
    isAdmin: r.isAdmin,
  }));
}

/** The Admin Dashboard's figures (docs/product/screens.md and constants.md), counted by the database rather than the browser. */
export async function adminStats(db: Db, now: Date): Promise<AdminStats> {
  const since = new Date(now.getTime() - ACTIVE_USER_DAYS * DAY_MS);
  const [totals] = await db
    .select({
      totalUsers: sql<number>`count(*)::int`,
      activeUsers: sql<number>`(count(*) filter (where coalesce(${users.lastLogin}, ${users.createdAt}) >= ${since.toISOString()}::timestamptz))::int`,
    })
    .from(users);
  const [questionTotals] = await db.select({ n: sql<number>`count(*)::int` }).from(questions);
  const byLevel = await db
    .select({ level: users.pgyLevel, n: sql<number>`count(*)::int` })
    .from(users)
    .groupBy(users.pgyLevel);

  const totalUsers = Number(totals?.totalUsers ?? 0);
  const questionsAdded = Number(questionTotals?.n ?? 0);
  const counts = new Map<string, number>();
  let unspecified = 0;
  for (const { level, n } of byLevel) {
    if (PGY_LEVELS.some((l) => l.value === level)) counts.set(level, Number(n));
    else unspecified += Number(n);
  }
  const pgyDistribution: PgyCount[] = PGY_LEVELS.filter((l) => counts.has(l.value)).map((l) => ({
    level: l.value,
    label: l.label,
    count: counts.get(l.value)!,
  }));
  if (unspecified > 0)
    pgyDistribution.push({ level: "", label: UNSPECIFIED_PGY, count: unspecified });

  return {
    totalUsers,
    activeUsers: Number(totals?.activeUsers ?? 0),
    questionsAdded,
    averageQuestionsPerUser: totalUsers === 0 ? 0 : Math.round(questionsAdded / totalUsers),
    pgyDistribution,
  };
}

export const ADMIN_MESSAGES = {
  USER_NOT_FOUND: "User not found",
  LAST_ADMIN: "You are the last admin: promote someone else before removing your own admin rights.",
} as const;

export interface SetRoleResult {
  user: AdminUserJson;
  /** False when the user already had that role. */
  changed: boolean;
}

/**
 * Makes a user an admin or a regular user (`prite users promote|demote`). The admin rows are locked for
 * the transaction, so two admins demoting themselves at the same time cannot leave the site without one.
 */
export async function setUserRole(
  db: Db,
  caller: { id: string; username: string },
  input: { username: string; isAdmin: boolean },
  meta: AuditMeta,
): Promise<SetRoleResult> {
  const callerId = caller.id;
  const changed = await db.transaction(async (tx) => {
    const admins = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.isAdmin, true))
      .for("update");
    const [target] = await tx
      .select({ id: users.id, username: users.username, isAdmin: users.isAdmin })
      .from(users)
      .where(sql`lower(${users.username}) = lower(${input.username})`)
      .limit(1);
    if (!target) throw new TRPCError({ code: "NOT_FOUND", message: ADMIN_MESSAGES.USER_NOT_FOUND });
    if (target.isAdmin === input.isAdmin) return { id: target.id, changed: false };
    if (!input.isAdmin && target.id === callerId && admins.length <= 1) {
      throw new TRPCError({ code: "CONFLICT", message: ADMIN_MESSAGES.LAST_ADMIN });
    }
    await tx.update(users).set({ isAdmin: input.isAdmin }).where(eq(users.id, target.id));
    await recordAudit(tx, {
      kind: "role.changed",
      actor: caller,
      target,
      detail: { role: input.isAdmin ? "admin" : "user" },
      ...meta,
    });
    return { id: target.id, changed: true };
  });
  // The one changed row, with its own question count only (not every user's statistics).
  const [user] = await listAdminUsers(db, changed.id);
  if (!user) throw new TRPCError({ code: "NOT_FOUND", message: ADMIN_MESSAGES.USER_NOT_FOUND });
  return { user, changed: changed.changed };
}
