import { MockLanguageModelV3 } from "ai/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { questions } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { modelReply as reply } from "../../test/model";
import { addQuestion } from "../study/test-fixtures";
import { EXPLANATION_RATE_LIMIT, explanationLimiter } from "./explanations.service";

const EXPLANATION = "B is right because beta.\n\n\n\nA is wrong because alpha.  \n";
let model: MockLanguageModelV3;
let withModel: Harness;
let withoutModel: Harness;

beforeAll(async () => {
  model = new MockLanguageModelV3({ doGenerate: async () => reply(EXPLANATION) });
  withModel = await createHarness({ config: { aiModel: model } });
  withoutModel = await createHarness();
});
afterAll(async () => {
  await withModel.close();
  await withoutModel.close();
});
beforeEach(() => {
  explanationLimiter.reset();
});

const payload = {
  question: "Which letter is right?",
  options: { A: "alpha", B: "beta", C: "", d: "delta", Z: "ignored" },
  correctAnswer: "B",
};

async function post(h: Harness, user: TestUser, url: string, body: unknown) {
  return (await h.app()).inject({
    method: "POST",
    url,
    payload: body as object,
    headers: user.headers,
  });
}

describe("POST /api/explanation/generate", () => {
  it("asks the model with the question, its options and the answer, and returns {explanation}", async () => {
    const me = await withModel.user();
    const res = await post(withModel, me, "/api/explanation/generate", payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      explanation: "B is right because beta.\n\nA is wrong because alpha.",
    });
    const call = model.doGenerateCalls.at(-1)!;
    const prompt = JSON.stringify(call.prompt);
    expect(prompt).toContain("Which letter is right?");
    expect(prompt).toContain("A. alpha");
    expect(prompt).toContain("D. delta");
    expect(prompt).not.toContain("ignored");
    expect(prompt).toContain("Correct answer: B");
    expect(prompt).toMatch(/psychiatry educator/);
  });

  it("accepts several correct answers for a multiple-correct question", async () => {
    const me = await withModel.user();
    const res = await post(withModel, me, "/api/explanation/generate", {
      ...payload,
      correctAnswer: ["A", "d"],
    });
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(model.doGenerateCalls.at(-1)!.prompt)).toContain("Correct answers: A, D");
  });

  it("validates the payload and carries the message in `error`", async () => {
    const me = await withModel.user();
    const calls = model.doGenerateCalls.length;
    for (const [body, message] of [
      [{ ...payload, question: "  " }, "Question text is required"],
      [{ ...payload, options: { A: "only one" } }, "At least options A and B are required"],
      [{ ...payload, correctAnswer: "" }, "The correct answer is required"],
    ] as const) {
      const res = await post(withModel, me, "/api/explanation/generate", body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message, error: message });
    }
    expect(model.doGenerateCalls.length).toBe(calls);
  });

  it("is limited per user", async () => {
    const me = await withModel.user();
    const someoneElse = await withModel.user();
    for (let i = 0; i < EXPLANATION_RATE_LIMIT.limit; i++) {
      expect((await post(withModel, me, "/api/explanation/generate", payload)).statusCode).toBe(
        200,
      );
    }
    const refused = await post(withModel, me, "/api/explanation/generate", payload);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatch(
      /^Too many explanation requests\. Please try again in \d+ minutes?\.$/,
    );
    expect(
      (await post(withModel, someoneElse, "/api/explanation/generate", payload)).statusCode,
    ).toBe(200);
  });

  it("reports a failing model as a clear 503, not a crash", async () => {
    const failing = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error("upstream exploded");
      },
    });
    const h = await createHarness({ config: { aiModel: failing } });
    try {
      const me = await h.user();
      const res = await post(h, me, "/api/explanation/generate", payload);
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe(
        "The AI service could not generate an explanation. Please try again.",
      );
    } finally {
      await h.close();
    }
  });

  it("answers 'AI explanations are not configured on this server' without a model", async () => {
    const me = await withoutModel.user();
    const res = await post(withoutModel, me, "/api/explanation/generate", payload);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      message: "AI explanations are not configured on this server",
      error: "AI explanations are not configured on this server",
    });
    expect(await me.caller.explanations.status()).toEqual({ configured: false });
    const other = await withModel.user();
    expect(await other.caller.explanations.status()).toEqual({ configured: true });
  });

  it("needs a signed-in user", async () => {
    const res = await (
      await withModel.app()
    ).inject({
      method: "POST",
      url: "/api/explanation/generate",
      payload,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe("Please sign in to continue");
  });
});

describe("POST /api/explanation/save", () => {
  it("saves onto the creator's question and returns {message, question}", async () => {
    const me = await withModel.user();
    const q = await addQuestion(withModel.db.db, me.user.id);
    const res = await post(withModel, me, "/api/explanation/save", {
      questionId: q.id,
      explanation: "  Saved text.\r\n\r\nSecond paragraph. ",
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe("Explanation saved successfully");
    expect(body.question).toMatchObject({
      _id: q.id,
      generatedExplanation: "Saved text.\n\nSecond paragraph.",
      explanation: q.explanation,
    });
    const [row] = await withModel.db.db.select().from(questions).where(eq(questions.id, q.id));
    expect(row!.generatedExplanation).toBe("Saved text.\n\nSecond paragraph.");
  });

  it("refuses another user's public question (403) and hides a private one (404)", async () => {
    const author = await withModel.user();
    const reader = await withModel.user();
    const shared = await addQuestion(withModel.db.db, author.user.id, { isPublic: true });
    const secret = await addQuestion(withModel.db.db, author.user.id, { isPublic: false });
    const forbidden = await post(withModel, reader, "/api/explanation/save", {
      questionId: shared.id,
      explanation: "Mine now",
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe(
      "Only the question's creator can save an explanation to it",
    );
    const hidden = await post(withModel, reader, "/api/explanation/save", {
      questionId: secret.id,
      explanation: "Mine now",
    });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ message: "Question not found", error: "Question not found" });
    const bogus = await post(withModel, reader, "/api/explanation/save", {
      questionId: "not-an-id",
      explanation: "x",
    });
    expect(bogus.statusCode).toBe(404);
    const rows = await withModel.db.db.select().from(questions).where(eq(questions.id, shared.id));
    expect(rows[0]!.generatedExplanation).toBe("");
  });

  it("needs an explanation", async () => {
    const me = await withModel.user();
    const q = await addQuestion(withModel.db.db, me.user.id);
    const res = await post(withModel, me, "/api/explanation/save", {
      questionId: q.id,
      explanation: " ",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("Explanation is required");
  });
});
