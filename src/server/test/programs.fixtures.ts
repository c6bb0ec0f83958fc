/**
 * Tests only: program membership written straight into the tables (issue 32), so the features built
 * on membership are tested on their own; the programs feature's procedures have their own tests.
 */
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { programs, users } from "../db/schema";

export async function makeProgram(db: Db, name = "Test program"): Promise<string> {
  const [row] = await db
    .insert(programs)
    .values({ name, code: crypto.randomBytes(4).toString("hex").toUpperCase() })
    .returning({ id: programs.id });
  return row!.id;
}

/** Puts a user into a program with a role (and a PGY level, a join time), or out of any (null). */
export async function putInProgram(
  db: Db,
  userId: string,
  programId: string | null,
  role: "director" | "resident" = "resident",
  opts: { pgyLevel?: string; joinedAt?: Date } = {},
): Promise<void> {
  await db
    .update(users)
    .set({
      programId,
      programRole: programId ? role : null,
      programJoinedAt: programId ? (opts.joinedAt ?? new Date()) : null,
      ...(opts.pgyLevel !== undefined && { pgyLevel: opts.pgyLevel }),
    })
    .where(eq(users.id, userId));
}
