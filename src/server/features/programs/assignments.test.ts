import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dueInstant } from "../../../core/programs/assignments";
import { programAssignmentProgress, questions } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { addQuestion } from "../study/test-fixtures";
import { makeProgram, putInProgram } from "../../test/programs.fixtures";

let h: Harness;
let director: TestUser;
let pgy2: TestUser;
let pgy3: TestUser;
let outsider: TestUser;
let otherDirector: TestUser;
let programId: string;
let otherProgramId: string;
/** The clock every caller below reads: moved forward to make work late. */
let clock = new Date("2026-03-02T12:00:00Z");
const at = () => clock;
type Caller = TestUser["caller"];
const callers = new Map<string, Caller>();
const as = async (u: TestUser): Promise<Caller> => {
  let c = callers.get(u.user.id);
  if (!c) {
    c = await h.callerFor(u.user, { now: at });
    callers.set(u.user.id, c);
  }
  return c;
};

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "OK";
  } catch (err) {
    if (err instanceof TRPCError) return err.code;
    throw err;
  }
}

const RESERVED_MARKER = "reserved-key-explanation-marker";
const reservedIds: string[] = [];
const bankIds: string[] = [];

beforeAll(async () => {
  h = await createHarness();
  await h.user(); // the first account is the admin
  director = await h.user();
  pgy2 = await h.user({ pgyLevel: "2" });
  pgy3 = await h.user({ pgyLevel: "3" });
  outsider = await h.user();
  otherDirector = await h.user();
  programId = await makeProgram(h.db.db, "Assignments program");
  otherProgramId = await makeProgram(h.db.db, "Other program");
  await putInProgram(h.db.db, director.user.id, programId, "director");
  await putInProgram(h.db.db, pgy2.user.id, programId, "resident", { pgyLevel: "2" });
  await putInProgram(h.db.db, pgy3.user.id, programId, "resident", { pgyLevel: "3" });
  await putInProgram(h.db.db, otherDirector.user.id, otherProgramId, "director");
  // The program's bank: 6 questions, 2 of them reserved; 6 public ones; another program's 6.
  for (let i = 0; i < 6; i++) {
    const q = await addQuestion(h.db.db, director.user.id, {
      programId,
      category: "Ethics",
      explanation: i < 2 ? `${RESERVED_MARKER} ${i}` : "",
    });
    bankIds.push(q.id);
    if (i < 2) reservedIds.push(q.id);
    await addQuestion(h.db.db, outsider.user.id, { isPublic: true, category: "Neuroscience" });
    await addQuestion(h.db.db, otherDirector.user.id, { programId: otherProgramId });
  }
  await (await as(director)).assignments.reserve({ questionIds: reservedIds, reserved: true });
});
afterAll(async () => {
  await h.close();
});

describe("reserving questions", () => {
  it("marks and releases only the director's own program questions, all or nothing", async () => {
    const d = await as(director);
    const rows = await h.db.db.select().from(questions).where(eq(questions.programId, programId));
    expect(
      rows
        .filter((r) => r.reserved)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...reservedIds].sort());
    const [publicQ] = await h.db.db.select().from(questions).where(eq(questions.isPublic, true));
    const [foreign] = await h.db.db
      .select()
      .from(questions)
      .where(eq(questions.programId, otherProgramId));
    for (const id of [publicQ!.id, foreign!.id]) {
      expect(
        await code(d.assignments.reserve({ questionIds: [bankIds[3]!, id], reserved: true })),
      ).toBe("NOT_FOUND");
    }
    const [still] = await h.db.db.select().from(questions).where(eq(questions.id, bankIds[3]!));
    expect(still!.reserved).toBe(false);
    // A resident may not; a director of another program may not touch this bank.
    expect(
      await code(
        (await as(pgy2)).assignments.reserve({ questionIds: [bankIds[3]!], reserved: true }),
      ),
    ).toBe("FORBIDDEN");
    expect(
      await code(
        (await as(otherDirector)).assignments.reserve({
          questionIds: [bankIds[3]!],
          reserved: true,
        }),
      ),
    ).toBe("NOT_FOUND");
    // Release and mark again.
    expect(
      await d.assignments.reserve({ questionIds: [reservedIds[0]!], reserved: false }),
    ).toEqual({
      updated: 1,
      reserved: false,
    });
    await d.assignments.reserve({ questionIds: [reservedIds[0]!], reserved: true });
  });
});

describe("a study set", () => {
  it("counts a resident's real answers in its categories since it was given: not started → in progress → done", async () => {
    clock = new Date("2026-03-02T12:00:00Z");
    const d = await as(director);
    const resident = await as(pgy2);
    // An answer before the set exists does not count.
    const [early] = await h.db.db.select().from(questions).where(eq(questions.isPublic, true));
    await resident.study.answer({ questionId: early!.id, selected: ["B"], timeSpentMs: 1000 });
    const { assignment } = await d.assignments.create({
      kind: "study",
      title: "Neuroscience week",
      categories: ["Neuroscience"],
      count: 3,
      due: "2026-03-09",
    });
    expect(assignment.dueAt).toBe(dueInstant("2026-03-09", "UTC").toISOString());
    const statusOf = async (u: TestUser) => {
      const list = await d.assignments.list();
      if (list.role !== "director") throw new Error("director view expected");
      const a = list.assignments.find((x) => x.id === assignment.id)!;
      return a.residents.find((r) => r.userId === u.user.id);
    };
    expect((await statusOf(pgy2))!.status).toBe("not_started");
    const publics = await h.db.db.select().from(questions).where(eq(questions.isPublic, true));
    clock = new Date("2026-03-03T12:00:00Z");
    await resident.study.answer({ questionId: publics[1]!.id, selected: ["B"], timeSpentMs: 1000 });
    expect(await statusOf(pgy2)).toMatchObject({ status: "in_progress", answered: 1, correct: 1 });
    await resident.study.answer({ questionId: publics[2]!.id, selected: ["A"], timeSpentMs: 1000 });
    await resident.study.answer({ questionId: publics[3]!.id, selected: ["B"], timeSpentMs: 1000 });
    expect(await statusOf(pgy2)).toMatchObject({
      status: "done",
      answered: 3,
      correct: 2,
      scorePercent: 67,
    });
    // The resident's own view and the open list (done ones leave it).
    const mine = await resident.assignments.list();
    expect(mine.role).toBe("resident");
    expect(mine.assignments.find((a) => a.id === assignment.id)).toMatchObject({ status: "done" });
    expect((await resident.assignments.open()).map((a) => a.id)).not.toContain(assignment.id);
    // pgy3 never answered: late once the due date passes.
    expect((await statusOf(pgy3))!.status).toBe("not_started");
    clock = new Date("2026-03-10T12:00:00Z");
    expect((await statusOf(pgy3))!.status).toBe("late");
    expect((await statusOf(pgy2))!.status).toBe("done");
    // Finishing after the due date is late, not done.
    const r3 = await as(pgy3);
    for (const q of publics.slice(0, 3)) {
      await r3.study.answer({ questionId: q.id, selected: ["B"], timeSpentMs: 1000 });
    }
    expect(await statusOf(pgy3)).toMatchObject({ status: "late", answered: 3 });
  });

  it("counts nothing for answers outside its categories, for directors, or once closed; extend reopens", async () => {
    clock = new Date("2026-04-01T12:00:00Z");
    const d = await as(director);
    const { assignment } = await d.assignments.create({
      kind: "study",
      categories: ["Neuroscience"],
      count: 2,
      due: "2026-04-05",
      pgyLevel: "2",
    });
    const progress = async () =>
      h.db.db
        .select()
        .from(programAssignmentProgress)
        .where(eq(programAssignmentProgress.assignmentId, assignment.id));
    const publics = await h.db.db.select().from(questions).where(eq(questions.isPublic, true));
    // A PGY-3 resident's answer does not count towards a PGY-2 set, nor a director's.
    await (
      await as(pgy3)
    ).study.answer({ questionId: publics[0]!.id, selected: ["B"], timeSpentMs: 1 });
    await d.study.answer({ questionId: publics[0]!.id, selected: ["B"], timeSpentMs: 1 });
    expect(await progress()).toEqual([]);
    // PGY targeting in both views.
    const dirList = await d.assignments.list();
    if (dirList.role !== "director") throw new Error("director view expected");
    expect(
      dirList.assignments.find((a) => a.id === assignment.id)!.residents.map((r) => r.userId),
    ).toEqual([pgy2.user.id]);
    expect((await (await as(pgy3)).assignments.list()).assignments.map((a) => a.id)).not.toContain(
      assignment.id,
    );
    expect((await (await as(pgy2)).assignments.open()).map((a) => a.id)).toContain(assignment.id);
    // Close: answers stop counting and it leaves the open list.
    await d.assignments.update({ assignmentId: assignment.id, closed: true });
    await (
      await as(pgy2)
    ).study.answer({ questionId: publics[1]!.id, selected: ["B"], timeSpentMs: 1 });
    expect(await progress()).toEqual([]);
    expect((await (await as(pgy2)).assignments.open()).map((a) => a.id)).not.toContain(
      assignment.id,
    );
    // Extend: a new due date reopens it; a past date is refused.
    expect(
      await code(d.assignments.update({ assignmentId: assignment.id, due: "2026-03-01" })),
    ).toBe("BAD_REQUEST");
    const extended = await d.assignments.update({ assignmentId: assignment.id, due: "2026-04-20" });
    expect(extended.closedAt).toBeNull();
    expect(extended.dueAt).toBe(dueInstant("2026-04-20", "UTC").toISOString());
    await (
      await as(pgy2)
    ).study.answer({ questionId: publics[2]!.id, selected: ["B"], timeSpentMs: 1 });
    expect(await progress()).toMatchObject([{ answered: 1, correct: 1 }]);
  });
});

describe("an exam assignment", () => {
  // The REST checks run on the real clock (the HTTP app's), so this exam starts now.
  const start = new Date();
  const day = (days: number) =>
    new Date(start.getTime() + days * 86_400_000).toISOString().slice(0, 10);
  let assignmentId: string;
  let mockExamId: string;

  it("is drawn from the program's bank (reserved included) and public questions, the same for everyone", async () => {
    clock = start;
    const d = await as(director);
    const { assignment, notice } = await d.assignments.create({
      kind: "exam",
      title: "Spring mock",
      size: 12,
      mode: "timed",
      due: day(2),
    });
    expect(notice).toBeNull();
    assignmentId = assignment.id;
    mockExamId = assignment.mockExamId!;
    expect(assignment).toMatchObject({ kind: "exam", questionCount: 12, mode: "timed" });
    const a = await (await as(pgy2)).assignments.start({ assignmentId });
    const b = await (await as(pgy3)).assignments.start({ assignmentId });
    const ids = a.questions.map((q) => q.questionId);
    expect(b.questions.map((q) => q.questionId)).toEqual(ids);
    const drawn = await h.db.db.select().from(questions);
    const byId = new Map(drawn.map((q) => [q.id, q]));
    for (const id of ids) {
      const q = byId.get(id)!;
      expect(q.isPublic || q.programId === programId).toBe(true);
    }
    for (const id of reservedIds) expect(ids).toContain(id);
    // Starting again resumes the same attempt.
    expect((await (await as(pgy2)).assignments.start({ assignmentId })).id).toBe(a.id);
  });

  it("shows no key before submission by any path, and shows it after", async () => {
    const resident = await as(pgy2);
    const attempt = await resident.assignments.start({ assignmentId });
    const reserved = reservedIds[0]!;
    const seen: unknown[] = [attempt, await resident.exams.get({ examId: attempt.id })];
    seen.push(
      await resident.exams.answer({ examId: attempt.id, questionId: reserved, selected: ["A"] }),
      await resident.exams.flag({ examId: attempt.id, questionId: reserved, flagged: true }),
      await resident.exams.eliminate({
        examId: attempt.id,
        questionId: reserved,
        eliminated: ["C"],
      }),
      await resident.exams.list(),
      await resident.assignments.list(),
      await resident.assignments.open(),
    );
    const text = JSON.stringify(seen);
    expect(text).not.toContain(RESERVED_MARKER);
    expect(text).not.toContain("correctAnswers");
    expect(attempt.questions.every((q) => q.feedback === null)).toBe(true);
    // The report, review and study-incorrect wait for the submission; the question by id is not found;
    // the results are the director's; the mock exam's code is unknown outside the program.
    expect(await code(resident.exams.report({ examId: attempt.id }))).toBe("BAD_REQUEST");
    expect(await code(resident.exams.review({ examId: attempt.id }))).toBe("BAD_REQUEST");
    expect(await code(resident.exams.studyIncorrect({ examId: attempt.id }))).not.toBe("OK");
    expect(await code(resident.questions.get({ id: reserved }))).toBe("NOT_FOUND");
    const list = await (await as(director)).assignments.list();
    if (list.role !== "director") throw new Error("director view expected");
    const mockCode = list.assignments.find((x) => x.id === assignmentId)!.mockExamCode!;
    expect(await code(resident.exams.mockResults({ code: mockCode }))).toBe("FORBIDDEN");
    expect(await code(outsider.caller.exams.join({ code: mockCode }))).toBe("NOT_FOUND");
    expect(await code((await as(otherDirector)).exams.join({ code: mockCode }))).toBe("NOT_FOUND");
    // Over REST as well.
    const app = await h.app();
    for (const url of [`/api/questions/${reserved}`, `/api/exams/${attempt.id}/review`]) {
      const res = await app.inject({ method: "GET", url, headers: pgy2.headers });
      expect([url, res.statusCode >= 400]).toEqual([url, true]);
      expect(res.body).not.toContain(RESERVED_MARKER);
    }
    const rest = await app.inject({
      method: "GET",
      url: `/api/exams/${attempt.id}`,
      headers: pgy2.headers,
    });
    expect(rest.statusCode).toBe(200);
    expect(rest.body).not.toContain(RESERVED_MARKER);
    expect(rest.body).not.toContain("correctAnswers");
    // After the submission the review shows it (so the checks above can fail).
    await resident.exams.submit({ examId: attempt.id });
    const review = JSON.stringify(await resident.exams.review({ examId: attempt.id }));
    expect(review).toContain(RESERVED_MARKER);
  });

  it("gives each resident's status through the exam runner: not started, in progress, done, late; close and extend", async () => {
    const d = await as(director);
    const row = async (u: TestUser) => {
      const list = await d.assignments.list();
      if (list.role !== "director") throw new Error("director view expected");
      return list.assignments
        .find((a) => a.id === assignmentId)!
        .residents.find((r) => r.userId === u.user.id)!;
    };
    // pgy2 submitted above (one answer, wrong or right by the draw), pgy3 started.
    const done = await row(pgy2);
    expect(done.status).toBe("done");
    expect(done.scorePercent).not.toBeNull();
    expect((await row(pgy3)).status).toBe("in_progress");
    // A resident who never started: not started, then late after the due date.
    const late = await h.user({ pgyLevel: "2" });
    await putInProgram(h.db.db, late.user.id, programId, "resident", { pgyLevel: "2" });
    expect((await row(late)).status).toBe("not_started");
    clock = new Date(start.getTime() + 4 * 86_400_000);
    expect((await row(late)).status).toBe("late");
    // pgy3's timed exam ran out long ago: it counts as finished at its deadline, before the due date.
    expect((await row(pgy3)).status).toBe("done");
    // Closing closes the mock exam to new takers; extending reopens it.
    await d.assignments.update({ assignmentId, closed: true });
    const lateCaller = await as(late);
    expect(await code(lateCaller.assignments.start({ assignmentId }))).toBe("BAD_REQUEST");
    await d.assignments.update({ assignmentId, due: day(11) });
    const attempt = await lateCaller.assignments.start({ assignmentId });
    expect((await row(late)).status).toBe("in_progress");
    await lateCaller.exams.submit({ examId: attempt.id });
    expect((await row(late)).status).toBe("done");
    expect(mockExamId).toBeTruthy();
  });
});

describe("roles", () => {
  it("refuses a resident every director procedure and a non-member every member procedure", async () => {
    const r = await as(pgy2);
    const anyId = "00000000-0000-4000-8000-000000000000";
    expect(await code(r.assignments.create({ kind: "study", count: 3, due: "2030-01-01" }))).toBe(
      "FORBIDDEN",
    );
    expect(await code(r.assignments.update({ assignmentId: anyId, closed: true }))).toBe(
      "FORBIDDEN",
    );
    expect(await code(r.assignments.reserve({ questionIds: [anyId], reserved: true }))).toBe(
      "FORBIDDEN",
    );
    expect(await code(outsider.caller.assignments.list())).toBe("FORBIDDEN");
    expect(await code(outsider.caller.assignments.start({ assignmentId: anyId }))).toBe(
      "FORBIDDEN",
    );
    expect(await outsider.caller.assignments.open()).toEqual([]);
    // Another program's director: this program's assignments are not found, its id refused.
    const { assignment } = await (
      await as(director)
    ).assignments.create({
      kind: "study",
      count: 1,
      due: "2030-01-01",
    });
    const other = await as(otherDirector);
    expect(
      await code(other.assignments.update({ assignmentId: assignment.id, closed: true })),
    ).toBe("NOT_FOUND");
    expect(await code(other.assignments.list({ programId }))).toBe("NOT_FOUND");
    expect((await other.assignments.list()).assignments.map((a) => a.id)).not.toContain(
      assignment.id,
    );
  });
});
