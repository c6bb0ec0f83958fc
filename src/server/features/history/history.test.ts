import { TRPCError } from "@trpc/server";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { questions, questionVersions, reviews, users } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { enableDuePageCache, newDuePageCache } from "../study/due-page-cache";
import { addFlashcard, addQuestion } from "../study/test-fixtures";

/**
 * Issue 36 item 4 (docs/product/history.md, decisions 385-389): every change of a question, by any
 * path, is kept with who and when; who may see and restore it; a key change and past answers.
 */
let h: Harness;
let admin: TestUser;
beforeAll(async () => {
  h = await createHarness();
  admin = await h.user(); // the first account is the admin
});
afterAll(async () => {
  await h.close();
});

const T0 = new Date("2026-03-01T10:00:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

async function versionsOf(questionId: string) {
  return h.db.db
    .select()
    .from(questionVersions)
    .where(eq(questionVersions.questionId, questionId))
    .orderBy(questionVersions.version);
}

async function callerAt(user: TestUser, now: Date) {
  return h.callerFor(user.user, { now: () => now });
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "OK";
  } catch (e) {
    if (e instanceof TRPCError) return e.code;
    throw e;
  }
}

async function ownQuestion(owner: TestUser, overrides: Parameters<typeof addQuestion>[2] = {}) {
  return addQuestion(h.db.db, owner.user.id, {
    isPublic: false,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  });
}

describe("every change is kept with who and when", () => {
  it("writes nothing on insert, and on the first edit keeps the state before it as version 1", async () => {
    const owner = await h.user();
    const q = await ownQuestion(owner);
    expect(await versionsOf(q.id)).toEqual([]);
    const c = await callerAt(owner, at(5));
    await c.questions.update({ id: q.id, data: { text: "Which drug is first line?" } });
    const [v1, v2, ...more] = await versionsOf(q.id);
    expect(more).toEqual([]);
    expect(v1!.version).toBe(1);
    expect(v1!.editorId).toBe(owner.user.id);
    expect(v1!.createdAt.toISOString()).toBe(T0.toISOString());
    expect(v1!.snapshot.text).toBe(q.text);
    expect(v2!.editorId).toBe(owner.user.id);
    expect(v2!.createdAt.toISOString()).toBe(at(5).toISOString());
    expect(v2!.snapshot.text).toBe("Which drug is first line?");
    expect(v2!.restoredFrom).toBeNull();

    // Saving the same values again, or touching updated_at alone, records nothing.
    await c.questions.update({ id: q.id, data: { text: "Which drug is first line?" } });
    await h.db.db
      .update(questions)
      .set({ updatedAt: at(9) })
      .where(eq(questions.id, q.id));
    expect(await versionsOf(q.id)).toHaveLength(2);
  });

  it("records the key, the options, the explanation, the category and the visibility, and shows the differences", async () => {
    const owner = await h.user();
    const q = await ownQuestion(owner);
    const c = await callerAt(owner, at(1));
    await c.questions.update({ id: q.id, data: { correctAnswer: "D" } });
    await c.questions.update({
      id: q.id,
      data: { options: { ...q.options, C: "gamma prime" }, explanation: "Because." },
    });
    await c.questions.update({ id: q.id, data: { category: "Psychopharmacology" } });
    await c.questions.update({
      id: q.id,
      data: { visibility: "public", shareStatement: "I wrote it myself" },
    });
    const history = await c.questions.history({ id: q.id });
    expect(history.canRestore).toBe(true);
    expect(history.versions.map((v) => v.version)).toEqual([5, 4, 3, 2, 1]);
    expect(history.versions[0]!.current).toBe(true);
    const changes = (v: number) =>
      history.versions
        .find((x) => x.version === v)!
        .changes.map((ch) => [ch.label, ch.before, ch.after]);
    expect(changes(1)).toEqual([]);
    expect(changes(2)).toEqual([["Answer key", "B", "D"]]);
    expect(changes(3)).toEqual([
      ["Option C", "gamma", "gamma prime"],
      ["Explanation", "(empty)", "Because."],
    ]);
    expect(changes(4)).toEqual([["Category", "Neuroscience", "Psychopharmacology"]]);
    expect(changes(5)).toEqual([
      ["Visibility", "Private", "Public"],
      ["Share statement", "(empty)", "I wrote it myself"],
    ]);
    expect(history.versions[0]!.editor).toEqual({
      id: owner.user.id,
      username: owner.user.username,
    });
    expect(history.versions[0]!.snapshot).not.toHaveProperty("programId");
    expect(history.versions[0]!.snapshot.visibility).toBe("public");
  });

  it("records a flashcard's edit, a bulk merge, an applied answer key and a saved explanation", async () => {
    const owner = await h.user();
    const c = await callerAt(owner, at(2));
    const card = await addFlashcard(h.db.db, owner.user.id, { isPublic: false });
    await c.questions.update({ id: card.id, data: { back: "<p>The new back</p>" } as never });
    expect((await versionsOf(card.id)).map((v) => v.snapshot.back)).toEqual([
      card.back,
      "<p>The new back</p>",
    ]);

    const merged = await ownQuestion(owner, { number: 7001, part: "1", year: 2024 });
    await c.questions.bulkCreate({
      questions: [
        {
          _id: merged.id,
          text: "Merged text",
          options: { A: "a", B: "b", C: "c", D: "d", E: "e" },
          correctAnswer: "A",
          part: "1",
          year: 2024,
        },
      ],
    });
    const afterMerge = await versionsOf(merged.id);
    expect(afterMerge.at(-1)!.snapshot.text).toBe("Merged text");
    expect(afterMerge.at(-1)!.editorId).toBe(owner.user.id);

    const keyed = await ownQuestion(owner, { number: 7002, part: "2", year: 2023 });
    await c.answerKeys.save({ part: "2", year: 2023, answers: { "7002": "E" } });
    await c.answerKeys.applyToQuestions({ part: "2", year: 2023, overwrite: true });
    const afterKey = await versionsOf(keyed.id);
    expect(afterKey.at(-1)!.snapshot.correctAnswer).toBe("E");
    expect(afterKey.at(-1)!.editorId).toBe(owner.user.id);
    expect(afterKey.at(-1)!.createdAt.toISOString()).toBe(at(2).toISOString());

    await c.explanations.save({ questionId: keyed.id, explanation: "Saved from the tutor." });
    const history = await c.questions.history({ id: keyed.id });
    expect(history.versions[0]!.changes.map((ch) => ch.label)).toEqual(["Saved AI explanation"]);
  });

  it("records an import's merge into the owner's question", async () => {
    const owner = await h.user();
    const target = await ownQuestion(owner, { correctAnswer: "B", correctAnswers: ["B"] });
    await (
      await callerAt(owner, at(4))
    ).imports.commit({
      items: [
        {
          question: {
            text: "An imported wording of the question, long enough to stand on its own here.",
            options: { A: "a1", B: "b1", C: "c1", D: "d1" },
            correctAnswer: "D",
            category: "",
            part: "1",
            year: 2024,
            number: null,
            explanation: "",
          },
          action: { merge: "newer", targetId: target.id },
        },
      ],
    });
    const history = await owner.caller.questions.history({ id: target.id });
    expect(history.versions).toHaveLength(2);
    expect(history.versions[0]!.editor?.id).toBe(owner.user.id);
    expect(history.versions[0]!.at).toBe(at(4).toISOString());
    expect(history.versions[0]!.changes.map((ch) => ch.label)).toContain("Answer key");
  });

  it("names no editor where no user acted", async () => {
    const owner = await h.user();
    const q = await ownQuestion(owner);
    await h.db.db.update(questions).set({ category: "Child" }).where(eq(questions.id, q.id));
    const history = await owner.caller.questions.history({ id: q.id });
    expect(history.versions[0]!.editor).toBeNull();
    expect(history.versions[1]!.editor?.id).toBe(owner.user.id);
  });

  it("shows a question never changed as its one first version", async () => {
    const owner = await h.user();
    const q = await ownQuestion(owner);
    const history = await owner.caller.questions.history({ id: q.id });
    expect(history.versions).toHaveLength(1);
    expect(history.versions[0]).toMatchObject({ version: 1, current: true, changes: [] });
    expect(history.versions[0]!.editor?.username).toBe(owner.user.username);
  });
});

describe("restoring a version", () => {
  it("brings back the version's content as a new version, keeps the visibility, and refuses what cannot be", async () => {
    const owner = await h.user();
    const q = await ownQuestion(owner);
    const c = await callerAt(owner, at(3));
    await c.questions.update({ id: q.id, data: { text: "Edited text", correctAnswer: "A" } });
    await c.questions.update({
      id: q.id,
      data: { visibility: "public", shareStatement: "Mine to share" },
    });
    const later = await callerAt(owner, at(8));
    const { message, history } = await later.questions.restoreVersion({ id: q.id, version: 1 });
    expect(message).toBe("Version 1 restored");
    expect(history.versions[0]).toMatchObject({ version: 4, restoredFrom: 1, current: true });
    expect(history.versions[0]!.at).toBe(at(8).toISOString());
    expect(history.versions[0]!.changes.map((ch) => ch.label)).toEqual(["Question", "Answer key"]);
    const now = await owner.caller.questions.get({ id: q.id });
    expect(now.text).toBe(q.text);
    expect(now.correctAnswer).toBe("B");
    // Visibility is not restored (decision 387): the question stays public.
    expect(now.isPublic).toBe(true);

    expect(await code(later.questions.restoreVersion({ id: q.id, version: 4 }))).toBe(
      "BAD_REQUEST",
    );
    expect(await code(later.questions.restoreVersion({ id: q.id, version: 1 }))).toBe(
      "BAD_REQUEST",
    );
    expect(await code(later.questions.restoreVersion({ id: q.id, version: 99 }))).toBe("NOT_FOUND");
    expect(await versionsOf(q.id)).toHaveLength(4);
  });

  it("serves the restored text on the next due page, kept pages included", async () => {
    // As in production: due pages kept by version (decision 270); a restore moves the versions.
    enableDuePageCache(h.db.db, newDuePageCache());
    const owner = await h.user();
    const q = await ownQuestion(owner);
    await owner.caller.questions.update({ id: q.id, data: { text: "Changed for a while" } });
    const before = await owner.caller.study.due();
    expect(before.questions.find((x) => x._id === q.id)?.text).toBe("Changed for a while");
    await owner.caller.questions.restoreVersion({ id: q.id, version: 1 });
    const after = await owner.caller.study.due();
    expect(after.questions.find((x) => x._id === q.id)?.text).toBe(q.text);
  });

  it("restores a flashcard as a flashcard", async () => {
    const owner = await h.user();
    const card = await addFlashcard(h.db.db, owner.user.id, { isPublic: false });
    await owner.caller.questions.update({ id: card.id, data: { back: "<p>Changed</p>" } as never });
    await owner.caller.questions.restoreVersion({ id: card.id, version: 1 });
    const now = await owner.caller.questions.get({ id: card.id });
    expect(now.back).toBe(card.back);
    expect(now.questionType).toBe("flashcard");
  });
});

describe("who may see and restore the history", () => {
  it("owner, directors of the question's program, admins (public, read only); residents and others not", async () => {
    const director = await h.user();
    const resident = await h.user();
    const owner = await h.user();
    const outsider = await h.user();
    const program = await director.caller.programs.create({ name: "History program" });
    await resident.caller.programs.join({ code: program.code! });
    await owner.caller.programs.join({ code: program.code! });
    const otherDirector = await h.user();
    await otherDirector.caller.programs.create({ name: "Another program" });

    const programQ = await ownQuestion(owner, { programId: program.id });
    const privateQ = await ownQuestion(owner);
    const publicQ = await ownQuestion(owner, { isPublic: true });
    for (const id of [programQ.id, privateQ.id, publicQ.id]) {
      await owner.caller.questions.update({ id, data: { correctAnswer: "C" } });
    }

    const see = (u: TestUser, id: string) => code(u.caller.questions.history({ id }));
    const restore = (u: TestUser, id: string) =>
      code(u.caller.questions.restoreVersion({ id, version: 1 }));

    expect(await see(owner, programQ.id)).toBe("OK");
    expect(await see(director, programQ.id)).toBe("OK");
    expect(await see(resident, programQ.id)).toBe("FORBIDDEN");
    expect(await see(otherDirector, programQ.id)).toBe("NOT_FOUND");
    expect(await see(outsider, programQ.id)).toBe("NOT_FOUND");
    expect(await see(admin, programQ.id)).toBe("NOT_FOUND");

    expect(await see(director, privateQ.id)).toBe("NOT_FOUND");
    expect(await see(director, publicQ.id)).toBe("FORBIDDEN");
    expect(await see(resident, publicQ.id)).toBe("FORBIDDEN");
    expect(await see(admin, publicQ.id)).toBe("OK");
    expect((await admin.caller.questions.history({ id: publicQ.id })).canRestore).toBe(false);

    const before = await versionsOf(programQ.id);
    expect(await restore(resident, programQ.id)).toBe("FORBIDDEN");
    expect(await restore(otherDirector, programQ.id)).toBe("NOT_FOUND");
    expect(await restore(admin, publicQ.id)).toBe("FORBIDDEN");
    expect(await restore(director, publicQ.id)).toBe("FORBIDDEN");
    expect(await versionsOf(programQ.id)).toEqual(before);

    // A director restores a program question: the version names the director.
    expect(await restore(director, programQ.id)).toBe("OK");
    const last = (await versionsOf(programQ.id)).at(-1)!;
    expect(last).toMatchObject({ editorId: director.user.id, restoredFrom: 1 });
    expect(last.snapshot.correctAnswer).toBe("B");
  });

  it("names the director who reserves or releases a program question", async () => {
    const director = await h.user();
    const owner = await h.user();
    const program = await director.caller.programs.create({ name: "Reserving program" });
    await owner.caller.programs.join({ code: program.code! });
    const q = await ownQuestion(owner, { programId: program.id });
    await director.caller.assignments.reserve({ questionIds: [q.id], reserved: true });
    const history = await director.caller.questions.history({ id: q.id });
    expect(history.versions[0]!.editor?.id).toBe(director.user.id);
    expect(history.versions[0]!.changes.map((ch) => [ch.label, ch.after])).toEqual([
      ["Reserved for assessments", "Yes"],
    ]);
  });
});

describe("a change of the key", () => {
  it("keeps past answers as they were judged, and judges later ones against the new key", async () => {
    const owner = await h.user();
    const resident = await h.user();
    const q = await ownQuestion(owner, { isPublic: true });
    const r = await callerAt(resident, at(1));
    const first = await r.study.answer({ questionId: q.id, selected: ["B"], timeSpentMs: 4000 });
    expect(first.isCorrect).toBe(true);
    const summaryBefore = await r.stats.summary();

    await (
      await callerAt(owner, at(2))
    ).questions.update({
      id: q.id,
      data: { correctAnswer: "C" },
    });

    // The past answer stands as judged, and the figures built from it with it.
    const past = await h.db.db
      .select({ isCorrect: reviews.isCorrect })
      .from(reviews)
      .where(and(eq(reviews.userId, resident.user.id), eq(reviews.questionId, q.id)));
    expect(past).toEqual([{ isCorrect: true }]);
    expect(await r.stats.summary()).toEqual(summaryBefore);

    const later = await callerAt(resident, at(60 * 24 * 30));
    expect(
      (await later.study.answer({ questionId: q.id, selected: ["B"], timeSpentMs: 1 })).isCorrect,
    ).toBe(false);
    expect(
      (await later.study.answer({ questionId: q.id, selected: ["C"], timeSpentMs: 1 })).isCorrect,
    ).toBe(true);
    const all = await h.db.db
      .select({ isCorrect: reviews.isCorrect })
      .from(reviews)
      .where(and(eq(reviews.userId, resident.user.id), eq(reviews.questionId, q.id)))
      .orderBy(reviews.reviewedAt);
    expect(all.map((x) => x.isCorrect)).toEqual([true, false, true]);
  });
});

describe("the trigger", () => {
  it("costs nothing on insert: a many-row insert writes no version", async () => {
    const owner = await h.user();
    const before = await h.db.db.select({ n: sql<number>`count(*)::int` }).from(questionVersions);
    for (let i = 0; i < 3; i++) await ownQuestion(owner);
    const after = await h.db.db.select({ n: sql<number>`count(*)::int` }).from(questionVersions);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("keeps versions when the editor's account goes, without a name", async () => {
    const owner = await h.user();
    const director = await h.user();
    const program = await director.caller.programs.create({ name: "Leaving program" });
    await owner.caller.programs.join({ code: program.code! });
    const q = await ownQuestion(owner, { programId: program.id });
    await director.caller.assignments.reserve({ questionIds: [q.id], reserved: true });
    await h.db.db
      .update(users)
      .set({ programId: null, programRole: null })
      .where(eq(users.id, director.user.id));
    await h.db.db.delete(users).where(eq(users.id, director.user.id));
    const history = await owner.caller.questions.history({ id: q.id });
    expect(history.versions[0]!.editor).toBeNull();
    expect(history.versions).toHaveLength(2);
  });
});
