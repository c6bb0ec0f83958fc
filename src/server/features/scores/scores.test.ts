import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { priteScores } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { restAs } from "../users/users.fixtures";

let h: Harness;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  h = await createHarness();
  await h.user(); // admin
  alice = await h.user();
  bob = await h.user();
});
afterAll(async () => {
  await h.close();
});

const rest = (...args: Parameters<ReturnType<typeof restAs>>) => restAs(h)(...args);

const thisYear = new Date().getFullYear();
const valid = (overrides: Record<string, unknown> = {}) => ({
  year: String(thisYear - 1),
  overallPercentile: 62,
  psychiatryPercentile: 70,
  neurosciencePercentile: 45,
  somaPercentile: null,
  growthPercentile: "",
  sections: [],
  notes: "",
  ...overrides,
});

async function countScores(userId: string) {
  return (await h.db.db.select().from(priteScores).where(eq(priteScores.userId, userId))).length;
}

describe("create and read", () => {
  it("POST /api/users/prite-scores stores a record and answers {score} (201)", async () => {
    const res = await rest("POST", "/api/users/prite-scores", alice, valid({ notes: " steady " }));
    expect(res.statusCode).toBe(201);
    const { score } = res.json();
    expect(score).toEqual({
      _id: expect.any(String),
      year: String(thisYear - 1),
      overallPercentile: 62,
      psychiatryPercentile: 70,
      neurosciencePercentile: 45,
      somaPercentile: null,
      growthPercentile: null,
      sections: [],
      notes: "steady",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const got = await rest("GET", `/api/users/prite-scores/${score._id}`, alice);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({ score });
    expect(await alice.caller.scores.get({ id: score._id })).toEqual(score);
  });

  it("accepts form strings and numbers alike, and keeps only complete extra sections", async () => {
    const score = await alice.caller.scores.create(
      valid({
        year: thisYear,
        overallPercentile: "81",
        psychiatryPercentile: " 90 ",
        sections: [
          { name: "  Child  ", percentile: "77" },
          { name: "   ", percentile: 50 },
          { name: "Addiction", percentile: "" },
          { name: "Geriatric", percentile: null },
          { name: "Forensic", percentile: 0 },
        ],
        notes: null,
      }) as never,
    );
    expect(score).toMatchObject({
      year: String(thisYear),
      overallPercentile: 81,
      psychiatryPercentile: 90,
      sections: [
        { name: "Child", percentile: 77 },
        { name: "Forensic", percentile: 0 },
      ],
      notes: "",
    });
  });

  it("GET /api/users/prite-scores answers {scores}: only the caller's records, newest year first", async () => {
    await bob.caller.scores.create(valid({ year: "2021" }) as never);
    await bob.caller.scores.create(valid({ year: "2023" }) as never);
    await bob.caller.scores.create(valid({ year: "2022" }) as never);
    const res = await rest("GET", "/api/users/prite-scores", bob);
    expect(res.statusCode).toBe(200);
    const { scores } = res.json();
    expect(scores.map((s: { year: string }) => s.year)).toEqual(["2023", "2022", "2021"]);
    const mine = await alice.caller.scores.list();
    const bobIds = new Set(scores.map((s: { _id: string }) => s._id));
    expect(mine.some((s) => bobIds.has(s._id))).toBe(false);
  });

  it("allows several records of one year (the summary handles it)", async () => {
    const u = await h.user();
    await u.caller.scores.create(valid({ year: "2022" }) as never);
    await u.caller.scores.create(valid({ year: "2022", overallPercentile: 70 }) as never);
    expect(await u.caller.scores.list()).toHaveLength(2);
  });
});

describe("validation (docs/product/validation.md)", () => {
  const REQUIRED = "Year and Overall Percentile are required";
  const PERCENTILE = "Percentiles must be whole numbers from 0 to 99";
  it.each([
    ["no year", { year: undefined }, REQUIRED],
    ["empty year", { year: "" }, REQUIRED],
    ["no overall", { overallPercentile: undefined }, REQUIRED],
    ["empty overall", { overallPercentile: "" }, REQUIRED],
    ["null overall", { overallPercentile: null }, REQUIRED],
    ["overall 100", { overallPercentile: 100 }, PERCENTILE],
    ["overall -1", { overallPercentile: -1 }, PERCENTILE],
    ["overall 50.5", { overallPercentile: 50.5 }, PERCENTILE],
    ["overall text", { overallPercentile: "abc" }, PERCENTILE],
    ["psychiatry 120", { psychiatryPercentile: 120 }, PERCENTILE],
    ["growth 3.2", { growthPercentile: "3.2" }, PERCENTILE],
    ["section 100", { sections: [{ name: "Child", percentile: 100 }] }, PERCENTILE],
    ["year text", { year: "last year" }, "Please enter a valid year"],
    ["year 1999", { year: "1999" }, "Year must be 2000 or later"],
    [
      "year after next",
      { year: String(thisYear + 2) },
      `Year must be between 2000 and ${thisYear + 1}`,
    ],
    ["notes too long", { notes: "x".repeat(5001) }, "Notes must be at most 5000 characters"],
  ])("refuses %s over REST and tRPC, changing nothing", async (_name, overrides, message) => {
    const before = await countScores(alice.user.id);
    const res = await rest("POST", "/api/users/prite-scores", alice, valid(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message });
    await expect(alice.caller.scores.create(valid(overrides) as never)).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(await countScores(alice.user.id)).toBe(before);
  });

  it("PUT validates the same way and leaves the record unchanged", async () => {
    const score = await alice.caller.scores.create(valid() as never);
    const res = await rest("PUT", `/api/users/prite-scores/${score._id}`, alice, {
      ...valid(),
      overallPercentile: "",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(REQUIRED);
    expect(await alice.caller.scores.get({ id: score._id })).toEqual(score);
  });
});

describe("update and delete", () => {
  it("PUT /api/users/prite-scores/{id} replaces the record and answers {score}", async () => {
    const score = await alice.caller.scores.create(valid() as never);
    const res = await rest("PUT", `/api/users/prite-scores/${score._id}`, alice, {
      ...valid(),
      overallPercentile: 75,
      somaPercentile: 30,
      sections: [{ name: "Neurology", percentile: 66 }],
      notes: "Better",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().score).toMatchObject({
      _id: score._id,
      overallPercentile: 75,
      somaPercentile: 30,
      sections: [{ name: "Neurology", percentile: 66 }],
      notes: "Better",
      createdAt: score.createdAt,
    });
    const viaTrpc = await alice.caller.scores.update({
      ...valid(),
      id: score._id,
      overallPercentile: 80,
    } as never);
    expect(viaTrpc.overallPercentile).toBe(80);
  });

  it("DELETE /api/users/prite-scores/{id} answers {message} and the record is gone", async () => {
    const score = await alice.caller.scores.create(valid() as never);
    const res = await rest("DELETE", `/api/users/prite-scores/${score._id}`, alice);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Score deleted successfully" });
    const again = await rest("GET", `/api/users/prite-scores/${score._id}`, alice);
    expect(again.statusCode).toBe(404);
    const second = await alice.caller.scores.create(valid() as never);
    await expect(alice.caller.scores.delete({ id: second._id })).resolves.toEqual({
      message: "Score deleted successfully",
    });
  });
});

describe("owner only", () => {
  it("another user's id answers 404 for get, update and delete over REST and tRPC", async () => {
    const score = await alice.caller.scores.create(valid() as never);
    const url = `/api/users/prite-scores/${score._id}`;
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", valid({ overallPercentile: 1 })],
      ["DELETE", undefined],
    ] as const) {
      const res = await rest(method, url, bob, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: "PRITE score not found" });
    }
    await expect(bob.caller.scores.get({ id: score._id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      bob.caller.scores.update({ ...valid(), id: score._id } as never),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(bob.caller.scores.delete({ id: score._id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await alice.caller.scores.get({ id: score._id })).toEqual(score);
  });

  it("an admin cannot read or change another user's scores either", async () => {
    const admin = await h.user({ isAdmin: true });
    const score = await alice.caller.scores.create(valid() as never);
    const res = await rest("GET", `/api/users/prite-scores/${score._id}`, admin);
    expect(res.statusCode).toBe(404);
    const list = await rest("GET", "/api/users/prite-scores", admin);
    expect(list.json()).toEqual({ scores: [] });
  });

  it.each([
    "not-a-uuid",
    "00000000-0000-0000-0000-000000000000",
    "x".repeat(101),
    "9".repeat(2000),
  ])("an unknown id (%s) answers 404 'PRITE score not found' on every path", async (id) => {
    const before = await countScores(alice.user.id);
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", valid()],
      ["DELETE", undefined],
    ] as const) {
      const res = await rest(method, `/api/users/prite-scores/${id}`, alice, body);
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toEqual({ message: "PRITE score not found" });
    }
    for (const call of [
      () => alice.caller.scores.get({ id }),
      () => alice.caller.scores.update({ ...valid(), id } as never),
      () => alice.caller.scores.delete({ id }),
    ]) {
      await expect(call()).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: "PRITE score not found",
      });
    }
    expect(await countScores(alice.user.id)).toBe(before);
  });

  it("a missing or non-text id answers 404 too", async () => {
    for (const id of [undefined, 42, null]) {
      await expect(alice.caller.scores.get({ id } as never)).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
    }
  });

  it("anonymous callers get 401 on every path and procedure", async () => {
    const score = await alice.caller.scores.create(valid() as never);
    for (const [method, url, body] of [
      ["GET", "/api/users/prite-scores", undefined],
      ["POST", "/api/users/prite-scores", valid()],
      ["GET", `/api/users/prite-scores/${score._id}`, undefined],
      ["PUT", `/api/users/prite-scores/${score._id}`, valid()],
      ["DELETE", `/api/users/prite-scores/${score._id}`, undefined],
    ] as const) {
      const res = await rest(method, url, null, body);
      expect(res.statusCode).toBe(401);
    }
    const a = h.anonymous.scores;
    for (const call of [
      () => a.list(),
      () => a.get({ id: score._id }),
      () => a.create(valid() as never),
      () => a.update({ ...valid(), id: score._id } as never),
      () => a.delete({ id: score._id }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    }
  });
});
