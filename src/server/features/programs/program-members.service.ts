import { and, asc, eq, sql } from "drizzle-orm";
import { PGY_LEVELS } from "../../../core/constants";
import type { ProgramRole } from "../../../core/schemas/program";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { AppError } from "../../errors";
import { recordAudit, type AuditMeta } from "../audit/audit.service";
import { PROGRAM_NOT_FOUND } from "./program-access";
import { lockProgram, OUT_OF_PROGRAM, PROGRAM_ERRORS } from "./programs.service";

export interface ProgramMemberJson {
  userId: string;
  username: string;
  displayName: string;
  /** From the member's profile: '1' … '6+', 'Fellow', 'Attending', 'Other', or ''. */
  pgyLevel: string;
  /** 'PGY-1' …, or 'Unspecified'. */
  pgyLabel: string;
  role: ProgramRole;
  joinedAt: string | null;
}

export interface PgyClassCount {
  pgyLevel: string;
  pgyLabel: string;
  residents: number;
}

/**
 * The roster (docs/product/programs.md, decision 346): directors see every member; a resident sees the
 * directors (who see their figures) and how many residents each PGY class has, never classmates' names.
 */
export interface ProgramMembersJson {
  roster: "full" | "directors";
  members: ProgramMemberJson[];
  classes: PgyClassCount[];
}

const PGY_ORDER: readonly string[] = PGY_LEVELS.map((l) => l.value);
export const pgyLabelOf = (level: string) =>
  PGY_LEVELS.find((l) => l.value === level)?.label ?? "Unspecified";
const pgyRank = (level: string) => {
  const i = PGY_ORDER.indexOf(level);
  return i === -1 ? PGY_ORDER.length : i;
};

export async function listMembers(
  db: Db,
  programId: string,
  viewerRole: ProgramRole,
): Promise<ProgramMembersJson> {
  const rows = await db
    .select({
      userId: users.id,
      username: users.username,
      displayName: users.displayName,
      pgyLevel: users.pgyLevel,
      role: users.programRole,
      joinedAt: users.programJoinedAt,
    })
    .from(users)
    .where(eq(users.programId, programId))
    .orderBy(asc(sql`lower(${users.username})`));
  const members: ProgramMemberJson[] = rows
    .map((r) => ({
      userId: r.userId,
      username: r.username,
      displayName: r.displayName,
      pgyLevel: r.pgyLevel,
      pgyLabel: pgyLabelOf(r.pgyLevel),
      role: (r.role === "director" ? "director" : "resident") as ProgramRole,
      joinedAt: r.joinedAt ? r.joinedAt.toISOString() : null,
    }))
    .sort((a, b) => pgyRank(a.pgyLevel) - pgyRank(b.pgyLevel));
  const counts = new Map<string, number>();
  for (const m of members) {
    if (m.role === "resident") counts.set(m.pgyLevel, (counts.get(m.pgyLevel) ?? 0) + 1);
  }
  const classes = [...counts.entries()]
    .sort(([a], [b]) => pgyRank(a) - pgyRank(b))
    .map(([pgyLevel, residents]) => ({ pgyLevel, pgyLabel: pgyLabelOf(pgyLevel), residents }));
  if (viewerRole === "director") return { roster: "full", members, classes };
  return { roster: "directors", members: members.filter((m) => m.role === "director"), classes };
}

interface Actor {
  id: string;
  username: string;
}

/** The member `userId` of program `programId`, locked, or the product's not-a-member answer. */
async function lockMember(tx: Db, programId: string, userId: string) {
  const [row] = await tx
    .select({ id: users.id, username: users.username, role: users.programRole })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.programId, programId)))
    .for("update");
  if (!row) throw new AppError("NOT_FOUND", PROGRAM_ERRORS.NOT_A_MEMBER);
  return row;
}

async function directorCount(tx: Db, programId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.programId, programId), eq(users.programRole, "director")));
  return Number(row?.n ?? 0);
}

/**
 * Directors only: makes a member a director or a resident. A program keeps at least one director: the
 * only director stepping down is refused (decision 347).
 */
export async function setMemberRole(
  db: Db,
  actor: Actor,
  input: { id: string; userId: string; role: ProgramRole },
  meta: AuditMeta,
): Promise<{ userId: string; role: ProgramRole; changed: boolean }> {
  return db.transaction(async (tx) => {
    const program = await lockProgram(tx, input.id);
    if (!program) throw new AppError("NOT_FOUND", PROGRAM_NOT_FOUND);
    const member = await lockMember(tx, input.id, input.userId);
    if (member.role === input.role) return { userId: member.id, role: input.role, changed: false };
    if (input.role === "resident" && (await directorCount(tx, input.id)) <= 1) {
      throw new AppError("CONFLICT", PROGRAM_ERRORS.ONLY_DIRECTOR_DEMOTED);
    }
    await tx.update(users).set({ programRole: input.role }).where(eq(users.id, member.id));
    await recordAudit(tx, {
      kind: "program.role_changed",
      actor,
      target: { id: member.id, username: member.username },
      detail: { programId: input.id, name: program.name, from: member.role, to: input.role },
      origin: meta.origin,
      at: meta.at,
    });
    return { userId: member.id, role: input.role, changed: true };
  });
}

/**
 * Directors only: takes a member out of the program; their access to it ends at once. A director
 * leaves with Leave program rather than removing themselves.
 */
export async function removeMember(
  db: Db,
  actor: Actor,
  input: { id: string; userId: string },
  meta: AuditMeta,
): Promise<{ removed: true; userId: string }> {
  if (input.userId === actor.id) throw new AppError("BAD_REQUEST", PROGRAM_ERRORS.REMOVE_SELF);
  return db.transaction(async (tx) => {
    const program = await lockProgram(tx, input.id);
    if (!program) throw new AppError("NOT_FOUND", PROGRAM_NOT_FOUND);
    const member = await lockMember(tx, input.id, input.userId);
    await tx.update(users).set(OUT_OF_PROGRAM).where(eq(users.id, member.id));
    await recordAudit(tx, {
      kind: "program.member_removed",
      actor,
      target: { id: member.id, username: member.username },
      detail: { programId: input.id, name: program.name, role: member.role },
      origin: meta.origin,
      at: meta.at,
    });
    return { removed: true as const, userId: member.id };
  });
}
