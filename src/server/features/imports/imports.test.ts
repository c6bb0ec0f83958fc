import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { questions, studyStates, type NewQuestionRow } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { addQuestion } from "../study/test-fixtures";
import { createRng, pick, VIGNETTE_WORDS } from "./synthetic-bank";
import { CHECK_DUPLICATES_MAX, IMPORT_MESSAGES } from "./imports.types";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

let seq = 0;
/** A unique, realistic question stem for this file (texts of different tests never look alike). */
function stem(topic: string): string {
  seq += 1;
  return `Case ${seq} (${topic}): a 34-year-old patient with ${topic} presents after ${seq * 3} weeks of symptoms. Which of the following is the most appropriate next step in management?`;
}

/** Options whose wording depends on the topic only: options of different topics never look alike. */
function options(topic: string): Record<string, string> {
  let seed = 0;
  for (const ch of topic) seed = (Math.imul(seed, 31) + ch.charCodeAt(0)) >>> 0;
  const rng = createRng(seed);
  const out: Record<string, string> = {};
  for (const letter of ["A", "B", "C", "D", "E"]) {
    out[letter] =
      `${pick(rng, VIGNETTE_WORDS)} ${pick(rng, VIGNETTE_WORDS)} ${pick(rng, VIGNETTE_WORDS)}`;
  }
  return out;
}

function item(q: { text: string; options: Record<string, string> } & Partial<NewQuestionRow>) {
  return {
    text: q.text,
    options: q.options,
    correctAnswer: q.correctAnswer ?? "",
    category: q.category ?? "",
    part: q.part ?? "1",
    year: q.year ?? 2023,
    number: q.number ?? null,
    explanation: q.explanation ?? "",
  };
}

async function questionCount(): Promise<number> {
  const [row] = await h.db.db.select({ n: count() }).from(questions);
  return row!.n;
}

async function row(id: string) {
  const [r] = await h.db.db.select().from(questions).where(eq(questions.id, id));
  return r!;
}

async function trpc(user: TestUser | null, path: string, input: unknown) {
  return (await h.app()).inject({
    method: "POST",
    url: `/trpc/${path}`,
    payload: input as object,
    headers: user ? user.headers : {},
  });
}

describe("imports.checkDuplicates", () => {
  it("finds an exact duplicate of an own question and a near duplicate of a public one, with reasons", async () => {
    const me = await h.user();
    const other = await h.user();
    const ownText = stem("lithium toxicity");
    const own = await addQuestion(h.db.db, me.user.id, {
      text: ownText,
      options: options("lithium"),
      part: "1",
      year: 2023,
      number: 7,
    });
    const publicText = stem("neuroleptic malignant syndrome");
    const pub = await addQuestion(h.db.db, other.user.id, {
      text: publicText,
      options: options("nms"),
      part: "1",
      year: 2022,
      number: 12,
      isPublic: true,
    });

    const near = {
      // Re-typed: case changed, a word dropped, a typo and extra whitespace.
      text: publicText.replace("presents after", "presented  after").replace("Which", "which"),
      options: { ...options("nms"), C: `${options("nms").C}s` },
      part: "1",
      year: 2022,
      number: 12,
    };
    const { results } = await me.caller.imports.checkDuplicates({
      questions: [
        item({ text: ownText, options: options("lithium"), part: "1", year: 2023, number: 7 }),
        near,
        {
          text: "Which neurotransmitter is most associated with the mesolimbic reward pathway?",
          options: options("sleep"),
          part: "1",
          year: 2019,
        },
      ],
    });

    expect(results).toHaveLength(3);
    const exact = results[0]!;
    expect(exact.index).toBe(0);
    expect(exact.isDuplicate).toBe(true);
    expect(exact.matches[0]!.question._id).toBe(own.id);
    expect(exact.matches[0]!.similarity.score).toBe(1);
    expect(exact.matches[0]!.similarity.reasons).toEqual([
      "Question text is 100% similar",
      "5 answer options are similar",
      "Same question number (7)",
      "Same PRITE year (2023) and part (1)",
    ]);
    expect(exact.matches[0]!.similarity.matchCount).toBe(5);
    expect(exact.matches[0]!.canMerge).toBe(true);

    const nearResult = results[1]!;
    expect(nearResult.isDuplicate).toBe(true);
    expect(nearResult.matches[0]!.question._id).toBe(pub.id);
    expect(nearResult.matches[0]!.similarity.score).toBeGreaterThan(0.9);
    expect(nearResult.matches[0]!.similarity.score).toBeLessThan(1);
    expect(nearResult.matches[0]!.similarity.reasons[0]).toMatch(/^Question text is 9\d% similar$/);
    // Another user's public question may be skipped or kept alongside, never merged.
    expect(nearResult.matches[0]!.canMerge).toBe(false);
    // Another user's question, whose author keeps Public Profile off: anonymous (issue 24).
    expect(nearResult.matches[0]!.question.creator).toBeNull();

    expect(results[2]).toEqual({ index: 2, isDuplicate: false, matches: [], repeatOf: null });
  });

  it("never reports another user's private question, nor a question of the other part", async () => {
    const me = await h.user();
    const other = await h.user();
    const text = stem("clozapine agranulocytosis");
    await addQuestion(h.db.db, other.user.id, {
      text,
      options: options("clozapine"),
      number: 3,
      isPublic: false,
    });
    const mine = await addQuestion(h.db.db, me.user.id, {
      text,
      options: options("clozapine"),
      part: "2",
      number: 3,
    });
    const { results } = await me.caller.imports.checkDuplicates({
      questions: [item({ text, options: options("clozapine"), part: "1", number: 3 })],
    });
    expect(results[0]).toEqual({ index: 0, isDuplicate: false, matches: [], repeatOf: null });

    // Cross-part checking (off by default) finds the own question of part 2, still not the private one.
    const cross = await me.caller.imports.checkDuplicates({
      questions: [item({ text, options: options("clozapine"), part: "1", number: 3 })],
      crossPart: true,
    });
    expect(cross.results[0]!.matches.map((m) => m.question._id)).toEqual([mine.id]);
  });

  it("flags at a score of 0.8, and reports a lower-scoring candidate with 2 signals without flagging", async () => {
    const me = await h.user();
    // Identical options (0.4) plus a text similarity of exactly 2/3 (0.4): score 0.8.
    const at = await addQuestion(h.db.db, me.user.id, {
      text: "qzvw",
      options: options("boundary"),
      number: 401,
      year: 2021,
    });
    // Text similarity 0.6: score 0.76.
    const below = await addQuestion(h.db.db, me.user.id, {
      text: "jxyhpq",
      options: options("threshold"),
      number: 402,
      year: 2021,
    });
    const { results } = await me.caller.imports.checkDuplicates({
      questions: [
        item({ text: "qzvx", options: options("boundary"), number: 401, year: 2021 }),
        item({ text: "jxyhst", options: options("threshold"), number: 402, year: 2021 }),
      ],
    });
    expect(results[0]!.matches[0]!.question._id).toBe(at.id);
    expect(results[0]!.matches[0]!.similarity.score).toBeCloseTo(0.8, 10);
    expect(results[0]!.isDuplicate).toBe(true);
    expect(results[1]!.matches[0]!.question._id).toBe(below.id);
    expect(results[1]!.matches[0]!.similarity.score).toBeCloseTo(0.76, 10);
    expect(results[1]!.isDuplicate).toBe(false);
  });

  it("returns the top 3 matches, best first", async () => {
    const me = await h.user();
    const text = stem("catatonia lorazepam challenge");
    const opts = options("catatonia");
    const stored = [];
    // The same question stored five times, each a little further from the incoming one.
    for (let k = 0; k < 5; k++) {
      stored.push(
        await addQuestion(h.db.db, me.user.id, {
          text: text.slice(0, text.length - k * 4),
          options: opts,
          number: 50 + k,
        }),
      );
    }
    const { results } = await me.caller.imports.checkDuplicates({
      questions: [item({ text, options: opts, number: 99 })],
    });
    const matches = results[0]!.matches;
    expect(matches.map((m) => m.question._id)).toEqual(stored.slice(0, 3).map((q) => q.id));
    const scores = matches.map((m) => m.similarity.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(matches.every((m) => m.canMerge && m.similarity.reasons.length >= 2)).toBe(true);
  });

  it("marks a repeat within the same request and never flags questions without text", async () => {
    const me = await h.user();
    const text = stem("delirium");
    const { results } = await me.caller.imports.checkDuplicates({
      questions: [
        item({ text, options: options("delirium") }),
        item({ text: text.toUpperCase(), options: options("delirium") }),
        { text: "", options: options("delirium") },
        { text: "   ", options: {} },
      ],
    });
    expect(results.map((r) => r.repeatOf)).toEqual([null, 0, null, null]);
    expect(results[2]).toEqual({ index: 2, isDuplicate: false, matches: [], repeatOf: null });
    expect(results[3]).toEqual({ index: 3, isDuplicate: false, matches: [], repeatOf: null });
  });

  it("sees every change to the bank between two checks (the index is rebuilt, never stale)", async () => {
    const me = await h.user();
    const other = await h.user();
    const text = stem("catatonia");
    const incoming = [item({ text, options: options("catatonia"), number: 41 })];
    const check = async () =>
      (await me.caller.imports.checkDuplicates({ questions: incoming })).results[0]!;

    expect((await check()).isDuplicate).toBe(false);
    // Added by another user, public: found by the next check.
    const added = await addQuestion(h.db.db, other.user.id, {
      text,
      options: options("catatonia"),
      isPublic: true,
      part: "1",
      year: 2023,
    });
    expect((await check()).matches[0]?.question._id).toBe(added.id);
    // Made private: gone.
    await h.db.db.update(questions).set({ isPublic: false }).where(eq(questions.id, added.id));
    expect((await check()).matches).toEqual([]);
    // An own question whose text is edited into a copy: found; deleted: gone.
    const own = await addQuestion(h.db.db, me.user.id, {
      text: "Which neurotransmitter is synthesized from tryptophan?",
      options: options("serotonin"),
      part: "1",
    });
    expect((await check()).isDuplicate).toBe(false);
    await me.caller.questions.update({
      id: own.id,
      data: { text, options: options("catatonia"), correctAnswer: "A", part: "1", year: 2023 },
    });
    expect((await check()).matches[0]?.question._id).toBe(own.id);
    await me.caller.questions.delete({ id: own.id });
    expect((await check()).matches).toEqual([]);
  });

  it(`refuses more than ${CHECK_DUPLICATES_MAX} questions and an empty list with a clear message`, async () => {
    const me = await h.user();
    const many = Array.from({ length: CHECK_DUPLICATES_MAX + 1 }, (_, i) => ({
      text: `Question ${i}`,
      options: {},
    }));
    await expect(me.caller.imports.checkDuplicates({ questions: many })).rejects.toThrow(
      IMPORT_MESSAGES.TOO_MANY_CHECK,
    );
    await expect(me.caller.imports.checkDuplicates({ questions: [] })).rejects.toThrow(
      IMPORT_MESSAGES.NO_QUESTIONS,
    );

    const res = await trpc(me, "imports.checkDuplicates", { questions: many });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe("At most 2000 questions can be checked at once");
  });

  it("answers over HTTP for a signed-in user and 401 for anonymous", async () => {
    const me = await h.user();
    const text = stem("serotonin syndrome");
    const own = await addQuestion(h.db.db, me.user.id, { text, options: options("ss") });
    const payload = { questions: [item({ text, options: options("ss") })] };
    const res = await trpc(me, "imports.checkDuplicates", payload);
    expect(res.statusCode).toBe(200);
    const data = res.json().result.data;
    expect(data.results[0].isDuplicate).toBe(true);
    expect(data.results[0].matches[0].question._id).toBe(own.id);
    expect((await trpc(null, "imports.checkDuplicates", payload)).statusCode).toBe(401);
  });
});

describe("imports.commit", () => {
  it("creates, skips and merges in one call and reports the counts", async () => {
    const me = await h.user();
    const target = await addQuestion(h.db.db, me.user.id, {
      text: stem("old text"),
      options: options("old"),
    });
    const before = await questionCount();
    const newText = stem("new text");
    const created = stem("created");
    const result = await me.caller.imports.commit({
      items: [
        {
          question: item({ text: created, options: options("c"), correctAnswer: "C" }),
          action: "create",
        },
        {
          question: item({ text: stem("skipped"), options: options("s") }),
          action: "skip",
          hadDuplicate: true,
        },
        {
          question: item({ text: newText, options: options("new"), correctAnswer: "D" }),
          action: { merge: "newer", targetId: target.id },
          hadDuplicate: true,
        },
        {
          question: item({ text: stem("kept both"), options: options("k") }),
          action: "create",
          hadDuplicate: true,
        },
      ],
    });
    expect(result).toMatchObject({
      total: 4,
      imported: 2,
      skipped: 1,
      merged: 1,
      duplicates: 3,
      errors: [],
    });
    expect(result.questions.map((q) => q.text)).toEqual([created, newText, expect.any(String)]);
    expect(result.questions[0]!).toMatchObject({
      creator: me.user.id,
      correctAnswer: "C",
      correctAnswers: ["C"],
      part: "1",
      year: 2023,
    });
    expect(await questionCount()).toBe(before + 2);
    expect((await row(target.id)).text).toBe(newText);
  });

  it("a bad item anywhere in the batch leaves the database unchanged", async () => {
    const me = await h.user();
    const target = await addQuestion(h.db.db, me.user.id, {
      text: stem("untouched"),
      options: options("u"),
    });
    const before = await questionCount();
    const targetBefore = await row(target.id);
    const good = Array.from({ length: 30 }, () => ({
      question: item({ text: stem("good"), options: options("g") }),
      action: "create" as const,
    }));
    const bad = {
      question: item({ text: "   ", options: options("bad"), number: 17 }),
      action: "create" as const,
    };
    const merge = {
      question: item({ text: stem("merged"), options: options("m") }),
      action: { merge: "newer" as const, targetId: target.id },
    };
    await expect(
      me.caller.imports.commit({ items: [merge, ...good, bad, ...good] }),
    ).rejects.toThrow("Item 32 (question 17): Question text is required");
    // A bad year fails the same way.
    await expect(
      me.caller.imports.commit({
        items: [
          ...good,
          {
            question: item({ text: stem("y"), options: options("y"), year: 1999 }),
            action: "create",
          },
        ],
      }),
    ).rejects.toThrow(/^Item 31: /);
    // A merge whose outcome breaks the question (manual merge dropping option B) fails too.
    await expect(
      me.caller.imports.commit({
        items: [
          ...good,
          {
            question: { ...item({ text: stem("x"), options: { A: "one", C: "three" } }) },
            action: { merge: "manual", targetId: target.id, fields: ["optionB"] },
          },
        ],
      }),
    ).rejects.toThrow("Item 31: At least options A and B are required");

    expect(await questionCount()).toBe(before);
    expect(await row(target.id)).toEqual(targetBefore);

    // Over HTTP: 400 with the same message, nothing written.
    const res = await trpc(me, "imports.commit", { items: [...good, bad] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe("Item 31 (question 17): Question text is required");
    expect(await questionCount()).toBe(before);
  });

  it("refuses a merge into another user's public question (403) and a private one (404), writing nothing", async () => {
    const me = await h.user();
    const other = await h.user();
    const pub = await addQuestion(h.db.db, other.user.id, {
      text: stem("public"),
      options: options("p"),
      isPublic: true,
    });
    const priv = await addQuestion(h.db.db, other.user.id, {
      text: stem("private"),
      options: options("q"),
      isPublic: false,
    });
    const before = await questionCount();
    const pubBefore = await row(pub.id);
    const create = {
      question: item({ text: stem("c"), options: options("c") }),
      action: "create" as const,
    };
    for (const merge of ["newer", "metadata", "manual"] as const) {
      await expect(
        me.caller.imports.commit({
          items: [
            create,
            {
              question: item({ text: stem("m"), options: options("m"), category: "Neuroscience" }),
              action: { merge, targetId: pub.id, fields: ["text"] },
            },
          ],
        }),
      ).rejects.toMatchObject({ code: "FORBIDDEN", message: IMPORT_MESSAGES.MERGE_OTHERS });
    }
    await expect(
      me.caller.imports.commit({
        items: [
          create,
          { question: create.question, action: { merge: "newer", targetId: priv.id } },
        ],
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: IMPORT_MESSAGES.NOT_FOUND });
    await expect(
      me.caller.imports.commit({
        items: [
          create,
          { question: create.question, action: { merge: "newer", targetId: "not-a-uuid" } },
        ],
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });

    const res = await trpc(me, "imports.commit", {
      items: [create, { question: create.question, action: { merge: "newer", targetId: pub.id } }],
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe("You can only merge into your own questions");

    expect(await questionCount()).toBe(before);
    expect(await row(pub.id)).toEqual(pubBefore);
  });

  it("merge 'newer' takes the new content and keeps id, creation time, creator, study data and public flag", async () => {
    const me = await h.user();
    const target = await addQuestion(h.db.db, me.user.id, {
      text: stem("stale"),
      options: options("stale"),
      correctAnswer: "B",
      correctAnswers: ["B"],
      category: "Neuroscience",
      explanation: "Old explanation.",
      isPublic: true,
      part: "1",
      year: 2020,
      number: 5,
    });
    await h.db.db.insert(studyStates).values({
      userId: me.user.id,
      questionId: target.id,
      repetitions: 3,
      intervalDays: 6,
    });
    const text = stem("fresh");
    const { questions: saved } = await me.caller.imports.commit({
      items: [
        {
          // No category or explanation: blanks do not erase the stored ones.
          question: item({
            text,
            options: { A: "a1", B: "b1", C: "c1", D: "d1" },
            correctAnswer: "D",
            year: 2024,
            number: 9,
          }),
          action: { merge: "newer", targetId: target.id },
        },
      ],
      isPublic: false,
    });
    expect(saved).toHaveLength(1);
    const merged = saved[0]!;
    expect(merged).toMatchObject({
      _id: target.id,
      creator: me.user.id,
      createdAt: target.createdAt.toISOString(),
      isPublic: true,
      text,
      options: { A: "a1", B: "b1", C: "c1", D: "d1" },
      correctAnswer: "D",
      correctAnswers: ["D"],
      year: 2024,
      number: 9,
      category: "Neuroscience",
      explanation: "Old explanation.",
    });
    expect(merged.studyData).toHaveLength(1);
    expect(merged.studyData[0]).toMatchObject({ repetitions: 3, interval: 6 });
  });

  it("merge 'metadata' keeps the question and fills part, year, number and category where given", async () => {
    const me = await h.user();
    const text = stem("kept");
    const target = await addQuestion(h.db.db, me.user.id, {
      text,
      options: options("kept"),
      category: "Neuroscience",
      part: "1",
      year: 2020,
      number: 5,
      explanation: "Kept explanation.",
    });
    const { questions: saved } = await me.caller.imports.commit({
      items: [
        {
          question: item({
            text: stem("ignored"),
            options: options("ignored"),
            correctAnswer: "E",
            category: "",
            part: "1",
            year: 2022,
            number: 44,
            explanation: "Ignored.",
          }),
          action: { merge: "metadata", targetId: target.id },
        },
      ],
    });
    expect(saved[0]).toMatchObject({
      _id: target.id,
      text,
      options: options("kept"),
      correctAnswer: "B",
      category: "Neuroscience",
      year: 2022,
      number: 44,
      explanation: "Kept explanation.",
    });
  });

  it("merge 'manual' copies only the checked fields", async () => {
    const me = await h.user();
    const text = stem("manual");
    const target = await addQuestion(h.db.db, me.user.id, {
      text,
      options: options("manual"),
      category: "Neuroscience",
      correctAnswer: "B",
      correctAnswers: ["B"],
      year: 2020,
      number: 5,
      explanation: "Old.",
    });
    const incoming = item({
      text: stem("other text"),
      options: { A: "new A", B: "new B", C: "new C", D: "new D", E: "new E" },
      correctAnswer: "C",
      category: "Sleep Disorders",
      year: 2023,
      number: 77,
      explanation: "New explanation.",
    });
    const { questions: saved } = await me.caller.imports.commit({
      items: [
        {
          question: incoming,
          action: {
            merge: "manual",
            targetId: target.id,
            fields: ["optionB", "correctAnswer", "explanation", "number"],
          },
        },
      ],
    });
    expect(saved[0]).toMatchObject({
      _id: target.id,
      text,
      options: { ...options("manual"), B: "new B" },
      correctAnswer: "C",
      correctAnswers: ["C"],
      category: "Neuroscience",
      year: 2020,
      number: 77,
      explanation: "New explanation.",
    });
  });

  it("refuses anonymous callers", async () => {
    const res = await trpc(null, "imports.commit", {
      items: [{ question: item({ text: "x", options: options("x") }), action: "create" }],
    });
    expect(res.statusCode).toBe(401);
  });
});
