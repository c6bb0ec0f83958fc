import { count, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptedYearRange } from "../../src/core/constants";
import { questions, reviews, users } from "../../src/server/db/schema";
import { DEMO_BANK } from "../../src/server/features/seed/demo-bank";
import { seedSynthetic } from "../../src/server/features/seed/synthetic";
import { createHarness, type Harness, type TestUser } from "../../src/server/test/harness";
import { createContextInner } from "../../src/server/trpc/context";
import { createCaller } from "../../src/server/trpc/router";
import { apiFromCaller } from "../runtime";
import { checkSeedFlags, formatDemoSeed, seedDemo, syntheticOptions } from "./seed";

let h: Harness;
let chief: TestUser;

beforeAll(async () => {
  h = await createHarness();
  chief = await h.user();
});
afterAll(async () => {
  await h.close();
});

const flags = { users: "1000", questions: "50000", reviews: "500000", public: "0.2" };

describe("prite seed --demo", () => {
  it("adds the 12 demo questions, public, as the acting user; a second run adds none", async () => {
    const api = apiFromCaller(chief.caller);
    const first = await seedDemo(api, { year: 2024 });
    expect(first).toEqual({ imported: 12, alreadyPresent: 0, year: 2024 });
    expect(formatDemoSeed(first, chief.user.username)).toBe(
      `Added 12 demo questions (public, 2024) as ${chief.user.username}.`,
    );
    const rows = await h.db.db
      .select({
        text: questions.text,
        isPublic: questions.isPublic,
        year: questions.year,
        answer: questions.correctAnswer,
      })
      .from(questions)
      .where(eq(questions.creatorId, chief.user.id));
    expect(rows).toHaveLength(12);
    expect(rows.map((r) => r.text).sort()).toEqual(DEMO_BANK.map((q) => q.text).sort());
    expect(rows.every((r) => r.isPublic && r.year === 2024 && r.answer !== "")).toBe(true);

    // Again, even for another year: the same questions are already there.
    const again = await seedDemo(api, { year: 2025 });
    expect(again).toEqual({ imported: 0, alreadyPresent: 12, year: 2025 });
    expect(formatDemoSeed(again, chief.user.username)).toBe(
      "The 12 demo questions are already there: nothing added.",
    );
    expect(await h.questionsCreatedBy(chief.user.id)).toBe(12);
  });

  it("another user sees the public demo bank already, so no second copy is made", async () => {
    const resident = await h.user();
    const result = await seedDemo(apiFromCaller(resident.caller), { year: 2024 });
    expect(result).toMatchObject({ imported: 0, alreadyPresent: 12 });
    expect(await h.questionsCreatedBy(resident.user.id)).toBe(0);
  });

  it("fills in only the demo questions that are missing, and says so", async () => {
    const victim = DEMO_BANK[3]!.text;
    await h.db.db.delete(questions).where(eq(questions.text, victim));
    const result = await seedDemo(apiFromCaller(chief.caller), { year: 2024 });
    expect(result).toEqual({ imported: 1, alreadyPresent: 11, year: 2024 });
    expect(formatDemoSeed(result, "chief")).toBe(
      "Added 1 demo questions (public, 2024) as chief (11 were already there: skipped).",
    );
  });

  it("without anyone to act as, the server refuses and nothing is written", async () => {
    const other = await createHarness();
    try {
      const api = apiFromCaller(createCaller(createContextInner({ db: other.db.db })));
      await expect(seedDemo(api, { year: 2024 })).rejects.toMatchObject({
        data: { code: "UNAUTHORIZED" },
      });
      const [n] = await other.db.db.select({ n: count() }).from(questions);
      expect(Number(n!.n)).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe("prite seed flags (checked before the database is opened)", () => {
  const now = new Date(2026, 5, 1);
  const { min, max } = acceptedYearRange(now);

  it("one of --demo or --synthetic", () => {
    expect(() => checkSeedFlags({ ...flags }, now)).toThrow("Choose one of --demo or --synthetic.");
    expect(() => checkSeedFlags({ ...flags, demo: true, synthetic: true }, now)).toThrow(
      "Choose one of --demo or --synthetic.",
    );
  });

  it("--year takes the server's accepted years, as a usage error otherwise", () => {
    expect(checkSeedFlags({ ...flags, demo: true }, now)).toEqual({ kind: "demo", year: 2026 });
    expect(checkSeedFlags({ ...flags, demo: true, year: String(min) }, now)).toMatchObject({
      year: min,
    });
    for (const year of ["0", String(min - 1), String(max + 1), "2100", "24x", ""]) {
      expect(() => checkSeedFlags({ ...flags, demo: true, year }, now), year).toThrow(
        expect.objectContaining({
          message: `--year must be a year from ${min} to ${max}`,
          exitCode: 2,
        }),
      );
    }
    expect(() => checkSeedFlags({ ...flags, synthetic: true, year: "2024" }, now)).toThrow(
      "--year applies to --demo only.",
    );
  });

  it("--synthetic counts and share", () => {
    expect(syntheticOptions({ ...flags, users: "3", questions: "7", reviews: "0" }, now)).toEqual({
      users: 3,
      questions: 7,
      reviews: 0,
      publicShare: 0.2,
      now,
    });
    expect(() => syntheticOptions({ ...flags, users: "-1" }, now)).toThrow(
      "--users must be a whole number from 0 to 100000",
    );
    expect(() => syntheticOptions({ ...flags, questions: "1.5" }, now)).toThrow(
      "--questions must be a whole number from 0 to 2000000",
    );
    expect(() => syntheticOptions({ ...flags, public: "2" }, now)).toThrow(
      "--public must be a share from 0 to 1, e.g. 0.2",
    );
    expect(() => syntheticOptions({ ...flags, public: "abc" }, now)).toThrow(/--public/);
  });
});

describe("prite seed --synthetic", () => {
  it("creates the users, questions and reviews it reports", async () => {
    const result = await seedSynthetic(h.db.db, {
      users: 3,
      questions: 40,
      reviews: 120,
      publicShare: 0.5,
      now: new Date("2026-06-01T12:00:00Z"),
      prefix: "seedtest",
    });
    expect(result).toEqual({
      prefix: "seedtest",
      password: "synthetic-password",
      users: 3,
      questions: 40,
      reviews: 120,
    });
    const [u] = await h.db.db
      .select({ n: count() })
      .from(users)
      .where(like(users.username, "seedtest\\_%"));
    expect(Number(u!.n)).toBe(3);
    const [q] = await h.db.db
      .select({
        n: count(),
        public: sql<number>`count(*) filter (where ${questions.isPublic})::int`,
      })
      .from(questions)
      .innerJoin(users, eq(users.id, questions.creatorId))
      .where(like(users.username, "seedtest\\_%"));
    expect(Number(q!.n)).toBe(40);
    expect(Number(q!.public)).toBeGreaterThan(0);
    expect(Number(q!.public)).toBeLessThan(40);
    const [r] = await h.db.db
      .select({ n: count() })
      .from(reviews)
      .innerJoin(users, eq(users.id, reviews.userId))
      .where(like(users.username, "seedtest\\_%"));
    expect(Number(r!.n)).toBe(120);
  });
});
