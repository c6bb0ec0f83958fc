import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPORT_MESSAGES, REPORTED_NOTICE, type ReportKind } from "../../../core/reports";
import {
  auditEvents,
  publicCategoryCounts,
  questionReports,
  questionVersions,
  questions,
  studyStates,
} from "../../db/schema";
import { makeProgram, putInProgram } from "../../test/programs.fixtures";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { enableDuePageCache } from "../study/due-page-cache";
import { addQuestion } from "../study/test-fixtures";

/**
 * Reports on questions (issue 36, docs/product/reports.md, decisions 380-384): who may report, see and
 * resolve what — the owner, a resident of the same program, its director, an admin, another user —,
 * one open report per reader and question, the takedown at the third distinct copyright reporter and
 * the admin's decision, and the "key may be wrong" notice on the study list.
 */

let h: Harness;
let admin: TestUser;
let owner: TestUser;
let resident: TestUser;
let director: TestUser;
let outsider: TestUser;
let programId: string;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user(); // the first account is the admin
  owner = await h.user();
  resident = await h.user();
  director = await h.user();
  outsider = await h.user();
  programId = await makeProgram(h.db.db);
  await putInProgram(h.db.db, owner.user.id, programId, "resident");
  await putInProgram(h.db.db, resident.user.id, programId, "resident");
  await putInProgram(h.db.db, director.user.id, programId, "director");
});
afterAll(async () => {
  await h.close();
});

const privateQ = async () => (await addQuestion(h.db.db, owner.user.id, { isPublic: false })).id;
const publicQ = async (category = "Neuroscience") =>
  (await addQuestion(h.db.db, owner.user.id, { isPublic: true, category })).id;
const programQ = async () =>
  (await addQuestion(h.db.db, owner.user.id, { isPublic: false, programId })).id;

const report = (
  who: TestUser,
  questionId: string,
  kind: ReportKind = "unclear",
  comment = "Vague",
) => who.caller.reports.create({ questionId, kind, comment });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "OK";
  } catch (err) {
    return (err as { code: string }).code;
  }
}

describe("who may report", () => {
  it("anyone who can see the question: its owner, the program's members, admins on public ones", async () => {
    const [own, shared, open] = [await privateQ(), await programQ(), await publicQ()];
    const cases: [string, TestUser, string, string][] = [
      ["owner, private", owner, own, "OK"],
      ["resident, private", resident, own, "NOT_FOUND"],
      ["admin, private", admin, own, "NOT_FOUND"],
      ["resident, program", resident, shared, "OK"],
      ["director, program", director, shared, "OK"],
      ["outsider, program", outsider, shared, "NOT_FOUND"],
      ["admin, program", admin, shared, "NOT_FOUND"],
      ["outsider, public", outsider, open, "OK"],
      ["admin, public", admin, open, "OK"],
    ];
    for (const [label, who, q, expected] of cases) {
      expect([label, await codeOf(report(who, q))]).toEqual([label, expected]);
    }
  });

  it("one open report per reader and question; a new one once it is closed", async () => {
    const q = await publicQ();
    const first = await report(outsider, q, "wrong_answer", "C, not B");
    await expect(report(outsider, q, "outdated", "")).rejects.toThrow(REPORT_MESSAGES.ALREADY_OPEN);
    await owner.caller.reports.resolve({ id: first.report.id, outcome: "dismissed", note: "" });
    expect((await report(outsider, q, "outdated", "")).report.status).toBe("open");
    // Another reader is not held by it.
    expect((await report(resident, q)).report.status).toBe("open");
  });

  it("refuses unknown kinds, long comments and an empty comment with other, in the product's words", async () => {
    const q = await publicQ();
    await expect(
      outsider.caller.reports.create({ questionId: q, kind: "typo" as never, comment: "" }),
    ).rejects.toThrow(REPORT_MESSAGES.KIND);
    await expect(report(outsider, q, "unclear", "x".repeat(2001))).rejects.toThrow(
      REPORT_MESSAGES.COMMENT_LONG,
    );
    await expect(
      outsider.caller.reports.create({ questionId: q, kind: "other", comment: " " }),
    ).rejects.toThrow(REPORT_MESSAGES.COMMENT_REQUIRED);
  });
});

describe("the review queue", () => {
  it("shows reports to the question's handlers only, never naming the reporter", async () => {
    const shared = await programQ();
    const open = await publicQ();
    const onShared = (await report(resident, shared, "unclear", "Which drug?")).report.id;
    const onOpen = (await report(outsider, open, "outdated", "DSM-5-TR changed it")).report.id;
    const ids = async (who: TestUser) =>
      (await who.caller.reports.queue({ open: true })).reports.map((r) => r.id);
    expect(await ids(owner)).toEqual(expect.arrayContaining([onShared, onOpen]));
    expect(await ids(director)).toContain(onShared);
    expect(await ids(director)).not.toContain(onOpen);
    expect(await ids(admin)).toContain(onOpen);
    expect(await ids(admin)).not.toContain(onShared);
    expect(await ids(resident)).toEqual([]);
    expect(await ids(outsider)).toEqual([]);
    const seen = JSON.stringify(await owner.caller.reports.queue({ open: false }));
    expect(seen).not.toContain(resident.user.id);
    expect(seen).not.toContain(resident.user.username);
    expect((await owner.caller.reports.openCount()).open).toBeGreaterThanOrEqual(2);
    expect((await outsider.caller.reports.openCount()).open).toBe(0);
  });

  it("is resolved by the owner, the director or an admin as their rules say; the reporter reads the answer", async () => {
    const shared = await programQ();
    const open = await publicQ();
    const r1 = (await report(resident, shared, "wrong_answer", "The key is D")).report.id;
    const r2 = (await report(outsider, open, "duplicate", "Same as Q12")).report.id;
    const resolve = (who: TestUser, id: string) =>
      who.caller.reports.resolve({ id, outcome: "answered", note: "Checked: the key is right" });
    // The reporter may not close their own report; nobody else learns it exists.
    expect(await codeOf(resolve(resident, r1))).toBe("FORBIDDEN");
    expect(await codeOf(resolve(outsider, r1))).toBe("NOT_FOUND");
    expect(await codeOf(resolve(admin, r1))).toBe("NOT_FOUND");
    expect(await codeOf(resolve(director, r2))).toBe("NOT_FOUND");
    await expect(
      director.caller.reports.resolve({ id: r1, outcome: "answered", note: "" }),
    ).rejects.toThrow(REPORT_MESSAGES.ANSWER_REQUIRED);
    const answered = await resolve(director, r1);
    expect(answered).toMatchObject({ status: "answered", response: "Checked: the key is right" });
    expect(await codeOf(resolve(owner, r1))).toBe("CONFLICT");
    expect(
      (await admin.caller.reports.resolve({ id: r2, outcome: "fixed", note: "Merged" })).status,
    ).toBe("fixed");
    const mine = await resident.caller.reports.mine();
    expect(mine.find((r) => r.id === r1)).toMatchObject({
      status: "answered",
      response: "Checked: the key is right",
      mine: true,
      question: { own: false, visibility: "program" },
    });
  });

  it("takes a leech's report from Study as a real report of kind other", async () => {
    const q = await publicQ();
    await h.db.db
      .insert(studyStates)
      .values({ userId: outsider.user.id, questionId: q, lapses: 8, leech: true });
    await outsider.caller.study.reportLeech({ questionId: q, note: "Two answers are right" });
    const queue = await owner.caller.reports.queue({ open: true });
    expect(queue.reports.find((r) => r.questionId === q)).toMatchObject({
      kind: "other",
      comment: "Two answers are right",
    });
    // Reporting the leech again files nothing new.
    await outsider.caller.study.reportLeech({ questionId: q, note: "Again" });
    expect((await outsider.caller.reports.mine()).filter((r) => r.questionId === q)).toHaveLength(
      1,
    );
  });
});

describe("the notice on study", () => {
  it("shows an open wrong-answer report's text to those who study the question, and goes when it closes", async () => {
    enableDuePageCache(h.db.db);
    const student = await h.user();
    const q = (await addQuestion(h.db.db, student.user.id, { isPublic: false })).id;
    const noticeOf = async () =>
      (await student.caller.study.due({})).questions.find((x) => x._id === q)?.reported;
    expect(await noticeOf()).toBeNull();
    // Only wrong-answer reports show.
    await report(student, q, "unclear", "Vague");
    expect(await noticeOf()).toBeNull();
    const mine = (await student.caller.reports.mine())[0]!;
    await student.caller.reports.resolve({ id: mine.id, outcome: "dismissed", note: "" });
    const filed = await report(student, q, "wrong_answer", "Lithium, not valproate");
    expect(await noticeOf()).toMatchObject({ count: 1, comment: "Lithium, not valproate" });
    // Browse and the question's page read it too.
    expect(await student.caller.questions.get({ id: q })).toMatchObject({ reported: { count: 1 } });
    await student.caller.reports.resolve({ id: filed.report.id, outcome: "fixed", note: "Fixed" });
    expect(await noticeOf()).toBeNull();
    expect(REPORTED_NOTICE).toBe("Reported: the key may be wrong");
    // The question an answer returns carries the notice too, whichever path the study writer takes.
    await report(student, q, "wrong_answer", "Still valproate");
    const answered = await student.caller.study.answer({
      questionId: q,
      selected: ["A"],
      timeSpentMs: 1000,
    });
    expect(answered.question.reported).toMatchObject({ count: 1, comment: "Still valproate" });
  });
});

describe("takedown", () => {
  const countOf = async (category: string) =>
    (
      await h.db.db
        .select({ n: publicCategoryCounts.questions })
        .from(publicCategoryCounts)
        .where(eq(publicCategoryCounts.category, category))
    )[0]?.n ?? 0;

  it("takes a public question down at the third distinct copyright reporter, the same reader counting once", async () => {
    const category = "Forensic Psychiatry";
    const q = await publicQ(category);
    const readers = [await h.user(), await h.user(), await h.user()];
    // A reader who studied it: their state leaves the pool with the question.
    await h.db.db.insert(studyStates).values({ userId: readers[2]!.user.id, questionId: q });
    const before = await countOf(category);
    expect(before).toBeGreaterThan(0);
    // The owner's own copyright report does not count.
    await report(owner, q, "copyright", "");
    const first = await report(readers[0]!, q, "copyright", "From the 2019 exam");
    // The same reader again: refused while open; after an admin dismisses it, a new one still counts once.
    await expect(report(readers[0]!, q, "copyright", "")).rejects.toThrow(
      REPORT_MESSAGES.ALREADY_OPEN,
    );
    await admin.caller.reports.resolve({ id: first.report.id, outcome: "dismissed", note: "" });
    expect((await report(readers[0]!, q, "copyright", "Really")).takenDown).toBe(false);
    expect((await report(readers[1]!, q, "copyright", "")).takenDown).toBe(false);
    const [still] = await h.db.db.select().from(questions).where(eq(questions.id, q));
    expect(still).toMatchObject({ isPublic: true, takenDownAt: null });

    const third = await report(readers[2]!, q, "copyright", "Copied from a review book");
    expect(third.takenDown).toBe(true);
    const [down] = await h.db.db.select().from(questions).where(eq(questions.id, q));
    expect(down!.isPublic).toBe(false);
    expect(down!.takenDownAt).not.toBeNull();
    expect(await countOf(category)).toBe(before - 1);
    const [state] = await h.db.db
      .select({ available: studyStates.available })
      .from(studyStates)
      .where(and(eq(studyStates.userId, readers[2]!.user.id), eq(studyStates.questionId, q)));
    expect(state!.available).toBe(false);
    // Out of everyone's view but its owner's, who is told why.
    expect(await codeOf(report(outsider, q))).toBe("NOT_FOUND");
    const ownView = await owner.caller.reports.queue({ open: false });
    expect(ownView.reports.find((r) => r.questionId === q)?.question).toMatchObject({
      takedownPending: true,
      own: true,
    });
    const [audit] = await h.db.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.kind, "question.taken_down"));
    expect(audit).toMatchObject({
      userId: readers[2]!.user.id,
      targetUserId: owner.user.id,
      detail: { questionId: q, reporters: 3 },
    });
    // Admins see it first; only they close its copyright reports; the owner cannot make it public.
    const adminQueue = await admin.caller.reports.queue({ open: true });
    expect(adminQueue.reports[0]).toMatchObject({ questionId: q, kind: "copyright" });
    const ownReport = ownView.reports.find((r) => r.questionId === q && r.kind === "copyright")!;
    await expect(
      owner.caller.reports.resolve({ id: ownReport.id, outcome: "dismissed", note: "" }),
    ).rejects.toThrow(REPORT_MESSAGES.COPYRIGHT_ADMINS_ONLY);
    await expect(
      owner.caller.questions.update({
        id: q,
        data: { visibility: "public", shareStatement: "I wrote it" },
      }),
    ).rejects.toThrow(REPORT_MESSAGES.TAKEN_DOWN_PUBLIC);
  });

  it("an admin restores one (public again, reports dismissed) or keeps one down; both in the audit log", async () => {
    const takeDown = async () => {
      const q = await publicQ("Ethics");
      for (let i = 0; i < 3; i++) await report(await h.user(), q, "copyright", "");
      return q;
    };
    const restored = await takeDown();
    const kept = await takeDown();
    await expect(
      owner.caller.reports.decideTakedown({ questionId: restored, decision: "restore", note: "" }),
    ).rejects.toThrow();
    expect(
      await admin.caller.reports.decideTakedown({
        questionId: restored,
        decision: "restore",
        note: "The owner wrote it",
      }),
    ).toMatchObject({ decision: "restore", closedReports: 3 });
    const [back] = await h.db.db.select().from(questions).where(eq(questions.id, restored));
    expect(back).toMatchObject({ isPublic: true, takenDownAt: null });
    // The history names nobody for the automatic takedown and the admin for the restore.
    const versions = await h.db.db
      .select({ version: questionVersions.version, editorId: questionVersions.editorId })
      .from(questionVersions)
      .where(eq(questionVersions.questionId, restored))
      .orderBy(questionVersions.version);
    expect(versions.map((v) => v.editorId).slice(-2)).toEqual([null, admin.user.id]);
    expect(await codeOf(report(outsider, restored, "unclear", ""))).toBe("OK");

    await admin.caller.reports.decideTakedown({ questionId: kept, decision: "keep", note: "" });
    const [stays] = await h.db.db.select().from(questions).where(eq(questions.id, kept));
    expect(stays!.isPublic).toBe(false);
    expect(stays!.takenDownAt).not.toBeNull();
    const closed = await h.db.db
      .select({ status: questionReports.status, response: questionReports.response })
      .from(questionReports)
      .where(eq(questionReports.questionId, kept));
    expect(closed.map((r) => r.status)).toEqual(["fixed", "fixed", "fixed"]);
    expect(closed[0]!.response).toContain("kept the question out of public view");
    // Decided: nothing waits any more.
    await expect(
      admin.caller.reports.decideTakedown({ questionId: kept, decision: "restore", note: "" }),
    ).rejects.toThrow(REPORT_MESSAGES.NOT_TAKEN_DOWN);
    const decided = await h.db.db
      .select({ detail: auditEvents.detail })
      .from(auditEvents)
      .where(eq(auditEvents.kind, "question.takedown_decided"));
    expect(decided.map((d) => d.detail.decision).sort()).toEqual(["keep", "restore"]);
  });
});

describe("over HTTP", () => {
  it("POST /api/questions/:id/reports answers 201, 409 for a second open one, 400 and 404 in the product's words", async () => {
    const app = await h.app();
    const q = await publicQ();
    const post = (id: string, payload: object) =>
      app.inject({
        method: "POST",
        url: `/api/questions/${id}/reports`,
        headers: outsider.headers,
        payload,
      });
    const created = await post(q, { kind: "wrong_answer", comment: "C" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ report: { kind: "wrong_answer", status: "open" } });
    const again = await post(q, { kind: "unclear" });
    expect([again.statusCode, again.json().message]).toEqual([409, REPORT_MESSAGES.ALREADY_OPEN]);
    // A client's spelling of a kind: the same kind, here refused only as a second open report.
    const spelled = await post(q, { kind: "Wrong answer" });
    expect([spelled.statusCode, spelled.json().message]).toEqual([
      409,
      REPORT_MESSAGES.ALREADY_OPEN,
    ]);
    const bad = await post(q, { kind: "typo" });
    expect([bad.statusCode, bad.json().message]).toEqual([400, REPORT_MESSAGES.KIND]);
    const hidden = await post(await privateQ(), { kind: "unclear" });
    expect(hidden.statusCode).toBe(404);

    const queue = await app.inject({
      method: "GET",
      url: "/api/reports?open=true",
      headers: owner.headers,
    });
    const id = created.json().report.id as string;
    expect(queue.json().reports.map((r: { id: string }) => r.id)).toContain(id);
    const resolved = await app.inject({
      method: "POST",
      url: `/api/reports/${id}/resolve`,
      headers: owner.headers,
      payload: { outcome: "fixed", note: "Key corrected to C" },
    });
    expect(resolved.json()).toMatchObject({ status: "fixed", response: "Key corrected to C" });
    const mine = await app.inject({
      method: "GET",
      url: "/api/reports/mine",
      headers: outsider.headers,
    });
    expect(mine.json().find((r: { id: string }) => r.id === id)).toMatchObject({ status: "fixed" });
  });
});
