import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  ({ admin, alice, bob } = await adminAliceBob(h, "rest"));
});
afterAll(async () => {
  await h.close();
});

async function rest(method: string, url: string, who: TestUser | null, body?: unknown) {
  const app = await h.app();
  return app.inject({
    method: method as "GET",
    url,
    headers: who ? who.headers : {},
    payload: body as object,
  });
}

describe("POST /api/questions", () => {
  it("creates a question and answers 201 with the question", async () => {
    const res = await rest("POST", "/api/questions", alice, validQuestion());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      creator: alice.user.id,
      text: "Which medication is first-line for bipolar maintenance?",
      options: { A: "Lithium", B: "Haloperidol", C: "Sertraline", D: "Diazepam", E: "Bupropion" },
      correctAnswer: "A",
      part: "1",
      year: 2024,
      isPublic: false,
    });
  });

  it.each(VALIDATION_CASES)(
    "answers 400 for %s with {message} and saves nothing",
    async (_n, o, message) => {
      const before = await questionCount(h);
      const res = await rest("POST", "/api/questions", alice, validQuestion(o));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
      expect(await questionCount(h)).toBe(before);
    },
  );

  it("answers 400 for a body that is not JSON", async () => {
    const app = await h.app();
    const res = await app.inject({
      method: "POST",
      url: "/api/questions",
      headers: { ...alice.headers, "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: "The request body is not valid JSON." });
  });

  it("defaults isPublic from Public Profile", async () => {
    await setPublicProfile(h, bob.user.id, true);
    const res = await rest("POST", "/api/questions", bob, validQuestion());
    expect(res.json().isPublic).toBe(true);
    await setPublicProfile(h, bob.user.id, false);
  });
});

describe("authorization over REST", () => {
  let priv: string;
  let pub: string;
  beforeAll(async () => {
    priv = (await rest("POST", "/api/questions", alice, validQuestion({ isPublic: false }))).json()
      ._id;
    pub = (await rest("POST", "/api/questions", alice, validQuestion({ isPublic: true }))).json()
      ._id;
  });

  it("answers 401 to every path without a token", async () => {
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/questions"],
      ["GET", "/api/questions/search?text=x"],
      ["GET", "/api/questions/category-stats"],
      ["GET", "/api/questions/categories"],
      ["GET", `/api/questions/${pub}`],
      ["POST", "/api/questions", validQuestion()],
      ["PUT", `/api/questions/${pub}`, { text: "x" }],
      ["DELETE", `/api/questions/${pub}`],
      ["POST", "/api/questions/bulk", { questions: [validQuestion()] }],
    ];
    for (const [method, url, body] of calls) {
      const res = await rest(method, url, null, body);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().message).toBeTypeOf("string");
    }
  });

  it("GET one: another user's private is 404, public is visible", async () => {
    expect((await rest("GET", `/api/questions/${pub}`, bob)).statusCode).toBe(200);
    const res = await rest("GET", `/api/questions/${priv}`, bob);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: "Question not found" });
    expect((await rest("GET", "/api/questions/nonsense", bob)).statusCode).toBe(404);
  });

  for (const who of ["other user", "admin"] as const) {
    it(`PUT and DELETE by ${who}: private 404, public 403, nothing changes`, async () => {
      const caller = who === "admin" ? admin : bob;
      const put404 = await rest("PUT", `/api/questions/${priv}`, caller, { text: "hacked" });
      expect([put404.statusCode, put404.json()]).toEqual([404, { message: "Question not found" }]);
      const put403 = await rest("PUT", `/api/questions/${pub}`, caller, { text: "hacked" });
      expect([put403.statusCode, put403.json()]).toEqual([
        403,
        { message: "You can only edit questions you created" },
      ]);
      const del404 = await rest("DELETE", `/api/questions/${priv}`, caller);
      expect([del404.statusCode, del404.json()]).toEqual([404, { message: "Question not found" }]);
      const del403 = await rest("DELETE", `/api/questions/${pub}`, caller);
      expect([del403.statusCode, del403.json()]).toEqual([
        403,
        { message: "You can only delete questions you created" },
      ]);
      const bulk = await rest("POST", "/api/questions/bulk", caller, {
        questions: [validQuestion({ _id: pub, text: "hacked" })],
      });
      expect([bulk.statusCode, bulk.json()]).toEqual([
        403,
        { message: "Item 1 (question 7): You can only edit questions you created" },
      ]);
      for (const id of [priv, pub]) {
        const own = await rest("GET", `/api/questions/${id}`, alice);
        expect(own.json().text).not.toBe("hacked");
      }
    });
  }

  it("the creator updates with PUT and deletes with DELETE → {message}", async () => {
    const id = (await rest("POST", "/api/questions", alice, validQuestion())).json()._id;
    const put = await rest("PUT", `/api/questions/${id}`, alice, {
      ...validQuestion({ text: "Edited over REST", category: "Ethics" }),
      isPublic: true,
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      _id: id,
      text: "Edited over REST",
      category: "Ethics",
      isPublic: true,
    });
    const del = await rest("DELETE", `/api/questions/${id}`, alice);
    expect([del.statusCode, del.json()]).toEqual([
      200,
      { message: "Question deleted successfully" },
    ]);
    expect((await rest("GET", `/api/questions/${id}`, alice)).statusCode).toBe(404);
    expect((await rest("DELETE", `/api/questions/${id}`, alice)).statusCode).toBe(404);
  });

  const updateCases = VALIDATION_CASES.filter(([, o]) =>
    Object.values(o).every((v) => v !== undefined),
  );
  it.each(updateCases)("PUT answers 400 for %s and changes nothing", async (_n, o, message) => {
    const before = (await rest("GET", `/api/questions/${pub}`, alice)).json();
    const res = await rest("PUT", `/api/questions/${pub}`, alice, o);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message });
    expect((await rest("GET", `/api/questions/${pub}`, alice)).json()).toEqual(before);
  });

  it("GET /api/questions lists own and public questions, newest first", async () => {
    const res = await rest("GET", "/api/questions?pageSize=100", bob);
    expect(res.statusCode).toBe(200);
    const list = res.json() as {
      _id: string;
      createdAt: string;
      isPublic: boolean;
      creator: string;
    }[];
    expect(list.map((q) => q._id)).toContain(pub);
    expect(list.map((q) => q._id)).not.toContain(priv);
    expect(list.every((q) => q.isPublic || q.creator === bob.user.id)).toBe(true);
    const times = list.map((q) => Date.parse(q.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});

describe("POST /api/questions/bulk", () => {
  it("saves {questions:[…]} and answers with the saved list", async () => {
    const res = await rest("POST", "/api/questions/bulk", bob, {
      questions: [
        {
          text: "Imported 1",
          options: { A: "a", B: "b" },
          correctAnswer: "A",
          category: "Ethics",
          part: "1",
          year: 2022,
          number: 1,
        },
        {
          text: "Imported 2",
          options: { A: "a", B: "b" },
          correctAnswer: "",
          category: "",
          part: 2,
          year: "2022",
        },
      ],
    });
    expect(res.statusCode).toBe(201);
    const saved = res.json();
    expect(saved).toHaveLength(2);
    expect(saved[1]).toMatchObject({
      text: "Imported 2",
      part: "2",
      year: 2022,
      correctAnswer: "",
      creator: bob.user.id,
    });
  });

  it("applies the request's part and year to items without them", async () => {
    const res = await rest("POST", "/api/questions/bulk", bob, {
      part: "2",
      year: 2021,
      questions: [{ text: "Defaulted", options: { A: "a", B: "b" }, correctAnswer: "B" }],
    });
    expect(res.json()[0]).toMatchObject({ part: "2", year: 2021 });
    const noYear = await rest("POST", "/api/questions/bulk", bob, {
      questions: [{ text: "No year", options: { A: "a", B: "b" }, part: "1" }],
    });
    expect(noYear.json()[0].year).toBe(new Date().getFullYear());
    const noPart = await rest("POST", "/api/questions/bulk", bob, {
      questions: [{ text: "No part", options: { A: "a", B: "b" } }],
    });
    expect([noPart.statusCode, noPart.json()]).toEqual([
      400,
      { message: "Item 1: Part must be 1 or 2" },
    ]);
  });

  it("one bad item: 400 naming the item, nothing saved", async () => {
    const before = await questionCount(h);
    const res = await rest("POST", "/api/questions/bulk", bob, {
      questions: [
        validQuestion(),
        validQuestion({ number: 12, options: { A: "a" } }),
        validQuestion(),
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: "Item 2 (question 12): At least options A and B are required",
    });
    expect(await questionCount(h)).toBe(before);
  });

  it("refuses a missing or empty list", async () => {
    for (const body of [{}, { questions: [] }, { questions: "nope" }, { questions: [42] }]) {
      const res = await rest("POST", "/api/questions/bulk", bob, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBeTypeOf("string");
    }
  });

  it("accepts bodies above 1 MB (up to 25 MB) where the single create path does not", async () => {
    const explanation = "e".repeat(15_000);
    const questions = Array.from({ length: 150 }, (_, i) =>
      validQuestion({ text: `Big ${i}`, explanation }),
    );
    const res = await rest("POST", "/api/questions/bulk", bob, { questions });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toHaveLength(150);
    const single = await rest("POST", "/api/questions", bob, {
      ...validQuestion(),
      pad: "x".repeat(1_100_000),
    });
    expect(single.statusCode).toBe(413);
  });
});

describe("GET /api/questions/category-stats and /categories", () => {
  it("answers the caller's per-category figures and the categories present", async () => {
    const stats = await rest("GET", "/api/questions/category-stats", bob);
    expect(stats.statusCode).toBe(200);
    const ethics = stats.json().find((s: { category: string }) => s.category === "Ethics");
    expect(ethics).toMatchObject({ total: 1, mastered: 0, due: 1, accuracy: null, answered: 0 });
    const cats = await rest("GET", "/api/questions/categories", bob);
    expect(cats.json()).toEqual(expect.arrayContaining(["Bipolar Disorders", "Ethics"]));
  });
});
