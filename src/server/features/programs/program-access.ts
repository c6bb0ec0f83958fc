import { eq } from "drizzle-orm";
import { ZProgramIdInput } from "../../../core/schemas/program";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { AppError } from "../../errors";
import { protectedProcedure } from "../../trpc/init";

/** A user's place in a program (docs/product/programs.md): one program at a time. */
export interface Membership {
  programId: string;
  role: "director" | "resident";
  joinedAt: Date | null;
}

export const NOT_IN_PROGRAM = "You are not a member of a program";
export const DIRECTORS_ONLY = "Only the program's directors can do that";
export const PROGRAM_NOT_FOUND = "Program not found";

/**
 * Read from the database, never from the session's cached user row: leaving or being removed takes a
 * program's access away at once, on every process (issue 32).
 */
export async function membershipOf(db: Db, userId: string): Promise<Membership | null> {
  const [row] = await db
    .select({
      programId: users.programId,
      role: users.programRole,
      joinedAt: users.programJoinedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row?.programId || (row.role !== "director" && row.role !== "resident")) return null;
  return { programId: row.programId, role: row.role, joinedAt: row.joinedAt };
}

/**
 * A procedure for members of a program, with `ctx.membership`. A procedure that names a program (REST's
 * `/api/programs/:id/…`) checks it with `requireSameProgram`.
 */
export const memberProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  const membership = await membershipOf(ctx.db, ctx.user.id);
  if (!membership) throw new AppError("FORBIDDEN", NOT_IN_PROGRAM);
  return next({ ctx: { membership } });
});

/** A procedure for the program's directors (program director, associate directors, chief residents). */
export const directorProcedure = memberProcedure.use(({ ctx, next }) => {
  if (ctx.membership.role !== "director") throw new AppError("FORBIDDEN", DIRECTORS_ONLY);
  return next();
});

/** Another program's id answers as a missing program: members learn nothing about other programs. */
export function requireSameProgram(membership: Membership, programId: string): void {
  if (membership.programId !== programId) throw new AppError("NOT_FOUND", PROGRAM_NOT_FOUND);
}

/**
 * A procedure on the program `input.id`, for its members, with `ctx.membership`. Anyone else, a member
 * of another program, a user in none or an admin, is answered that the program does not exist
 * (decision 345): nobody learns which ids name programs.
 */
export const programMemberProcedure = protectedProcedure
  .input(ZProgramIdInput)
  .use(async ({ ctx, input, next }) => {
    const membership = await membershipOf(ctx.db, ctx.user.id);
    if (!membership) throw new AppError("NOT_FOUND", PROGRAM_NOT_FOUND);
    requireSameProgram(membership, input.id);
    return next({ ctx: { membership } });
  });

/** The same, for the program's directors: its residents are refused (403). */
export const programDirectorProcedure = programMemberProcedure.use(({ ctx, next }) => {
  if (ctx.membership.role !== "director") throw new AppError("FORBIDDEN", DIRECTORS_ONLY);
  return next();
});
