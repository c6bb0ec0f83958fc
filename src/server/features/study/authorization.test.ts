import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { addQuestion } from "./test-fixtures";

/** docs/ARCHITECTURE.md: every procedure of study, stats and explanations for anonymous, user, other user, admin. */
let h: Harness;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let privateId: string;
let publicId: string;
let ownerSession: string;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user({ isAdmin: true });
  owner = await h.user({ isAdmin: false });
  other = await h.user({ isAdmin: false });
  privateId = (await addQuestion(h.db.db, owner.user.id, { isPublic: false })).id;
  publicId = (await addQuestion(h.db.db, owner.user.id, { isPublic: true })).id;
  ownerSession = (await owner.caller.study.startSession())!.session!.id;
});
afterAll(async () => {
  await h.close();
});

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof TRPCError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error("expected the call to fail");
}

const answer = (questionId: string, sessionId?: string) => ({
  questionId,
  selected: ["B"],
  timeSpentMs: 1,
  sessionId,
});

describe("authorization matrix: study, stats, explanations", () => {
  it("refuses every procedure to anonymous callers", async () => {
    const a = h.anonymous;
    // Thunks: promises made up front would reject before anyone awaits them.
    const calls: (() => Promise<unknown>)[] = [
      () => a.study.due(),
      () => a.study.startSession(),
      () => a.study.finishSession({ sessionId: ownerSession }),
      () => a.study.answer(answer(publicId)),
      () => a.study.rate({ questionId: publicId, difficulty: 1 }),
      () => a.stats.summary(),
      () => a.stats.session({ sessionId: ownerSession }),
      () => a.stats.comparative(),
      () => a.explanations.status(),
      () =>
        a.explanations.generate({ question: "q", options: { A: "a", B: "b" }, correctAnswer: "A" }),
      () => a.explanations.save({ questionId: publicId, explanation: "x" }),
    ];
    for (const call of calls) expect((await failure(call())).code).toBe("UNAUTHORIZED");
  });

  it("lets the owner study both own questions", async () => {
    await owner.caller.study.answer(answer(privateId, ownerSession));
    await owner.caller.study.rate({ questionId: privateId, difficulty: 1 });
    const saved = await owner.caller.explanations.save({ questionId: privateId, explanation: "x" });
    expect(saved.question._id).toBe(privateId);
  });

  it("hides another user's private question from other users and admins alike (404)", async () => {
    for (const who of [other, admin]) {
      // Thunks, called one at a time: promises made up front would reject before anyone awaits them.
      for (const call of [
        () => who.caller.study.answer(answer(privateId)),
        () => who.caller.study.rate({ questionId: privateId, difficulty: 1 }),
        () => who.caller.explanations.save({ questionId: privateId, explanation: "x" }),
      ]) {
        expect(await failure(call())).toEqual({
          code: "NOT_FOUND",
          message: "Question not found",
        });
      }
      const due = await who.caller.study.due();
      expect(due.questions.map((q) => q._id)).not.toContain(privateId);
    }
  });

  it("lets others study a public question but not change it (save: 403)", async () => {
    for (const who of [other, admin]) {
      await who.caller.study.answer(answer(publicId));
      const rated = await who.caller.study.rate({ questionId: publicId, difficulty: 2 });
      expect(rated.studyData.map((s) => s.user)).toEqual([who.user.id]);
      expect(
        (await failure(who.caller.explanations.save({ questionId: publicId, explanation: "x" })))
          .code,
      ).toBe("FORBIDDEN");
    }
  });

  it("keeps study sessions private to their owner, admins included", async () => {
    for (const who of [other, admin]) {
      for (const call of [
        () => who.caller.stats.session({ sessionId: ownerSession }),
        () => who.caller.study.finishSession({ sessionId: ownerSession }),
        () => who.caller.study.answer(answer(publicId, ownerSession)),
      ]) {
        expect(await failure(call())).toEqual({
          code: "NOT_FOUND",
          message: "Study session not found",
        });
      }
    }
    await owner.caller.study.finishSession({ sessionId: ownerSession });
  });

  it("computes each user's own summary", async () => {
    const mine = await owner.caller.stats.summary();
    const theirs = await other.caller.stats.summary();
    expect(mine.totalStudied).toBe(1);
    expect(theirs.totalStudied).toBe(1);
    expect(theirs.ownQuestions).toBe(0);
  });
});
