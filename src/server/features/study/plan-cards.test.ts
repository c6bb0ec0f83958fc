import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forecast, type ForecastCard } from "../../../core/srs/forecast";
import { DEFAULT_FSRS_SETTINGS, memoryFromSm2 } from "../../../core/srs/fsrs";
import type { Db } from "../../db/client";
import { questions, studyStates } from "../../db/schema";
import { createHarness, type Harness } from "../../test/harness";
import { decodeCards, studiedCards } from "./plan-cards";
import { addQuestion } from "./test-fixtures";

/**
 * Decision 395: the forecast's cards read as one aggregated row are the cards the per-row read gave
 * (decision 377's `getPlan`), value for value and in the same order, so the plan is unchanged.
 */
let h: Harness;
const DAY = 86_400_000;
const NOW = new Date("2026-03-02T15:00:00Z");

beforeAll(async () => {
  h = await createHarness({ now: () => NOW });
});
afterAll(async () => {
  await h.close();
});

/** The read `getPlan` made before decision 395, kept here as the reference. */
async function perRowCards(
  db: Db,
  userId: string,
  cats: readonly string[],
): Promise<ForecastCard[]> {
  const states = await db
    .select({
      category: questions.category,
      dueAt: studyStates.dueAt,
      lastReviewedAt: studyStates.lastReviewedAt,
      stability: studyStates.stability,
      difficulty: studyStates.fsrsDifficulty,
      intervalDays: studyStates.intervalDays,
      easeFactor: studyStates.easeFactor,
    })
    .from(studyStates)
    .innerJoin(questions, eq(questions.id, studyStates.questionId))
    .where(
      and(
        eq(studyStates.userId, userId),
        cats.length > 0 ? inArray(questions.category, [...cats]) : undefined,
      ),
    );
  return states.map((r) => {
    const memory =
      r.stability != null && r.difficulty != null
        ? { stability: r.stability, difficulty: r.difficulty }
        : memoryFromSm2({
            easeFactor: r.easeFactor,
            intervalDays: r.intervalDays,
            repetitions: 0,
            lapses: 0,
            dueAt: r.dueAt,
            lastReviewedAt: r.lastReviewedAt,
          });
    return {
      category: r.category,
      dueAt: r.dueAt?.getTime() ?? null,
      lastReviewedAt: r.lastReviewedAt?.getTime() ?? null,
      stability: memory.stability,
      difficulty: memory.difficulty,
    };
  });
}

const CATEGORIES = [
  "Neuroscience",
  "Mood Disorders",
  "",
  'Odd, one; with "quotes", {braces}, \\ and, commas',
  "Ünïcode — dashes",
];

describe("studiedCards (one aggregated row)", () => {
  it("gives the per-row read's cards, value for value and in order, and the same forecast", async () => {
    const u = await h.user();
    const other = await h.user();
    const db = h.db.db;
    for (let i = 0; i < 240; i++) {
      const q = await addQuestion(db, u.user.id, { category: CATEGORIES[i % CATEGORIES.length]! });
      const sm2 = i % 7 === 0;
      await db.insert(studyStates).values({
        userId: u.user.id,
        questionId: q.id,
        easeFactor: 1.3 + (i % 17) / 7,
        intervalDays: i % 45,
        repetitions: i % 5,
        lapses: i % 3,
        dueAt: i % 11 === 0 ? null : new Date(NOW.getTime() + ((i * 13) % 90) * DAY - 5 * DAY + i),
        lastReviewedAt: i % 13 === 0 ? null : new Date(NOW.getTime() - ((i % 40) + 1) * DAY - i),
        stability: sm2 ? null : i % 19 === 0 ? 1 / 3 : 0.1 + i * Math.PI,
        fsrsDifficulty: sm2 || i % 23 === 0 ? null : 1 + (i % 9) / 1.7,
      });
    }
    // Another user's state never enters.
    const theirs = await addQuestion(db, other.user.id);
    await db.insert(studyStates).values({ userId: other.user.id, questionId: theirs.id });
    // Microseconds, which the drivers' dates drop: the aggregated read drops them the same way.
    await db.execute(sql`update study_states set due_at = due_at + interval '0.000789 seconds',
      last_reviewed_at = last_reviewed_at - interval '0.000123 seconds'
      where user_id = ${u.user.id} and interval_days % 2 = 0`);

    const before = await perRowCards(db, u.user.id, []);
    const after = await studiedCards(db, u.user.id, []);
    expect(after).toHaveLength(240);
    expect(after).toEqual(before);
    expect(after.some((c) => c.dueAt === null)).toBe(true);
    expect(after.some((c) => c.lastReviewedAt !== null && c.lastReviewedAt % 1 !== 0)).toBe(false);

    const picked = [CATEGORIES[1]!, CATEGORIES[3]!];
    const pickedAfter = await studiedCards(db, u.user.id, picked);
    expect(pickedAfter).toEqual(await perRowCards(db, u.user.id, picked));
    expect(new Set(pickedAfter.map((c) => c.category))).toEqual(new Set(picked));

    const settings = { ...DEFAULT_FSRS_SETTINGS, scheduler: "fsrs" as const };
    const input = {
      now: NOW,
      timeZone: "America/Chicago",
      unseenByCategory: { Neuroscience: 40, "Mood Disorders": 12 },
      pace: 20,
      examDate: "2026-06-01",
      targetRetention: 0.9,
      settings,
    };
    expect(forecast({ ...input, cards: after })).toEqual(forecast({ ...input, cards: before }));
  });

  it("is empty for a user with no states and in categories they have not studied", async () => {
    const u = await h.user();
    expect(await studiedCards(h.db.db, u.user.id, [])).toEqual([]);
    const q = await addQuestion(h.db.db, u.user.id, { category: "Neuroscience" });
    await h.db.db.insert(studyStates).values({ userId: u.user.id, questionId: q.id });
    expect(await studiedCards(h.db.db, u.user.id, ["Mood Disorders"])).toEqual([]);
    expect(await studiedCards(h.db.db, u.user.id, [])).toEqual(
      await perRowCards(h.db.db, u.user.id, []),
    );
  });

  it("refuses a row whose categories and cards do not pair up", () => {
    expect(() => decodeCards(["a", "b"], "1,2,3,4")).toThrow("2 categories but 1 cards");
  });
});
