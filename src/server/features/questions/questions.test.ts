import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MULTIPLE_CORRECT_DEFAULT_INSTRUCTIONS } from "../../../core/constants";
import { questions, reviews, studyStates } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import {
  adminAliceBob,
  questionCount,
  setPublicProfile,
  validQuestion,
  VALIDATION_CASES,
} from "./questions.fixtures";

let h: Harness;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  h = await createHarness();
  ({ admin, alice, bob } = await adminAliceBob(h, "q"));
  expect(admin.user.isAdmin).toBe(true);
});
afterAll(async () => {
  await h.close();
});

/** The tRPC code and message a call fails with. */
async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(TRPCError);
    const e = err as TRPCError;
    const message =
      e.cause && "issues" in e.cause
        ? ((e.cause as unknown as { issues: { message: string }[] }).issues[0]?.message ?? "")
        : e.message;
    return { code: e.code, message };
  }
  throw new Error("expected the call to fail");
}

describe("questions.create", () => {
  it("saves a valid question and returns the Question JSON in docs/product/data.md", async () => {
    const q = await alice.caller.questions.create(validQuestion({ isPublic: true }) as never);
    expect(q).toMatchObject({
      creator: alice.user.id,
      contributor: "q_alice",
      text: "Which medication is first-line for bipolar maintenance?",
      correctAnswer: "A",
      correctAnswers: ["A"],
      numCorrectAnswers: 1,
      questionType: "standard",
      category: "Bipolar Disorders",
      part: "1",
      year: 2024,
      number: 7,
      isPublic: true,
      studyData: [],
    });
    expect(q._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(q).not.toHaveProperty("searchText");
  });

  it.each(VALIDATION_CASES)(
    "refuses %s with the spec's message and saves nothing",
    async (_n, o, message) => {
      const before = await questionCount(h);
      const err = await failure(alice.caller.questions.create(validQuestion(o) as never));
      expect(err).toEqual({ code: "BAD_REQUEST", message });
      expect(await questionCount(h)).toBe(before);
    },
  );

  it("accepts 1 and 15 correct answers and saves despite the count mismatch warning", async () => {
    for (const n of [1, 15]) {
      const q = await alice.caller.questions.create(
        validQuestion({
          questionType: "multipleCorrect",
          correctAnswers: ["A", "C"],
          numCorrectAnswers: n,
          instructions: MULTIPLE_CORRECT_DEFAULT_INSTRUCTIONS,
        }) as never,
      );
      expect(q.numCorrectAnswers).toBe(n);
      expect(q.correctAnswers).toEqual(["A", "C"]);
      expect(q.correctAnswer).toBe("");
    }
  });

  it("keeps up to 15 options for multipleCorrect", async () => {
    const options = Object.fromEntries("ABCDEFGHIJKLMNO".split("").map((l) => [l, `opt ${l}`]));
    const q = await alice.caller.questions.create(
      validQuestion({
        questionType: "multipleCorrect",
        options,
        correctAnswers: ["O", "B", "M"],
      }) as never,
    );
    expect(Object.keys(q.options)).toHaveLength(15);
    expect(q.correctAnswers).toEqual(["B", "M", "O"]);
  });

  it("makes a new question public by default exactly when Public Profile is on", async () => {
    await setPublicProfile(h, bob.user.id, false);
    const priv = await bob.caller.questions.create(validQuestion() as never);
    expect(priv.isPublic).toBe(false);
    await setPublicProfile(h, bob.user.id, true);
    const pub = await bob.caller.questions.create(validQuestion() as never);
    expect(pub.isPublic).toBe(true);
    // An explicit choice wins either way.
    const explicit = await bob.caller.questions.create(validQuestion({ isPublic: false }) as never);
    expect(explicit.isPublic).toBe(false);
    await setPublicProfile(h, bob.user.id, false);
  });

  it("escapes nothing and renders nothing: script text is stored as typed", async () => {
    const text = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    const q = await alice.caller.questions.create(validQuestion({ text }) as never);
    expect(q.text).toBe(text);
  });
});

describe("contributor name", () => {
  it("shows the username on public questions only while the creator's Public Profile is on", async () => {
    await setPublicProfile(h, bob.user.id, false);
    const q = await bob.caller.questions.create(
      validQuestion({ isPublic: true, text: "contrib" }) as never,
    );
    expect((await alice.caller.questions.get({ id: q._id })).contributor).toBe("Anonymous");
    expect((await bob.caller.questions.get({ id: q._id })).contributor).toBe("q_bob");
    await setPublicProfile(h, bob.user.id, true);
    expect((await alice.caller.questions.get({ id: q._id })).contributor).toBe("q_bob");
    await setPublicProfile(h, bob.user.id, false);
  });
});

describe("authorization matrix", () => {
  let alicePrivate: string;
  let alicePublic: string;
  beforeAll(async () => {
    alicePrivate = (
      await alice.caller.questions.create(validQuestion({ isPublic: false }) as never)
    )._id;
    alicePublic = (await alice.caller.questions.create(validQuestion({ isPublic: true }) as never))
      ._id;
  });

  it("refuses every procedure to anonymous callers", async () => {
    const a = h.anonymous.questions;
    // Thunks: promises made up front would reject before anyone awaits them.
    const calls: (() => Promise<unknown>)[] = [
      () => a.list(),
      () => a.search({ text: "" }),
      () => a.categories(),
      () => a.categoryStats(),
      () => a.get({ id: alicePublic }),
      () => a.create(validQuestion() as never),
      () => a.update({ id: alicePublic, data: { text: "x" } }),
      () => a.delete({ id: alicePublic }),
      () => a.bulkCreate({ questions: [validQuestion()] as never }),
    ];
    for (const call of calls) expect((await failure(call())).code).toBe("UNAUTHORIZED");
  });

  it("get: own and public are visible, another user's private is 404 (even for an admin)", async () => {
    expect((await alice.caller.questions.get({ id: alicePrivate }))._id).toBe(alicePrivate);
    expect((await bob.caller.questions.get({ id: alicePublic }))._id).toBe(alicePublic);
    expect((await admin.caller.questions.get({ id: alicePublic }))._id).toBe(alicePublic);
    for (const who of [bob, admin]) {
      expect(await failure(who.caller.questions.get({ id: alicePrivate }))).toEqual({
        code: "NOT_FOUND",
        message: "Question not found",
      });
    }
    expect((await failure(bob.caller.questions.get({ id: "not-a-uuid" }))).code).toBe("NOT_FOUND");
    expect(
      (await failure(bob.caller.questions.get({ id: "00000000-0000-4000-8000-000000000000" })))
        .code,
    ).toBe("NOT_FOUND");
  });

  it("update: another user's private is 404, another user's public is 403, nothing changes", async () => {
    for (const who of [bob, admin]) {
      expect(
        await failure(who.caller.questions.update({ id: alicePrivate, data: { text: "hacked" } })),
      ).toEqual({ code: "NOT_FOUND", message: "Question not found" });
      expect(
        await failure(who.caller.questions.update({ id: alicePublic, data: { text: "hacked" } })),
      ).toEqual({ code: "FORBIDDEN", message: "You can only edit questions you created" });
    }
    const rows = await h.db.db
      .select()
      .from(questions)
      .where(eq(questions.creatorId, alice.user.id));
    expect(rows.some((r) => r.text === "hacked")).toBe(false);
  });

  it("delete: another user's private is 404, another user's public is 403, nothing is deleted", async () => {
    for (const who of [bob, admin]) {
      expect(await failure(who.caller.questions.delete({ id: alicePrivate }))).toEqual({
        code: "NOT_FOUND",
        message: "Question not found",
      });
      expect(await failure(who.caller.questions.delete({ id: alicePublic }))).toEqual({
        code: "FORBIDDEN",
        message: "You can only delete questions you created",
      });
    }
    expect((await alice.caller.questions.get({ id: alicePrivate }))._id).toBe(alicePrivate);
    expect((await alice.caller.questions.get({ id: alicePublic }))._id).toBe(alicePublic);
  });

  it("bulk merge into another user's question: 404 for private, 403 for public, nothing saved", async () => {
    const before = await questionCount(h);
    const merge = (id: string) =>
      bob.caller.questions.bulkCreate({
        questions: [validQuestion(), validQuestion({ _id: id, text: "merged" })] as never,
      });
    expect(await failure(merge(alicePrivate))).toEqual({
      code: "NOT_FOUND",
      message: "Item 2 (question 7): Question not found",
    });
    expect(await failure(merge(alicePublic))).toEqual({
      code: "FORBIDDEN",
      message: "Item 2 (question 7): You can only edit questions you created",
    });
    expect(await questionCount(h)).toBe(before);
  });

  it("list and search never show another user's private question", async () => {
    const list = await bob.caller.questions.list({ pageSize: 100 });
    const ids = list.items.map((q) => q._id);
    expect(ids).toContain(alicePublic);
    expect(ids).not.toContain(alicePrivate);
    expect(list.items.every((q) => q.isPublic || q.creator === bob.user.id)).toBe(true);
  });
});

describe("questions.update", () => {
  it("applies the given fields over the stored question and validates the result", async () => {
    const q = await alice.caller.questions.create(validQuestion() as never);
    const updated = await alice.caller.questions.update({
      id: q._id,
      data: { text: "  Updated text  ", correctAnswer: "b", isPublic: true },
    });
    expect(updated).toMatchObject({
      text: "Updated text",
      correctAnswer: "B",
      correctAnswers: ["B"],
      isPublic: true,
      category: "Bipolar Disorders",
      year: 2024,
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(q.updatedAt));
  });

  it("switches a question to multipleCorrect with its answers", async () => {
    const q = await alice.caller.questions.create(validQuestion() as never);
    const updated = await alice.caller.questions.update({
      id: q._id,
      data: {
        questionType: "multipleCorrect",
        correctAnswer: "",
        correctAnswers: ["A", "B", "C"],
        numCorrectAnswers: 3,
        instructions: MULTIPLE_CORRECT_DEFAULT_INSTRUCTIONS,
      },
    });
    expect(updated).toMatchObject({
      questionType: "multipleCorrect",
      correctAnswer: "",
      correctAnswers: ["A", "B", "C"],
      numCorrectAnswers: 3,
      instructions: MULTIPLE_CORRECT_DEFAULT_INSTRUCTIONS,
    });
  });

  const updateCases = VALIDATION_CASES.filter(([, o]) =>
    Object.values(o).every((v) => v !== undefined),
  );
  it.each(updateCases)("refuses %s and leaves the question as it was", async (_n, o, message) => {
    const q = await alice.caller.questions.create(validQuestion() as never);
    const err = await failure(alice.caller.questions.update({ id: q._id, data: o as never }));
    expect(err).toEqual({ code: "BAD_REQUEST", message });
    const after = await alice.caller.questions.get({ id: q._id });
    expect(after).toEqual(q);
  });
});

describe("questions.delete", () => {
  it("deletes the caller's own question with the viewer's study state", async () => {
    const q = await alice.caller.questions.create(validQuestion() as never);
    await h.db.db.insert(studyStates).values({ userId: alice.user.id, questionId: q._id });
    expect(await alice.caller.questions.delete({ id: q._id })).toEqual({
      message: "Question deleted successfully",
    });
    expect((await failure(alice.caller.questions.get({ id: q._id }))).code).toBe("NOT_FOUND");
    const states = await h.db.db
      .select()
      .from(studyStates)
      .where(eq(studyStates.questionId, q._id));
    expect(states).toHaveLength(0);
  });
});

describe("questions.bulkCreate", () => {
  it("saves every item in request order, applies the part/year defaults and returns them", async () => {
    const saved = await alice.caller.questions.bulkCreate({
      part: "2",
      year: 2023,
      questions: [
        { text: "Bulk one", options: { A: "a", B: "b" }, correctAnswer: "b", number: 1 },
        {
          text: "Bulk two",
          options: { A: "a", B: "b", C: "c" },
          correctAnswer: "",
          number: 2,
          part: "1",
        },
        { text: "Bulk three", options: { A: "a", B: "b" }, correctAnswer: "A", year: 2021 },
      ] as never,
    });
    expect(saved.map((q) => [q.text, q.part, q.year, q.correctAnswer, q.number])).toEqual([
      ["Bulk one", "2", 2023, "B", 1],
      ["Bulk two", "1", 2023, "", 2],
      ["Bulk three", "2", 2021, "A", null],
    ]);
    expect(saved.every((q) => q.creator === alice.user.id && q.isPublic === false)).toBe(true);
    // Newest first keeps the request order of one import together.
    const list = await alice.caller.questions.search({ text: "bulk", visibility: "mine" });
    expect(list.items.map((q) => q.text)).toEqual(["Bulk three", "Bulk two", "Bulk one"]);
  });

  it("is all or nothing: one bad item saves nothing and names the item", async () => {
    const before = await questionCount(h);
    const good = validQuestion();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, text: "" }, "Item 3 (question 7): Question text is required"],
      [
        { ...good, options: { A: "only" } },
        "Item 3 (question 7): At least options A and B are required",
      ],
      [
        { ...good, correctAnswer: "F" },
        "Item 3 (question 7): The correct answer must be a letter from A to E",
      ],
      [{ ...good, part: "9" }, "Item 3 (question 7): Part must be 1 or 2"],
      [{ ...good, number: undefined, year: 1990 }, "Item 3: Year must be 2000 or later"],
      [
        { ...good, options: { A: "a", B: "b", F: "f" } },
        "Item 3 (question 7): Imported options must be A to E",
      ],
    ];
    for (const [bad, message] of cases) {
      const err = await failure(
        alice.caller.questions.bulkCreate({ questions: [good, good, bad, good] as never }),
      );
      expect(err).toEqual({ code: "BAD_REQUEST", message });
    }
    expect(await questionCount(h)).toBe(before);
  });

  it("rolls back rows already written when a later merge fails", async () => {
    const before = await questionCount(h);
    const items = [
      ...Array.from({ length: 3 }, () => validQuestion()),
      validQuestion({ _id: "00000000-0000-4000-8000-000000000000" }),
    ];
    const err = await failure(alice.caller.questions.bulkCreate({ questions: items as never }));
    expect(err.code).toBe("NOT_FOUND");
    expect(await questionCount(h)).toBe(before);
  });

  it("refuses an empty list and a part default outside 1-2", async () => {
    expect(await failure(alice.caller.questions.bulkCreate({ questions: [] }))).toEqual({
      code: "BAD_REQUEST",
      message: "No questions to import",
    });
    const err = await failure(
      alice.caller.questions.bulkCreate({
        part: "3",
        questions: [validQuestion({ part: undefined })] as never,
      }),
    );
    expect(err.message).toBe("Item 1 (question 7): Part must be 1 or 2");
  });

  it("merges an item with an _id into the caller's own question", async () => {
    const q = await alice.caller.questions.create(
      validQuestion({
        questionType: "fourOptions",
        options: { A: "a", B: "b", C: "c", D: "d" },
      }) as never,
    );
    const [merged, added] = await alice.caller.questions.bulkCreate({
      questions: [
        {
          _id: q._id,
          text: "Merged text",
          options: { A: "1", B: "2", C: "3" },
          correctAnswer: "C",
          part: "2",
          year: 2022,
          category: "Ethics",
        },
        validQuestion({ text: "new in the same request" }),
      ] as never,
    });
    expect(merged).toMatchObject({
      _id: q._id,
      text: "Merged text",
      correctAnswer: "C",
      part: "2",
      year: 2022,
      category: "Ethics",
      questionType: "fourOptions",
      createdAt: q.createdAt,
    });
    expect(added!._id).not.toBe(q._id);
  });

  it("clears a multipleCorrect question's instructions when a merge makes it standard", async () => {
    const q = await alice.caller.questions.create(
      validQuestion({
        questionType: "multipleCorrect",
        correctAnswer: "",
        correctAnswers: ["A", "B"],
        numCorrectAnswers: 2,
        instructions: "Select the TWO best answers",
      }) as never,
    );
    const keep = await alice.caller.questions.create(
      validQuestion({
        questionType: "fourOptions",
        options: { A: "a", B: "b", C: "c", D: "d" },
        instructions: "Choose the most specific finding",
      }) as never,
    );
    const [merged, same] = await alice.caller.questions.bulkCreate({
      questions: [
        { _id: q._id, text: "Merged", options: { A: "1", B: "2" }, correctAnswer: "B", part: "1" },
        {
          _id: keep._id,
          text: "Same type",
          options: { A: "1", B: "2" },
          correctAnswer: "A",
          part: "1",
        },
      ] as never,
    });
    expect(merged).toMatchObject({
      questionType: "standard",
      correctAnswer: "B",
      correctAnswers: ["B"],
      numCorrectAnswers: 1,
      instructions: "",
    });
    // The type did not change, so its instructions still apply.
    expect(same).toMatchObject({
      questionType: "fourOptions",
      instructions: "Choose the most specific finding",
    });
  });

  it("uses Public Profile for items that do not say", async () => {
    await setPublicProfile(h, alice.user.id, true);
    const [a, b] = await alice.caller.questions.bulkCreate({
      questions: [validQuestion(), validQuestion({ isPublic: false })] as never,
    });
    expect([a!.isPublic, b!.isPublic]).toEqual([true, false]);
    await setPublicProfile(h, alice.user.id, false);
  });

  it("saves a large import in one go", async () => {
    const items = Array.from({ length: 1200 }, (_, i) =>
      validQuestion({ text: `Large import ${i}`, number: i + 1 }),
    );
    const saved = await bob.caller.questions.bulkCreate({ questions: items as never });
    expect(saved).toHaveLength(1200);
    expect(saved[1199]!.text).toBe("Large import 1199");

    // Past 500 matches the total is a lower bound, and paging still reaches every question.
    const first = await bob.caller.questions.search({ text: "large import", visibility: "mine" });
    expect(first).toMatchObject({ total: 501, totalCapped: true, nextCursor: 2 });
    const deep = await bob.caller.questions.search({
      text: "large import",
      visibility: "mine",
      pageSize: 100,
      cursor: 12,
    });
    expect(deep.items.map((q) => q.text)).toEqual(
      Array.from({ length: 100 }, (_, i) => `Large import ${99 - i}`),
    );
    expect(deep).toMatchObject({ total: 1200, totalCapped: false, nextCursor: null });
  });
});

describe("categories and category stats", () => {
  it("lists categories present among visible questions only", async () => {
    const carol = await h.user({ username: "carol_q" });
    await carol.caller.questions.create(validQuestion({ category: "Secret Category" }) as never);
    await carol.caller.questions.create(
      validQuestion({ category: "Ethics", isPublic: true }) as never,
    );
    const mine = await carol.caller.questions.categories();
    expect(mine).toContain("Secret Category");
    const theirs = await bob.caller.questions.categories();
    expect(theirs).toContain("Ethics");
    expect(theirs).not.toContain("Secret Category");
  });

  it("offers Uncategorized, last, only when a visible question has no category", async () => {
    const fay = await h.user({ username: "fay_q" });
    const gus = await h.user({ username: "gus_q" });
    await fay.caller.questions.create(validQuestion({ category: "Zeta" }) as never);
    expect(await fay.caller.questions.categories()).not.toContain("Uncategorized");
    const blank = await fay.caller.questions.create(validQuestion({ category: "" }) as never);
    const withBlank = await fay.caller.questions.categories();
    expect(withBlank.at(-1)).toBe("Uncategorized");
    expect(withBlank.filter((c) => c === "Uncategorized")).toHaveLength(1);
    // Fay's private uncategorized question is not offered to Gus, and choosing it finds it for Fay.
    expect(await gus.caller.questions.categories()).not.toContain("Uncategorized");
    const found = await fay.caller.questions.search({
      category: "Uncategorized",
      visibility: "mine",
    });
    expect(found.items.map((q) => q._id)).toEqual([blank._id]);
  });

  it("counts total, mastered, due and accuracy per category for the caller", async () => {
    const dave = await h.user({ username: "dave_q" });
    const now = new Date();
    const q1 = await dave.caller.questions.create(validQuestion({ category: "Genetics" }) as never);
    const q2 = await dave.caller.questions.create(validQuestion({ category: "Genetics" }) as never);
    await dave.caller.questions.create(validQuestion({ category: "Genetics" }) as never);
    await dave.caller.questions.create(validQuestion({ category: "" }) as never);
    const future = new Date(now.getTime() + 86_400_000);
    const past = new Date(now.getTime() - 86_400_000);
    await h.db.db.insert(studyStates).values([
      { userId: dave.user.id, questionId: q1._id, easeFactor: 2.6, dueAt: future },
      { userId: dave.user.id, questionId: q2._id, easeFactor: 2.5, dueAt: past },
    ]);
    await h.db.db.insert(reviews).values([
      { userId: dave.user.id, questionId: q1._id, category: "Genetics", isCorrect: true },
      { userId: dave.user.id, questionId: q1._id, category: "Genetics", isCorrect: true },
      { userId: dave.user.id, questionId: q2._id, category: "Genetics", isCorrect: false },
    ]);
    const stats = await dave.caller.questions.categoryStats();
    const genetics = stats.find((s) => s.category === "Genetics");
    expect(genetics).toMatchObject({ total: 3, mastered: 1, due: 2, accuracy: 67, answered: 3 });
    const uncategorized = stats.find((s) => s.category === "Uncategorized");
    expect(uncategorized).toMatchObject({
      total: 1,
      mastered: 0,
      due: 1,
      accuracy: null,
      answered: 0,
    });
    // Another user's state and answers never count for the caller.
    const other = await alice.caller.questions.categoryStats();
    expect(other.find((s) => s.category === "Genetics")).toBeUndefined();
  });
});
