import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { questions, type NewQuestionRow } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { addQuestion } from "../study/test-fixtures";
import { ANSWER_KEY_MESSAGES } from "./answer-keys.types";

const REAL = path.join(process.cwd(), "fixtures", "real");

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

async function answerOf(id: string) {
  const [row] = await h.db.db
    .select({ correctAnswer: questions.correctAnswer, correctAnswers: questions.correctAnswers })
    .from(questions)
    .where(eq(questions.id, id));
  return row!;
}

async function rest(
  user: TestUser | null,
  method: "GET" | "POST" | "DELETE",
  url: string,
  body?: unknown,
) {
  return (await h.app()).inject({
    method,
    url,
    ...(body === undefined ? {} : { payload: body as object }),
    headers: user ? user.headers : {},
  });
}

describe("answer keys through tRPC", () => {
  it("saving replaces the key of that part and year; list and get show only the caller's keys", async () => {
    const me = await h.user();
    const other = await h.user();
    await other.caller.answerKeys.save({ part: "1", year: 2023, answers: { "1": "E" } });

    const first = await me.caller.answerKeys.save({
      part: "1",
      year: 2023,
      answers: { "10": "c", "2": "B", "1": " a " },
    });
    expect(first).toMatchObject({ part: "1", year: 2023, count: 3 });
    // Normalised and in question-number order.
    expect(Object.entries(first.answers)).toEqual([
      ["1", "A"],
      ["2", "B"],
      ["10", "C"],
    ]);
    const second = await me.caller.answerKeys.save({
      part: "1",
      year: 2023,
      answers: { "5": "D" },
    });
    expect(second._id).toBe(first._id);
    expect(second.answers).toEqual({ "5": "D" });
    await me.caller.answerKeys.save({ part: "2", year: 2022, answers: { "1": "B" } });

    const list = await me.caller.answerKeys.list();
    expect(list.map((k) => [k.part, k.year, k.answers])).toEqual([
      ["1", 2023, { "5": "D" }],
      ["2", 2022, { "1": "B" }],
    ]);
    expect(await me.caller.answerKeys.get({ part: "1", year: 2023 })).toMatchObject({
      answers: { "5": "D" },
    });
    expect(await me.caller.answerKeys.get({ part: "1", year: 2021 })).toBeNull();
    // The other user's key is untouched and invisible to me.
    expect((await other.caller.answerKeys.get({ part: "1", year: 2023 }))!.answers).toEqual({
      "1": "E",
    });
    expect((await other.caller.answerKeys.list()).length).toBe(1);
  });

  it("rejects bad letters, numbers and years", async () => {
    const me = await h.user();
    const bad: [unknown, string][] = [
      [{ part: "1", year: 2023, answers: { "1": "F" } }, ANSWER_KEY_MESSAGES.BAD_LETTER],
      [{ part: "1", year: 2023, answers: { "1": "AB" } }, ANSWER_KEY_MESSAGES.BAD_LETTER],
      [{ part: "1", year: 2023, answers: { "0": "A" } }, ANSWER_KEY_MESSAGES.BAD_NUMBER],
      [{ part: "1", year: 2023, answers: { x: "A" } }, ANSWER_KEY_MESSAGES.BAD_NUMBER],
      [{ part: "1", year: 2023, answers: {} }, ANSWER_KEY_MESSAGES.EMPTY],
      [{ part: "1", year: 1999, answers: { "1": "A" } }, "Year must be 2000 or later"],
      [
        { part: "1", year: new Date().getFullYear() + 2, answers: { "1": "A" } },
        "Year must be between 2000 and",
      ],
      [{ part: "3", year: 2023, answers: { "1": "A" } }, "art"],
    ];
    for (const [input, message] of bad) {
      await expect(me.caller.answerKeys.save(input as never)).rejects.toThrow(message);
    }
    expect(await me.caller.answerKeys.list()).toEqual([]);
  });

  it("imports the real CUET key (numeric answers, restarting sections) without crashing", async () => {
    const me = await h.user();
    const text = fs.readFileSync(path.join(REAL, "cuet_2024_answerkey.txt"), "utf8");
    const { key, warnings } = await me.caller.answerKeys.importText({
      part: "2",
      year: 2024,
      text,
    });
    expect(key.count).toBe(50);
    expect(key.answers).toMatchObject({ "1": "B", "2": "B", "3": "D", "4": "D", "5": "A" });
    expect(Object.values(key.answers).every((l) => /^[A-E]$/.test(l))).toBe(true);
    expect(warnings.join(" ")).toMatch(/restarts/);
    expect(warnings.join(" ")).toMatch(/1 = A, 2 = B/);
    expect((await me.caller.answerKeys.get({ part: "2", year: 2024 }))!.count).toBe(50);
  });

  it("imports pasted keys in the usual shapes, and refuses text without answers", async () => {
    const me = await h.user();
    const { key } = await me.caller.answerKeys.importText({
      part: "1",
      year: 2022,
      text: "1. B 2. D\n3) (C)\n4. e",
    });
    expect(key.answers).toEqual({ "1": "B", "2": "D", "3": "C", "4": "E" });
    await expect(
      me.caller.answerKeys.importText({ part: "1", year: 2022, text: "no answers here" }),
    ).rejects.toThrow(ANSWER_KEY_MESSAGES.EMPTY);
    await expect(
      me.caller.answerKeys.importText({ part: "1", year: 2022, text: "   " }),
    ).rejects.toThrow(ANSWER_KEY_MESSAGES.TEXT_REQUIRED);
  });

  it("applies by number to own questions only, keeping answered ones unless overwrite", async () => {
    const me = await h.user();
    const other = await h.user();
    /** A question of part 1, 2021, with that number and stored answer ('' = unanswered). */
    const numbered = (
      creatorId: string,
      number: number,
      answer: string,
      extra: Partial<NewQuestionRow> = {},
    ) =>
      addQuestion(h.db.db, creatorId, {
        part: "1",
        year: 2021,
        number,
        correctAnswer: answer,
        correctAnswers: answer === "" ? [] : [answer],
        ...extra,
      });
    const unanswered = await numbered(me.user.id, 1, "");
    const answered = await numbered(me.user.id, 2, "A");
    const same = await numbered(me.user.id, 3, "C");
    const multiple = await numbered(me.user.id, 4, "", {
      questionType: "multipleCorrect",
      correctAnswers: ["A", "C", "E"],
    });
    const otherPart = await numbered(me.user.id, 1, "", { part: "2" });
    const notInKey = await numbered(me.user.id, 99, "");
    const othersPublic = await numbered(other.user.id, 1, "", { isPublic: true });
    await me.caller.answerKeys.save({
      part: "1",
      year: 2021,
      answers: { "1": "D", "2": "B", "3": "C", "4": "E" },
    });

    const first = await me.caller.answerKeys.applyToQuestions({ part: "1", year: 2021 });
    expect(first).toEqual({ matched: 4, applied: 1, kept: 1, skippedMultipleCorrect: 1 });
    expect(await answerOf(unanswered.id)).toEqual({ correctAnswer: "D", correctAnswers: ["D"] });
    expect(await answerOf(answered.id)).toEqual({ correctAnswer: "A", correctAnswers: ["A"] });
    expect(await answerOf(same.id)).toEqual({ correctAnswer: "C", correctAnswers: ["C"] });
    expect(await answerOf(multiple.id)).toEqual({
      correctAnswer: "",
      correctAnswers: ["A", "C", "E"],
    });
    expect((await answerOf(otherPart.id)).correctAnswer).toBe("");
    expect((await answerOf(notInKey.id)).correctAnswer).toBe("");
    expect((await answerOf(othersPublic.id)).correctAnswer).toBe("");

    const overwrite = await me.caller.answerKeys.applyToQuestions({
      part: "1",
      year: 2021,
      overwrite: true,
    });
    expect(overwrite).toEqual({ matched: 4, applied: 1, kept: 0, skippedMultipleCorrect: 1 });
    expect(await answerOf(answered.id)).toEqual({ correctAnswer: "B", correctAnswers: ["B"] });
    expect((await answerOf(othersPublic.id)).correctAnswer).toBe("");

    await expect(
      other.caller.answerKeys.applyToQuestions({ part: "1", year: 2021 }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: ANSWER_KEY_MESSAGES.NOT_FOUND });
  });

  it("deletes only the caller's key", async () => {
    const me = await h.user();
    const other = await h.user();
    await me.caller.answerKeys.save({ part: "2", year: 2020, answers: { "1": "A" } });
    await expect(other.caller.answerKeys.delete({ part: "2", year: 2020 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await me.caller.answerKeys.delete({ part: "2", year: 2020 })).toEqual({
      message: ANSWER_KEY_MESSAGES.DELETED,
    });
    expect(await me.caller.answerKeys.get({ part: "2", year: 2020 })).toBeNull();
  });
});

describe("REST /api/answer-keys", () => {
  it("POST answers 201 with the key, GET lists and fetches, DELETE removes, missing keys 404", async () => {
    const me = await h.user();
    const other = await h.user();
    const created = await rest(me, "POST", "/api/answer-keys", {
      part: "1",
      year: 2024,
      answers: { "1": "A", "2": "c" },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      part: "1",
      year: 2024,
      answers: { "1": "A", "2": "C" },
      count: 2,
    });

    const fromText = await rest(me, "POST", "/api/answer-keys", {
      part: 2,
      year: "2024",
      text: "1. B 2. D",
    });
    expect(fromText.statusCode).toBe(201);
    expect(fromText.json().key).toMatchObject({
      part: "2",
      year: 2024,
      answers: { "1": "B", "2": "D" },
    });

    const list = await rest(me, "GET", "/api/answer-keys");
    expect(list.statusCode).toBe(200);
    expect(list.json().map((k: { part: string }) => k.part)).toEqual(["1", "2"]);
    expect((await rest(other, "GET", "/api/answer-keys")).json()).toEqual([]);

    const one = await rest(me, "GET", "/api/answer-keys/1/2024");
    expect(one.statusCode).toBe(200);
    expect(one.json().answers).toEqual({ "1": "A", "2": "C" });

    for (const [user, url] of [
      [other, "/api/answer-keys/1/2024"],
      [me, "/api/answer-keys/1/2020"],
    ] as const) {
      const missing = await rest(user, "GET", url);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: ANSWER_KEY_MESSAGES.NOT_FOUND });
    }
    expect((await rest(other, "DELETE", "/api/answer-keys/1/2024")).statusCode).toBe(404);

    const deleted = await rest(me, "DELETE", "/api/answer-keys/1/2024");
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: ANSWER_KEY_MESSAGES.DELETED });
    expect((await rest(me, "GET", "/api/answer-keys/1/2024")).statusCode).toBe(404);
  });

  it("answers 400 with a message for bad letters, numbers, years and parts", async () => {
    const me = await h.user();
    for (const [body, message] of [
      [{ part: "1", year: 2024, answers: { "1": "Z" } }, ANSWER_KEY_MESSAGES.BAD_LETTER],
      [{ part: "1", year: 2024, answers: { "-1": "A" } }, ANSWER_KEY_MESSAGES.BAD_NUMBER],
      [{ part: "1", year: 1990, answers: { "1": "A" } }, "Year must be 2000 or later"],
      [{ part: "1", year: 2024, text: "nothing useful" }, ANSWER_KEY_MESSAGES.EMPTY],
    ] as const) {
      const res = await rest(me, "POST", "/api/answer-keys", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await rest(me, "GET", "/api/answer-keys/1/abcd")).statusCode).toBe(400);
    expect((await rest(me, "GET", "/api/answer-keys/9/2024")).statusCode).toBe(400);
    expect((await rest(me, "GET", "/api/answer-keys")).json()).toEqual([]);
  });

  it("POST …/apply fills own questions by number; 404 without a key; 401 anonymous", async () => {
    const me = await h.user();
    const q1 = await addQuestion(h.db.db, me.user.id, {
      part: "2",
      year: 2023,
      number: 8,
      correctAnswer: "A",
      correctAnswers: ["A"],
    });
    await rest(me, "POST", "/api/answer-keys", { part: "2", year: 2023, answers: { "8": "E" } });
    const kept = await rest(me, "POST", "/api/answer-keys/2/2023/apply", {});
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toEqual({ matched: 1, applied: 0, kept: 1, skippedMultipleCorrect: 0 });
    const applied = await rest(me, "POST", "/api/answer-keys/2/2023/apply", { overwrite: true });
    expect(applied.json()).toEqual({ matched: 1, applied: 1, kept: 0, skippedMultipleCorrect: 0 });
    expect((await answerOf(q1.id)).correctAnswer).toBe("E");

    expect((await rest(me, "POST", "/api/answer-keys/1/2023/apply", {})).statusCode).toBe(404);
    expect((await rest(null, "GET", "/api/answer-keys")).statusCode).toBe(401);
    expect(
      (
        await rest(null, "POST", "/api/answer-keys", {
          part: "1",
          year: 2024,
          answers: { "1": "A" },
        })
      ).statusCode,
    ).toBe(401);
  });
});
