/**
 * Tests only: a program set up by writing its rows directly (issue 32), independent of the membership
 * procedures, so the features built on membership can be tested on their own.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { programs, users } from "../../db/schema";

let seq = Math.floor(Math.random() * 100_000);

export async function makeProgram(db: Db, name = "Test program"): Promise<string> {
  seq += 1;
  const code = `TP${String(seq).padStart(6, "0")}`;
  const [row] = await db.insert(programs).values({ name, code }).returning({ id: programs.id });
  return row!.id;
}

export async function putInProgram(
  db: Db,
  userId: string,
  programId: string | null,
  role: "director" | "resident" = "resident",
  pgyLevel?: string,
): Promise<void> {
  await db
    .update(users)
    .set({
      programId,
      programRole: programId ? role : null,
      programJoinedAt: programId ? new Date() : null,
      ...(pgyLevel !== undefined && { pgyLevel }),
    })
    .where(eq(users.id, userId));
}
