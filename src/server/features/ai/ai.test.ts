import fs from "node:fs";
import path from "node:path";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { modelReply as reply } from "../../test/model";
import { AI_MESSAGES } from "./ai.types";
import { AI_RATE_LIMIT, aiLimiter } from "./ai.service";

/** The first three blocks of the real NCVEC pool: ID line with the answer in parentheses, stem, A-D. */
const NCVEC = fs
  .readFileSync(
    path.join(process.cwd(), "fixtures", "real", "ncvec_extra_class_pool_2024.txt"),
    "utf8",
  )
  .split(/\n\s*\n/)
  .slice(0, 3)
  .join("\n\n");

const MODEL_QUESTIONS = {
  questions: [
    {
      number: 12,
      text: "Which drug causes agranulocytosis?",
      options: { A: "Clozapine", B: "Sertraline", C: "Lithium", D: "Bupropion", E: "" },
      correctAnswer: "A",
      explanation: "",
      category: "Psychopharmacology",
    },
  ],
};

let replyText = JSON.stringify(MODEL_QUESTIONS);
let failing = false;
const model = new MockLanguageModelV3({
  doGenerate: async () => {
    if (failing) throw new Error("upstream exploded");
    return reply(replyText);
  },
});
let withModel: Harness;
let withoutModel: Harness;

beforeAll(async () => {
  withModel = await createHarness({ config: { aiModel: model } });
  withoutModel = await createHarness();
});
afterAll(async () => {
  await withModel.close();
  await withoutModel.close();
});
beforeEach(() => {
  aiLimiter.reset();
  replyText = JSON.stringify(MODEL_QUESTIONS);
  failing = false;
});

async function post(h: Harness, user: TestUser | null, url: string, body: unknown) {
  return (await h.app()).inject({
    method: "POST",
    url,
    payload: body as object,
    headers: user ? user.headers : {},
  });
}

describe("POST /api/openai without a model", () => {
  it("parses questions deterministically (json) from the real NCVEC text", async () => {
    const me = await withoutModel.user();
    const res = await post(withoutModel, me, "/api/openai", { text: NCVEC, format: "json" });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, error: null, source: "parser" });
    expect(body.data).toHaveLength(3);
    expect(body.data.map((q: { correctAnswer: string }) => q.correctAnswer)).toEqual([
      "D",
      "D",
      "C",
    ]);
    expect(body.data[0]).toMatchObject({
      text: "Why is it not legal to transmit a 3 kHz bandwidth USB signal with a carrier frequency of 14.348 MHz?",
      options: {
        A: "USB is not used on 20-meter phone",
        B: "The lower 1 kHz of the signal is outside the 20-meter band",
        C: "14.348 MHz is outside the 20-meter band",
        D: "The upper 1 kHz of the signal is outside the 20-meter band",
      },
    });
  });

  it("hands the text back for the parse step (text format)", async () => {
    const me = await withoutModel.user();
    const res = await post(withoutModel, me, "/api/openai", { text: NCVEC, format: "text" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: NCVEC, error: null });
  });

  it("reads an answer key when a prompt is sent", async () => {
    const me = await withoutModel.user();
    const res = await post(withoutModel, me, "/api/openai", {
      text: "1. B 2. D\n3) (C)\n4\t5",
      format: "json",
      prompt: "Extract the answer key.",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      data: { "1": "B", "2": "D", "3": "C", "4": "E" },
      error: null,
    });
  });

  it("carries the answer-key parser's warnings (sections left out, numeric answers) in the response", async () => {
    const me = await withoutModel.user();
    const cuet = fs.readFileSync(
      path.join(process.cwd(), "fixtures", "real", "cuet_2024_answerkey.txt"),
      "utf8",
    );
    const res = await post(withoutModel, me, "/api/openai", {
      text: cuet,
      format: "json",
      prompt: "Extract the answer key.",
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, error: null, source: "parser" });
    expect(Object.keys(body.data)).toHaveLength(50);
    expect(body.warnings).toHaveLength(2);
    expect(body.warnings[0]).toMatch(
      /^The key has 6 sections whose numbering restarts\. Only the first, 'Subject 1: Accountancy\/Book Keeping \(301\)' \(50 answers\), was taken; paste the others separately: /,
    );
    expect(body.warnings[1]).toBe(
      "Answers given as numbers were read as letters: 1 = A, 2 = B, 3 = C, 4 = D, 5 = E.",
    );

    // Nothing to say: an empty list, never a missing field.
    const plain = await post(withoutModel, me, "/api/openai", { text: "1. B 2. D", prompt: "x" });
    expect(plain.json()).toMatchObject({ data: { "1": "B", "2": "D" }, warnings: [] });
    const questions = await post(withoutModel, me, "/api/openai", { text: NCVEC });
    expect(questions.json().warnings).toEqual([]);
  });

  it("answers 400 on empty text, 401 anonymous", async () => {
    const me = await withoutModel.user();
    for (const body of [{ text: "   ", format: "json" }, { format: "json" }]) {
      const res = await post(withoutModel, me, "/api/openai", body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: AI_MESSAGES.TEXT_REQUIRED,
        success: false,
        error: AI_MESSAGES.TEXT_REQUIRED,
      });
    }
    const anonymous = await post(withoutModel, null, "/api/openai", { text: NCVEC });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().success).toBe(false);
  });

  it("is rate-limited per user", async () => {
    const me = await withoutModel.user();
    for (let i = 0; i < AI_RATE_LIMIT.limit; i++) {
      expect((await post(withoutModel, me, "/api/openai", { text: "1. B" })).statusCode).toBe(200);
    }
    const refused = await post(withoutModel, me, "/api/openai", { text: "1. B" });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatch(
      /^Too many requests\. Please try again in \d+ minutes?\.$/,
    );
  });
});

describe("POST /api/openai with a model", () => {
  it("uses the model's validated structured output", async () => {
    const me = await withModel.user();
    const res = await post(withModel, me, "/api/openai", { text: NCVEC, format: "json" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: MODEL_QUESTIONS.questions,
      error: null,
      source: "model",
      warnings: [],
    });
    expect(JSON.stringify(model.doGenerateCalls.at(-1)!.prompt)).toContain("E1A01 (D)");

    const text = await post(withModel, me, "/api/openai", { text: NCVEC, format: "text" });
    expect(text.json()).toMatchObject({
      success: true,
      source: "model",
      data: "12. Which drug causes agranulocytosis?\nA. Clozapine\nB. Sertraline\nC. Lithium\nD. Bupropion\nAnswer: A",
    });
  });

  it("uses the model for answer keys", async () => {
    const me = await withModel.user();
    replyText = JSON.stringify({
      answers: [
        { number: 1, answer: "E" },
        { number: 2, answer: "A" },
      ],
    });
    const res = await post(withModel, me, "/api/openai", {
      text: "1. B 2. D",
      prompt: "Extract the answer key.",
    });
    expect(res.json()).toMatchObject({
      success: true,
      data: { "1": "E", "2": "A" },
      source: "model",
    });
  });

  it("falls back to the deterministic parser when the model returns junk, invalid or empty output", async () => {
    const me = await withModel.user();
    for (const junk of [
      "Sure! Here are your questions: 1. …",
      JSON.stringify({ questions: [{ number: "one", text: 5 }] }),
      JSON.stringify({ questions: [] }),
    ]) {
      replyText = junk;
      const res = await post(withModel, me, "/api/openai", { text: NCVEC, format: "json" });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ success: true, error: null, source: "parser" });
      expect(body.data.map((q: { correctAnswer: string }) => q.correctAnswer)).toEqual([
        "D",
        "D",
        "C",
      ]);
    }
    replyText = JSON.stringify({ answers: [{ number: 1, answer: "Z" }] });
    const key = await post(withModel, me, "/api/openai", { text: "1. B 2. D", prompt: "key" });
    expect(key.json()).toMatchObject({
      success: true,
      data: { "1": "B", "2": "D" },
      source: "parser",
    });
  });

  it("falls back to the deterministic parser when the model throws", async () => {
    const me = await withModel.user();
    failing = true;
    const res = await post(withModel, me, "/api/openai", { text: NCVEC, format: "json" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, error: null, source: "parser" });
    expect(res.json().data).toHaveLength(3);
  });
});

describe("POST /api/parser/questions", () => {
  it("answers the list of questions, tagged with the part", async () => {
    const me = await withoutModel.user();
    const res = await post(withoutModel, me, "/api/parser/questions", {
      ocrText: NCVEC,
      part: "2",
      year: 2023,
    });
    expect(res.statusCode).toBe(200);
    const questions = res.json();
    expect(questions).toHaveLength(3);
    expect(questions[0]).toMatchObject({ part: "2", year: 2023, correctAnswer: "D" });
  });

  it("answers 400 without ocrText or part, 401 anonymous", async () => {
    const me = await withoutModel.user();
    for (const [body, message] of [
      [{ part: "1" }, AI_MESSAGES.OCR_REQUIRED],
      [{ ocrText: "  ", part: "1" }, AI_MESSAGES.OCR_REQUIRED],
      [{ ocrText: NCVEC }, AI_MESSAGES.PART_REQUIRED],
    ] as const) {
      const res = await post(withoutModel, me, "/api/parser/questions", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(
      (await post(withoutModel, null, "/api/parser/questions", { ocrText: NCVEC, part: "1" }))
        .statusCode,
    ).toBe(401);
  });
});
