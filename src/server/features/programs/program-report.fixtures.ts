import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { programs, users } from "../../db/schema";

/** Test-only: a program inserted directly (the programs feature's own procedures are tested there). */
export async function insertProgram(db: Db, name = "Test Program"): Promise<string> {
  const [row] = await db
    .insert(programs)
    .values({ name, code: crypto.randomBytes(4).toString("hex").toUpperCase() })
    .returning({ id: programs.id });
  return row!.id;
}

/** Test-only: puts a user into a program with a role, or takes them out (`programId` null). */
export async function setMembership(
  db: Db,
  userId: string,
  programId: string | null,
  role: "director" | "resident" = "resident",
  joinedAt = new Date(),
): Promise<void> {
  await db
    .update(users)
    .set(
      programId
        ? { programId, programRole: role, programJoinedAt: joinedAt }
        : { programId: null, programRole: null, programJoinedAt: null },
    )
    .where(eq(users.id, userId));
}
