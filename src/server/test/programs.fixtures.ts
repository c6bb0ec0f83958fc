/**
 * Tests only: program membership written straight into the tables, for suites that need programs
 * before (or without) the programs feature's procedures.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { programs, users } from "../db/schema";

let seq = 0;

export async function makeProgram(db: Db, name = "Program"): Promise<string> {
  seq += 1;
  const code = `T${String(seq).padStart(3, "0")}${Math.random().toString(36).slice(2, 6)}`
    .toUpperCase()
    .slice(0, 8);
  const [row] = await db
    .insert(programs)
    .values({ name: `${name} ${seq}`, code })
    .returning({ id: programs.id });
  return row!.id;
}

export async function joinProgram(
  db: Db,
  userId: string,
  programId: string,
  role: "director" | "resident" = "resident",
): Promise<void> {
  await db
    .update(users)
    .set({ programId, programRole: role, programJoinedAt: new Date() })
    .where(eq(users.id, userId));
}

export async function leaveProgram(db: Db, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ programId: null, programRole: null, programJoinedAt: null })
    .where(eq(users.id, userId));
}
