import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client";
import { questions, studyStates, users } from "../../db/schema";
import { userVersion } from "../../db/user-versions";
import { createHarness, type Harness } from "../../test/harness";
import { getPlan } from "./plan.service";
import { enablePlanReadCache, planReadKey, type PlanReadCache } from "./plan-read-cache";
import { addQuestion } from "./test-fixtures";

/** Decision 396: the plan's reads kept while the user's version is unchanged, never past a write. */
let h: Harness;
let cache: PlanReadCache;
const DAY = 86_400_000;
const NOW = new Date("2026-03-02T15:00:00Z");

beforeAll(async () => {
  h = await createHarness({ now: () => NOW });
  cache = enablePlanReadCache(h.db.db);
});
afterAll(async () => {
  await h.close();
});

/** The plan as computed without the cache (a transaction's handle has none). */
const uncached = (db: Db, userId: string, now: Date) =>
  db.transaction((tx) => getPlan(tx as unknown as Db, userId, now));

describe("the plan's kept reads", () => {
  it("answer again while nothing changed, and never after a write to what they read", async () => {
    const u = await h.user();
    const other = await h.user();
    const db = h.db.db;
    await db
      .update(users)
      .set({ scheduler: "fsrs", examDate: "2026-06-01", timeZone: "America/Chicago" })
      .where(eq(users.id, u.user.id));
    for (let i = 0; i < 6; i++) {
      const q = await addQuestion(db, u.user.id, {
        category: i % 2 ? "Neuroscience" : "Mood Disorders",
      });
      if (i < 4) {
        await db.insert(studyStates).values({
          userId: u.user.id,
          questionId: q.id,
          intervalDays: 3 + i,
          dueAt: new Date(NOW.getTime() + i * DAY),
          lastReviewedAt: new Date(NOW.getTime() - 3 * DAY),
          stability: 3 + i,
          fsrsDifficulty: 5,
        });
      }
    }
    const key = planReadKey(u.user.id, []);
    const first = await getPlan(db, u.user.id, NOW);
    expect(first.bank).toEqual({ total: 6, unseen: 2 });
    const kept = cache.get(key, await userVersion(db, u.user.id), NOW.getTime());
    expect(kept?.cards).toHaveLength(4);

    // Later the same day and the next day: the kept read answers, the forecast is computed at the time.
    const later = new Date(NOW.getTime() + DAY + 3_600_000);
    expect(await getPlan(db, u.user.id, later)).toEqual(await uncached(db, u.user.id, later));
    expect(await getPlan(db, u.user.id, NOW)).toEqual(first);
    expect(cache.get(key, await userVersion(db, u.user.id), NOW.getTime())).toBe(kept);

    // A question of their own, a public one of someone else's, a new state, a changed category.
    await addQuestion(db, u.user.id, { category: "Neuroscience" });
    expect((await getPlan(db, u.user.id, NOW)).bank).toEqual({ total: 7, unseen: 3 });
    const pub = await addQuestion(db, other.user.id, { category: "Neuroscience", isPublic: true });
    expect((await getPlan(db, u.user.id, NOW)).bank).toEqual({ total: 8, unseen: 4 });
    await db.insert(studyStates).values({
      userId: u.user.id,
      questionId: pub.id,
      intervalDays: 2,
      dueAt: NOW,
      lastReviewedAt: new Date(NOW.getTime() - 2 * DAY),
      stability: 2,
      fsrsDifficulty: 6,
    });
    expect((await getPlan(db, u.user.id, NOW)).bank).toEqual({ total: 8, unseen: 3 });
    await db.update(questions).set({ category: "Sleep" }).where(eq(questions.id, pub.id));
    const changed = await getPlan(db, u.user.id, NOW);
    expect(Object.keys(changed.recallByCategory)).toContain("Sleep");
    expect(changed).toEqual(await uncached(db, u.user.id, NOW));

    // Plan categories are part of the key.
    await db
      .update(users)
      .set({ planCategories: ["Sleep"] })
      .where(eq(users.id, u.user.id));
    expect((await getPlan(db, u.user.id, NOW)).bank).toEqual({ total: 1, unseen: 0 });
    expect(cache.has(planReadKey(u.user.id, ["Sleep"]))).toBe(true);
  });
});
