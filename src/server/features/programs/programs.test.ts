import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOIN_CODE_ALPHABET } from "../../../core/join-code";
import { SessionCache } from "../../auth/session-cache";
import { programs, users } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { listAudit } from "../audit/audit.service";
import { errorMessage } from "../../trpc/init";
import { membershipOf } from "./program-access";
import { PROGRAM_ERRORS } from "./programs.service";

/**
 * Programs and roles (issue 32 item 1, docs/product/programs.md) through the procedures, as the SPA,
 * REST and the CLI call them.
 */

let h: Harness;
const PUBLIC_URL = "https://prite.example.org";

beforeAll(async () => {
  h = await createHarness({ config: { publicUrl: PUBLIC_URL } });
  await h.user(); // the first account is the admin
});
afterAll(async () => {
  await h.close();
});

async function codeOf(programId: string): Promise<string> {
  const [row] = await h.db.db
    .select({ code: programs.code })
    .from(programs)
    .where(eq(programs.id, programId));
  return row!.code;
}

async function errorOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof TRPCError) return { code: err.code, message: errorMessage(err) };
    throw err;
  }
  throw new Error("expected a refusal");
}

/** A program made by a fresh director, with `residents` fresh residents (PGY 1, 2, 3 …). */
async function programWith(residents = 0) {
  const chief = await h.user({ pgyLevel: "4" });
  const program = await chief.caller.programs.create({
    name: "Riverside Psychiatry",
    institution: "Riverside University",
  });
  const members: TestUser[] = [];
  for (let i = 0; i < residents; i++) {
    const r = await h.user({ pgyLevel: String((i % 3) + 1) });
    await r.caller.programs.join({ code: program.code! });
    members.push(r);
  }
  return { chief, program, residents: members };
}

describe("creating and joining", () => {
  it("the creator is the first director and sees the code and the join link", async () => {
    const chief = await h.user();
    expect(await chief.caller.programs.mine()).toBeNull();
    const program = await chief.caller.programs.create({
      name: "  Lakeside Psychiatry ",
      institution: "Lakeside Medical Center",
    });
    expect(program).toMatchObject({
      name: "Lakeside Psychiatry",
      institution: "Lakeside Medical Center",
      role: "director",
      memberCount: 1,
      directorCount: 1,
      inactiveDays: 14,
      accuracyFlag: 0.6,
    });
    expect(program.code).toMatch(new RegExp(`^[${JOIN_CODE_ALPHABET}]{8}$`));
    expect(program.joinPath).toBe(`/join/${program.code}`);
    expect(program.joinUrl).toBe(`${PUBLIC_URL}/join/${program.code}`);
    expect(await chief.caller.programs.mine()).toEqual(program);
    expect(await chief.caller.programs.get({ id: program.id })).toEqual(program);
    // One program at a time.
    expect(await errorOf(chief.caller.programs.create({ name: "Another" }))).toEqual({
      code: "CONFLICT",
      message: "Leave your current program first",
    });
  });

  it("refuses a name that is empty or too long, in the product's words", async () => {
    const u = await h.user();
    expect((await errorOf(u.caller.programs.create({ name: "   " }))).message).toBe(
      "Please enter the program's name",
    );
    expect((await errorOf(u.caller.programs.create({ name: "x".repeat(121) }))).message).toBe(
      "The program's name can be at most 120 characters",
    );
    expect(await u.caller.programs.mine()).toBeNull();
  });

  it("a resident previews and joins with the code as typed; a wrong code is a clear not-found", async () => {
    const { program } = await programWith();
    const resident = await h.user();
    const typed = `${program.code!.slice(0, 4).toLowerCase()}-${program.code!.slice(4)}`;
    expect(await resident.caller.programs.preview({ code: typed })).toEqual({
      name: "Riverside Psychiatry",
      institution: "Riverside University",
      memberCount: 1,
      membership: null,
    });
    const joined = await resident.caller.programs.join({ code: typed });
    expect(joined).toMatchObject({ id: program.id, role: "resident", memberCount: 2 });
    // Residents do not see the code, the link or the dashboard's thresholds.
    expect(joined).toMatchObject({ code: null, joinPath: null, joinUrl: null, inactiveDays: null });
    expect((await resident.caller.programs.preview({ code: program.code! })).membership).toBe(
      "this",
    );
    expect(await errorOf(resident.caller.programs.join({ code: program.code! }))).toEqual({
      code: "CONFLICT",
      message: PROGRAM_ERRORS.ALREADY_MEMBER,
    });
    const other = await programWith();
    expect((await resident.caller.programs.preview({ code: other.program.code! })).membership).toBe(
      "another",
    );
    expect(await errorOf(resident.caller.programs.join({ code: other.program.code! }))).toEqual({
      code: "CONFLICT",
      message: "Leave your current program first",
    });
    expect(await errorOf(resident.caller.programs.preview({ code: "ZZZZZZZZ" }))).toEqual({
      code: "NOT_FOUND",
      message: PROGRAM_ERRORS.UNKNOWN_CODE,
    });
    expect((await errorOf(resident.caller.programs.join({ code: "short" }))).message).toBe(
      "Join code must be 8 letters and digits",
    );
  });

  it("renewing the code retires the old one at once", async () => {
    const { chief, program } = await programWith();
    const renewed = await chief.caller.programs.renewCode({ id: program.id });
    expect(renewed.code).not.toBe(program.code);
    expect(renewed.joinPath).toBe(`/join/${renewed.code}`);
    const late = await h.user();
    expect((await errorOf(late.caller.programs.join({ code: program.code! }))).code).toBe(
      "NOT_FOUND",
    );
    expect((await late.caller.programs.join({ code: renewed.code! })).role).toBe("resident");
  });

  it("directors update the name and the dashboard's thresholds", async () => {
    const { chief, program, residents } = await programWith(1);
    const updated = await chief.caller.programs.update({
      id: program.id,
      name: "Riverside Adult Psychiatry",
      inactiveDays: 21,
      accuracyFlag: 0.5,
    });
    expect(updated).toMatchObject({
      name: "Riverside Adult Psychiatry",
      institution: "Riverside University",
      inactiveDays: 21,
      accuracyFlag: 0.5,
    });
    expect(
      (await errorOf(chief.caller.programs.update({ id: program.id, inactiveDays: 0 }))).message,
    ).toBe("Inactive days must be a whole number from 1 to 365");
    expect((await residents[0]!.caller.programs.get({ id: program.id })).name).toBe(
      "Riverside Adult Psychiatry",
    );
  });
});

describe("roles", () => {
  it("a resident cannot call a director's procedure (403); another program's id is not found (404)", async () => {
    const { chief, program, residents } = await programWith(2);
    const [r1, r2] = residents as [TestUser, TestUser];
    const directorCalls = [
      () => r1.caller.programs.setRole({ id: program.id, userId: r1.user.id, role: "director" }),
      () => r1.caller.programs.removeMember({ id: program.id, userId: r2.user.id }),
      () => r1.caller.programs.renewCode({ id: program.id }),
      () => r1.caller.programs.update({ id: program.id, name: "Mine now" }),
    ];
    for (const call of directorCalls) {
      expect(await errorOf(call())).toEqual({
        code: "FORBIDDEN",
        message: "Only the program's directors can do that",
      });
    }
    expect(await membershipOf(h.db.db, r1.user.id)).toMatchObject({ role: "resident" });
    expect((await chief.caller.programs.get({ id: program.id })).name).toBe("Riverside Psychiatry");

    const elsewhere = await programWith(1);
    for (const outsider of [elsewhere.chief, elsewhere.residents[0]!, await h.user()]) {
      for (const call of [
        () => outsider.caller.programs.get({ id: program.id }),
        () => outsider.caller.programs.members({ id: program.id }),
        () => outsider.caller.programs.leave({ id: program.id }),
        () => outsider.caller.programs.renewCode({ id: program.id }),
        () => outsider.caller.programs.removeMember({ id: program.id, userId: r1.user.id }),
      ]) {
        expect(await errorOf(call())).toEqual({ code: "NOT_FOUND", message: "Program not found" });
      }
    }
    // A director of another program cannot reach this one's members through their own program.
    expect(
      await errorOf(
        elsewhere.chief.caller.programs.removeMember({
          id: elsewhere.program.id,
          userId: r1.user.id,
        }),
      ),
    ).toEqual({ code: "NOT_FOUND", message: PROGRAM_ERRORS.NOT_A_MEMBER });
    expect(await membershipOf(h.db.db, r1.user.id)).toMatchObject({ programId: program.id });
  });

  it("directors see the whole roster by PGY; residents see the directors and the class sizes", async () => {
    const { chief, program, residents } = await programWith(4);
    await h.db.db
      .update(users)
      .set({ displayName: "Dr. Chief" })
      .where(eq(users.id, chief.user.id));
    const full = await chief.caller.programs.members({ id: program.id });
    expect(full.roster).toBe("full");
    expect(full.members.map((m) => m.pgyLabel)).toEqual([
      "PGY-1",
      "PGY-1",
      "PGY-2",
      "PGY-3",
      "PGY-4",
    ]);
    expect(full.members.find((m) => m.userId === chief.user.id)).toMatchObject({
      username: chief.user.username,
      displayName: "Dr. Chief",
      pgyLevel: "4",
      role: "director",
    });
    expect(full.members.every((m) => m.joinedAt !== null)).toBe(true);
    expect(full.classes).toEqual([
      { pgyLevel: "1", pgyLabel: "PGY-1", residents: 2 },
      { pgyLevel: "2", pgyLabel: "PGY-2", residents: 1 },
      { pgyLevel: "3", pgyLabel: "PGY-3", residents: 1 },
    ]);

    const seen = await residents[0]!.caller.programs.members({ id: program.id });
    expect(seen.roster).toBe("directors");
    expect(seen.members.map((m) => m.username)).toEqual([chief.user.username]);
    expect(seen.classes).toEqual(full.classes);
    expect(JSON.stringify(seen)).not.toContain(residents[1]!.user.username);
  });

  it("promotes and demotes, recording each change; a program keeps at least one director", async () => {
    const { chief, program, residents } = await programWith(2);
    const [r1] = residents as [TestUser];
    // The only director cannot step down or leave while others remain.
    expect(
      await errorOf(
        chief.caller.programs.setRole({ id: program.id, userId: chief.user.id, role: "resident" }),
      ),
    ).toEqual({ code: "CONFLICT", message: PROGRAM_ERRORS.ONLY_DIRECTOR_DEMOTED });
    expect(await errorOf(chief.caller.programs.leave({ id: program.id }))).toEqual({
      code: "CONFLICT",
      message: PROGRAM_ERRORS.ONLY_DIRECTOR_LEAVING,
    });

    expect(
      await chief.caller.programs.setRole({ id: program.id, userId: r1.user.id, role: "director" }),
    ).toEqual({ userId: r1.user.id, role: "director", changed: true });
    // The new director reads the code and manages the roster at once.
    expect((await r1.caller.programs.get({ id: program.id })).code).toBe(program.code);
    // Now the first director may step down, and the second cannot.
    await chief.caller.programs.setRole({
      id: program.id,
      userId: chief.user.id,
      role: "resident",
    });
    expect(
      await errorOf(
        r1.caller.programs.setRole({ id: program.id, userId: r1.user.id, role: "resident" }),
      ),
    ).toEqual({ code: "CONFLICT", message: PROGRAM_ERRORS.ONLY_DIRECTOR_DEMOTED });
    // Setting the role a member has changes nothing and records nothing.
    expect(
      await r1.caller.programs.setRole({ id: program.id, userId: r1.user.id, role: "director" }),
    ).toMatchObject({ changed: false });

    const changes = await listAudit(h.db.db, {
      kind: "program.role_changed",
      username: chief.user.username,
      limit: 10,
    });
    expect(changes.entries.map((e) => [e.username, e.targetUsername, e.detail.to])).toEqual([
      [chief.user.username, chief.user.username, "resident"],
      [chief.user.username, r1.user.username, "director"],
    ]);
  });
});

describe("leaving and removal", () => {
  it("leaving takes the program away at once; the last member leaving deletes the program", async () => {
    const { chief, program, residents } = await programWith(1);
    const [r1] = residents as [TestUser];
    await h.db.db
      .update(users)
      .set({ shareScoresWithProgram: true })
      .where(eq(users.id, r1.user.id));
    expect(await r1.caller.programs.leave({ id: program.id })).toEqual({
      left: true,
      programDeleted: false,
    });
    expect(await r1.caller.programs.mine()).toBeNull();
    expect(await membershipOf(h.db.db, r1.user.id)).toBeNull();
    expect((await errorOf(r1.caller.programs.members({ id: program.id }))).code).toBe("NOT_FOUND");
    // Sharing scores was with that program: it does not carry over to the next one.
    const [row] = await h.db.db.select().from(users).where(eq(users.id, r1.user.id));
    expect(row).toMatchObject({
      programId: null,
      programRole: null,
      programJoinedAt: null,
      shareScoresWithProgram: false,
    });
    expect((await chief.caller.programs.members({ id: program.id })).members).toHaveLength(1);
    // A former member may join again with the code.
    await r1.caller.programs.join({ code: program.code! });
    await r1.caller.programs.leave({ id: program.id });

    // Alone, the director may leave; the program goes with them.
    expect(await chief.caller.programs.leave({ id: program.id })).toEqual({
      left: true,
      programDeleted: true,
    });
    expect(await h.db.db.select().from(programs).where(eq(programs.id, program.id))).toEqual([]);
    expect((await errorOf(r1.caller.programs.join({ code: program.code! }))).code).toBe(
      "NOT_FOUND",
    );
  });

  it("a director removes a member, who loses access at once, cached sessions included", async () => {
    const { chief, program, residents } = await programWith(2);
    const [r1, r2] = residents as [TestUser, TestUser];
    // The HTTP server's cache holds the resident's session; the director's removal must forget it.
    const cache = new SessionCache(60_000);
    cache.store(
      "resident-session",
      { session: { id: "resident-session" } as never, user: r1.user },
      cache.epoch,
      Date.now(),
    );
    const director = await h.callerFor(chief.user, { sessionCache: cache });
    expect(await director.programs.removeMember({ id: program.id, userId: r1.user.id })).toEqual({
      removed: true,
      userId: r1.user.id,
    });
    expect(cache.get("resident-session", Date.now())).toBeUndefined();
    expect(await membershipOf(h.db.db, r1.user.id)).toBeNull();
    expect((await errorOf(r1.caller.programs.get({ id: program.id }))).code).toBe("NOT_FOUND");
    expect(await r1.caller.programs.mine()).toBeNull();
    // Removing someone who is no longer a member, or oneself, is refused.
    expect(
      await errorOf(director.programs.removeMember({ id: program.id, userId: r1.user.id })),
    ).toEqual({ code: "NOT_FOUND", message: PROGRAM_ERRORS.NOT_A_MEMBER });
    expect(
      await errorOf(director.programs.removeMember({ id: program.id, userId: chief.user.id })),
    ).toEqual({ code: "BAD_REQUEST", message: PROGRAM_ERRORS.REMOVE_SELF });
    // A role change forgets the member's cached sessions too.
    cache.store(
      "r2-session",
      { session: { id: "r2-session" } as never, user: r2.user },
      cache.epoch,
      Date.now(),
    );
    await director.programs.setRole({ id: program.id, userId: r2.user.id, role: "director" });
    expect(cache.get("r2-session", Date.now())).toBeUndefined();
  });

  it("records create, join, leave, removal and code renewal in the audit log", async () => {
    const { chief, program, residents } = await programWith(2);
    const [r1, r2] = residents as [TestUser, TestUser];
    await chief.caller.programs.removeMember({ id: program.id, userId: r1.user.id });
    await r2.caller.programs.leave({ id: program.id });
    await chief.caller.programs.renewCode({ id: program.id });
    const kinds = async (username: string) =>
      (await listAudit(h.db.db, { username, limit: 20 })).entries
        .filter((e) => e.kind.startsWith("program."))
        .map((e) => e.kind);
    expect(await kinds(chief.user.username)).toEqual([
      "program.code_renewed",
      "program.member_removed",
      "program.created",
    ]);
    expect(await kinds(r1.user.username)).toEqual(["program.member_removed", "program.joined"]);
    expect(await kinds(r2.user.username)).toEqual(["program.left", "program.joined"]);
    const [created] = (
      await listAudit(h.db.db, { kind: "program.created", username: chief.user.username, limit: 1 })
    ).entries;
    expect(created!.detail).toEqual({ programId: program.id, name: "Riverside Psychiatry" });
  });
});

describe("the Admin page's list", () => {
  it("lists every program with its counts and directors, to admins only", async () => {
    const admin = await h.user({ isAdmin: true });
    const { chief, program } = await programWith(3);
    const all = await admin.caller.programs.all();
    expect(all.find((p) => p.id === program.id)).toEqual({
      id: program.id,
      name: "Riverside Psychiatry",
      institution: "Riverside University",
      createdAt: program.createdAt,
      memberCount: 4,
      residentCount: 3,
      directors: [chief.user.username],
    });
    expect((await errorOf(chief.caller.programs.all())).code).toBe("FORBIDDEN");
    // Admins have no member's rights over a program they are not in.
    expect((await errorOf(admin.caller.programs.get({ id: program.id }))).code).toBe("NOT_FOUND");
    expect(await codeOf(program.id)).toBe(program.code);
  });
});
