import { asc, count, eq, sql } from "drizzle-orm";
import { ACTIVE_USER_DAYS, PGY_LEVELS } from "../../../core/constants";
import type { Db } from "../../db/client";
import { questions, users } from "../../db/schema";

/** One row of GET /admin/users (SPEC §7): no password hash, no settings, nothing private beyond email. */
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
export async function listAdminUsers(db: Db): Promise<AdminUserJson[]> {
  const added = db
    .select({ creatorId: questions.creatorId, n: count().as("n") })
    .from(questions)
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

/** The Admin Dashboard's figures (SPEC §2, §9), counted by the database rather than the browser. */
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
