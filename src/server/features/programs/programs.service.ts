import { and, asc, eq, sql } from "drizzle-orm";
import { randomJoinCode } from "../../../core/join-code";
import type { ProgramRole } from "../../../core/schemas/program";
import type { Db } from "../../db/client";
import { programs, users, type ProgramRow } from "../../db/schema";
import { AppError, isUniqueViolation } from "../../errors";
import { recordAudit, type AuditMeta } from "../audit/audit.service";
import { membershipOf, PROGRAM_NOT_FOUND } from "./program-access";

/** The product's words for what membership refuses (docs/product/programs.md). */
export const PROGRAM_ERRORS = {
  ALREADY_IN_ANOTHER: "Leave your current program first",
  ALREADY_MEMBER: "You are already a member of this program",
  UNKNOWN_CODE:
    "No program has this join code. Check the code, or ask your program director for a new link.",
  ONLY_DIRECTOR_LEAVING:
    "You are the program's only director: make another member a director before leaving.",
  ONLY_DIRECTOR_DEMOTED:
    "A program needs a director: make another member a director before stepping down.",
  NOT_A_MEMBER: "That person is not a member of this program",
  REMOVE_SELF: "To leave the program yourself, use Leave program",
} as const;

/** A program as its member sees it; the code, link and dashboard thresholds only for directors. */
export interface ProgramJson {
  id: string;
  name: string;
  institution: string;
  createdAt: string;
  /** The caller's role in it. */
  role: ProgramRole;
  joinedAt: string | null;
  memberCount: number;
  directorCount: number;
  /** Directors only (null for residents): the join code and link, and the dashboard's flags. */
  code: string | null;
  joinPath: string | null;
  /** The full link when the server knows its address (PUBLIC_URL); else null: use `joinPath`. */
  joinUrl: string | null;
  inactiveDays: number | null;
  accuracyFlag: number | null;
}

/** What the join page shows before joining. */
export interface ProgramPreview {
  name: string;
  institution: string;
  memberCount: number;
  /** Where the caller stands: already in this program, in another one, or in none. */
  membership: "this" | "another" | null;
}

/** A row of the Admin page's list of every program. */
export interface AdminProgramJson {
  id: string;
  name: string;
  institution: string;
  createdAt: string;
  memberCount: number;
  residentCount: number;
  directors: string[];
}

export const joinPathOf = (code: string) => `/join/${code}`;

function joinUrlOf(code: string, publicUrl: string | null): string | null {
  if (!publicUrl) return null;
  return `${publicUrl.endsWith("/") ? publicUrl.slice(0, -1) : publicUrl}${joinPathOf(code)}`;
}

interface Actor {
  id: string;
  username: string;
}

/** Members and directors of a program, counted by the database. */
async function countsOf(
  db: Db,
  programId: string,
): Promise<{ members: number; directors: number }> {
  const [row] = await db
    .select({
      members: sql<number>`count(*)::int`,
      directors: sql<number>`(count(*) filter (where ${users.programRole} = 'director'))::int`,
    })
    .from(users)
    .where(eq(users.programId, programId));
  return { members: Number(row?.members ?? 0), directors: Number(row?.directors ?? 0) };
}

async function programJson(
  db: Db,
  program: ProgramRow,
  role: ProgramRole,
  joinedAt: Date | null,
  publicUrl: string | null,
): Promise<ProgramJson> {
  const counts = await countsOf(db, program.id);
  const director = role === "director";
  return {
    id: program.id,
    name: program.name,
    institution: program.institution,
    createdAt: program.createdAt.toISOString(),
    role,
    joinedAt: joinedAt ? joinedAt.toISOString() : null,
    memberCount: counts.members,
    directorCount: counts.directors,
    code: director ? program.code : null,
    joinPath: director ? joinPathOf(program.code) : null,
    joinUrl: director ? joinUrlOf(program.code, publicUrl) : null,
    inactiveDays: director ? program.inactiveDays : null,
    accuracyFlag: director ? program.accuracyFlag : null,
  };
}

/** The caller's program and role, or null when they belong to none. */
export async function myProgram(
  db: Db,
  userId: string,
  publicUrl: string | null,
): Promise<ProgramJson | null> {
  const membership = await membershipOf(db, userId);
  if (!membership) return null;
  const [program] = await db.select().from(programs).where(eq(programs.id, membership.programId));
  if (!program) return null;
  return programJson(db, program, membership.role, membership.joinedAt, publicUrl);
}

/**
 * The program `id` as its member sees it. Anyone else, admins included, is told it does not exist:
 * nobody learns anything about a program they are not in (admins read the Admin page's list).
 */
export async function getProgram(
  db: Db,
  userId: string,
  id: string,
  publicUrl: string | null,
): Promise<ProgramJson> {
  const mine = await myProgram(db, userId, publicUrl);
  if (!mine || mine.id !== id) throw new AppError("NOT_FOUND", PROGRAM_NOT_FOUND);
  return mine;
}

/** The caller's user row, locked for the rest of the transaction: one membership change at a time. */
async function lockUser(tx: Db, userId: string) {
  const [row] = await tx
    .select({ id: users.id, programId: users.programId, role: users.programRole })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  if (!row) throw new AppError("UNAUTHORIZED", "Please sign in to continue");
  return row;
}

/** The program's row, locked: membership changes of one program (the last-director rule) queue here. */
export async function lockProgram(tx: Db, programId: string): Promise<ProgramRow | undefined> {
  const [row] = await tx.select().from(programs).where(eq(programs.id, programId)).for("update");
  return row;
}

/**
 * A new code can collide with another program's (31^8 codes make that rare): the transaction fails
 * on the unique index and is run again with a fresh code.
 */
async function withFreshCode<T>(run: (code: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run(randomJoinCode());
    } catch (err) {
      if (attempt < 4 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

/** Creates a program; its creator is its first director. A member of another program is refused. */
export async function createProgram(
  db: Db,
  actor: Actor,
  input: { name: string; institution: string },
  meta: AuditMeta & { publicUrl: string | null },
): Promise<ProgramJson> {
  const program = await withFreshCode((code) =>
    db.transaction(async (tx) => {
      const me = await lockUser(tx, actor.id);
      if (me.programId) throw new AppError("CONFLICT", PROGRAM_ERRORS.ALREADY_IN_ANOTHER);
      const [row] = await tx
        .insert(programs)
        .values({ name: input.name, institution: input.institution, code, createdAt: meta.at })
        .returning();
      await tx
        .update(users)
        .set({ programId: row!.id, programRole: "director", programJoinedAt: meta.at })
        .where(eq(users.id, actor.id));
      await recordAudit(tx, {
        kind: "program.created",
        actor,
        detail: { programId: row!.id, name: row!.name },
        origin: meta.origin,
        at: meta.at,
      });
      return row!;
    }),
  );
  return programJson(db, program, "director", meta.at, meta.publicUrl);
}

async function programByCode(db: Db, code: string): Promise<ProgramRow> {
  const [row] = await db.select().from(programs).where(eq(programs.code, code));
  if (!row) throw new AppError("NOT_FOUND", PROGRAM_ERRORS.UNKNOWN_CODE);
  return row;
}

/** The join page: the program's name and institution, and whether the caller is in it already. */
export async function previewProgram(
  db: Db,
  userId: string,
  code: string,
): Promise<ProgramPreview> {
  const program = await programByCode(db, code);
  const membership = await membershipOf(db, userId);
  const { members } = await countsOf(db, program.id);
  return {
    name: program.name,
    institution: program.institution,
    memberCount: members,
    membership: !membership ? null : membership.programId === program.id ? "this" : "another",
  };
}

/** Joins the program with this code as a resident (directors promote members afterwards). */
export async function joinProgram(
  db: Db,
  actor: Actor,
  code: string,
  meta: AuditMeta & { publicUrl: string | null },
): Promise<ProgramJson> {
  const program = await db.transaction(async (tx) => {
    const me = await lockUser(tx, actor.id);
    const [found] = await tx.select().from(programs).where(eq(programs.code, code)).for("update");
    if (!found) throw new AppError("NOT_FOUND", PROGRAM_ERRORS.UNKNOWN_CODE);
    if (me.programId === found.id) throw new AppError("CONFLICT", PROGRAM_ERRORS.ALREADY_MEMBER);
    if (me.programId) throw new AppError("CONFLICT", PROGRAM_ERRORS.ALREADY_IN_ANOTHER);
    await tx
      .update(users)
      .set({ programId: found.id, programRole: "resident", programJoinedAt: meta.at })
      .where(eq(users.id, actor.id));
    await recordAudit(tx, {
      kind: "program.joined",
      actor,
      detail: { programId: found.id, name: found.name },
      origin: meta.origin,
      at: meta.at,
    });
    return found;
  });
  return programJson(db, program, "resident", meta.at, meta.publicUrl);
}

/** What leaving (or being removed) clears on the user row; scores are shared with a program, not carried on. */
export const OUT_OF_PROGRAM = {
  programId: null,
  programRole: null,
  programJoinedAt: null,
  shareScoresWithProgram: false,
} as const;

/**
 * Leaves the program. The only director cannot leave while others remain (someone must be able to
 * manage it); the last member leaving deletes the program, and its bank's questions become private to
 * their authors again (docs/product/programs.md).
 */
export async function leaveProgram(
  db: Db,
  actor: Actor,
  id: string,
  meta: AuditMeta,
): Promise<{ left: true; programDeleted: boolean }> {
  return db.transaction(async (tx) => {
    const program = await lockProgram(tx, id);
    const me = await lockUser(tx, actor.id);
    if (!program || me.programId !== id) throw new AppError("NOT_FOUND", PROGRAM_NOT_FOUND);
    const counts = await countsOf(tx, id);
    const othersRemain = counts.members > 1;
    if (me.role === "director" && counts.directors === 1 && othersRemain) {
      throw new AppError("CONFLICT", PROGRAM_ERRORS.ONLY_DIRECTOR_LEAVING);
    }
    await tx.update(users).set(OUT_OF_PROGRAM).where(eq(users.id, actor.id));
    if (!othersRemain) await tx.delete(programs).where(eq(programs.id, id));
    await recordAudit(tx, {
      kind: "program.left",
      actor,
      detail: { programId: id, name: program.name, programDeleted: !othersRemain },
      origin: meta.origin,
      at: meta.at,
    });
    return { left: true as const, programDeleted: !othersRemain };
  });
}

/** Directors only: a new join code; the old code and link stop working at once. */
export async function renewCode(
  db: Db,
  actor: Actor,
  id: string,
  meta: AuditMeta & { publicUrl: string | null },
): Promise<ProgramJson> {
  const program = await withFreshCode((code) =>
    db.transaction(async (tx) => {
      const [row] = await tx.update(programs).set({ code }).where(eq(programs.id, id)).returning();
      if (!row) throw new AppError("NOT_FOUND", PROGRAM_NOT_FOUND);
      await recordAudit(tx, {
        kind: "program.code_renewed",
        actor,
        detail: { programId: id, name: row.name },
        origin: meta.origin,
        at: meta.at,
      });
      return row;
    }),
  );
  const membership = await membershipOf(db, actor.id);
  return programJson(db, program, "director", membership?.joinedAt ?? null, meta.publicUrl);
}

/** Directors only: the name, the institution and the dashboard's flag thresholds. */
export async function updateProgram(
  db: Db,
  actorId: string,
  input: {
    id: string;
    name?: string;
    institution?: string;
    inactiveDays?: number;
    accuracyFlag?: number;
  },
  publicUrl: string | null,
): Promise<ProgramJson> {
  const { id, ...fields } = input;
  const changes = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  if (Object.keys(changes).length > 0) {
    await db.update(programs).set(changes).where(eq(programs.id, id));
  }
  return getProgram(db, actorId, id, publicUrl);
}

/** The Admin page: every program with its size and its directors, by name. */
export async function listAllPrograms(db: Db): Promise<AdminProgramJson[]> {
  const rows = await db
    .select({
      id: programs.id,
      name: programs.name,
      institution: programs.institution,
      createdAt: programs.createdAt,
      memberCount: sql<number>`count(${users.id})::int`,
      residentCount: sql<number>`(count(${users.id}) filter (where ${users.programRole} = 'resident'))::int`,
    })
    .from(programs)
    .leftJoin(users, eq(users.programId, programs.id))
    .groupBy(programs.id)
    .orderBy(asc(sql`lower(${programs.name})`), asc(programs.createdAt));
  const directors = await db
    .select({ programId: users.programId, username: users.username })
    .from(users)
    .where(and(sql`${users.programId} is not null`, eq(users.programRole, "director")))
    .orderBy(asc(users.username));
  const byProgram = new Map<string, string[]>();
  for (const d of directors) {
    const list = byProgram.get(d.programId!) ?? [];
    list.push(d.username);
    byProgram.set(d.programId!, list);
  }
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    institution: r.institution,
    createdAt: r.createdAt.toISOString(),
    memberCount: Number(r.memberCount),
    residentCount: Number(r.residentCount),
    directors: byProgram.get(r.id) ?? [],
  }));
}
