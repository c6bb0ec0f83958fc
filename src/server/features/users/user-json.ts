import { count, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { questions, type UserRow } from "../../db/schema";

/** The User in docs/product/data.md as every surface returns it; never carries the password hash. */
export interface UserJson {
  _id: string;
  username: string;
  email: string;
  displayName: string;
  pgyLevel: string;
  specialty: string;
  institution: string;
  isAdmin: boolean;
  settings: { shareUsageData: boolean; publicProfile: boolean };
  timeZone: string;
  createdAt: string;
  lastLogin: string | null;
  questionsAdded: number;
  /** Whether the PRITE scores form was already offered after registration (it is offered once). */
  scoresOnboardingOffered: boolean;
}

export function toUserJson(row: UserRow, questionsAdded: number): UserJson {
  return {
    _id: row.id,
    username: row.username,
    email: row.email,
    displayName: row.displayName,
    pgyLevel: row.pgyLevel,
    specialty: row.specialty,
    institution: row.institution,
    isAdmin: row.isAdmin,
    settings: { shareUsageData: row.shareUsageData, publicProfile: row.publicProfile },
    timeZone: row.timeZone,
    createdAt: row.createdAt.toISOString(),
    lastLogin: row.lastLogin ? row.lastLogin.toISOString() : null,
    questionsAdded,
    scoresOnboardingOffered: row.scoresOnboardingOfferedAt !== null,
  };
}

export async function loadUserJson(db: Db, row: UserRow): Promise<UserJson> {
  const [result] = await db
    .select({ n: count() })
    .from(questions)
    .where(eq(questions.creatorId, row.id));
  return toUserJson(row, result?.n ?? 0);
}
