/**
 * docs/ARCHITECTURE.md: every procedure of issue 5 (imports, answer keys, AI path, parser) for anonymous, user,
 * other user and admin. Answer keys and merges are strictly the owner's: an admin is not special.
 */
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { addQuestion } from "../study/test-fixtures";
import { aiLimiter } from "../ai/ai.service";

let h: Harness;
let admin: TestUser;
let owner: TestUser;
let other: TestUser;
beforeAll(async () => {
  h = await createHarness();
  admin = await h.user({ isAdmin: true });
  owner = await h.user({ isAdmin: false });
  other = await h.user({ isAdmin: false });
});
afterAll(async () => {
  await h.close();
});

async function code(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "OK";
  } catch (err) {
    if (err instanceof TRPCError) return err.code;
    throw err;
  }
}

const question = {
  text: "Which medication requires monitoring of the absolute neutrophil count?",
  options: { A: "Clozapine", B: "Lithium", C: "Sertraline", D: "Bupropion", E: "Valproate" },
  correctAnswer: "A",
  category: "",
  part: "1",
  year: 2023,
  number: 3,
  explanation: "",
};
const key = { part: "1", year: 2023 } as const;

describe("issue 5 procedures: authorization", () => {
  /** Every procedure once, in an order that succeeds for a signed-in user. */
  const everyProcedure = (c: Harness["anonymous"]) => [
    () => c.imports.checkDuplicates({ questions: [question] }),
    () => c.imports.commit({ items: [{ question, action: "create" }] }),
    () => c.answerKeys.save({ ...key, answers: { "1": "A" } }),
    () => c.answerKeys.list(),
    () => c.answerKeys.get(key),
    () => c.answerKeys.importText({ ...key, text: "1. A" }),
    () => c.answerKeys.applyToQuestions(key),
    () => c.answerKeys.delete(key),
    () => c.ai.status(),
    () => c.ai.process({ text: "1. Which? A. x B. y" }),
    () => c.parser.questions({ ocrText: "1. Which? A. x B. y", part: "1" }),
  ];

  it("refuses every procedure to anonymous callers", async () => {
    for (const call of everyProcedure(h.anonymous)) expect(await code(call)).toBe("UNAUTHORIZED");
  });

  it("signed-in users may call every procedure", async () => {
    aiLimiter.reset();
    for (const call of everyProcedure(owner.caller)) expect(await code(call)).toBe("OK");
  });

  it("another user and an admin see none of the owner's keys and merge into none of the owner's questions", async () => {
    await owner.caller.answerKeys.save({ ...key, answers: { "3": "B" } });
    const publicOne = await addQuestion(h.db.db, owner.user.id, { isPublic: true });
    const privateOne = await addQuestion(h.db.db, owner.user.id, { isPublic: false });
    for (const u of [other, admin]) {
      const c = u.caller;
      expect(await c.answerKeys.get(key)).toBeNull();
      expect(await c.answerKeys.list()).toEqual([]);
      expect(await code(() => c.answerKeys.delete(key))).toBe("NOT_FOUND");
      expect(await code(() => c.answerKeys.applyToQuestions(key))).toBe("NOT_FOUND");
      expect(
        await code(() =>
          c.imports.commit({
            items: [{ question, action: { merge: "metadata", targetId: publicOne.id } }],
          }),
        ),
      ).toBe("FORBIDDEN");
      expect(
        await code(() =>
          c.imports.commit({
            items: [{ question, action: { merge: "metadata", targetId: privateOne.id } }],
          }),
        ),
      ).toBe("NOT_FOUND");
      const { results } = await c.imports.checkDuplicates({
        questions: [{ ...question, text: privateOne.text, options: privateOne.options }],
      });
      expect(results[0]!.matches.map((m) => m.question._id)).not.toContain(privateOne.id);
    }
    expect((await owner.caller.answerKeys.get(key))!.answers).toEqual({ "3": "B" });
  });
});
