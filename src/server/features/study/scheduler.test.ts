import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Difficulty } from "../../../core/constants";
import { DEFAULT_FSRS_PARAMETERS, isValidParameters } from "../../../core/srs/fsrs";
import { replayReviews } from "../../../core/srs/replay";
import { SM2_SETTINGS } from "../../../core/srs/schedule";
import { reviews, studyStates, users } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { schedulerSettings } from "./study.service";
import { addQuestion } from "./test-fixtures";

/** Issue 19: switching schedulers replays the review log; optimizing fits FSRS to it. */
let h: Harness;
let me: TestUser;
const DAY = 86_400_000;
const CARDS = 50;
const T0 = Date.parse("2024-01-01T09:00:00Z");

let seed = 7;
const rnd = () => {
  seed = (seed * 16_807) % 2_147_483_647;
  return seed / 2_147_483_647;
};

/** A long synthetic history: CARDS cards, each reviewed ~12 times over a year under SM-2. */
async function syntheticHistory(userId: string) {
  await h.db.db.update(users).set({ scheduler: "sm2" }).where(eq(users.id, userId));
  let total = 0;
  for (let c = 0; c < CARDS; c++) {
    const q = await addQuestion(h.db.db, userId);
    const log: { isCorrect: boolean; difficulty: Difficulty | null; reviewedAt: Date }[] = [];
    let t = T0 + c * 3_600_000;
    let interval = 1;
    for (let k = 0; k < 12; k++) {
      const recall = Math.exp(-interval / (10 + 8 * k));
      // Every card begins alike (Good, back 2 days later), as FSRS needs to fit (issue 31).
      const isCorrect = k === 0 || rnd() < recall + 0.25;
      const difficulty = k === 0 ? 1 : isCorrect ? (Math.floor(rnd() * 3) as Difficulty) : 1;
      log.push({ isCorrect, difficulty, reviewedAt: new Date(t) });
      interval = isCorrect ? Math.max(1, Math.round(interval * 2.2)) : 1;
      t += interval * DAY + Math.floor(rnd() * 6) * 3_600_000;
    }
    await h.db.db.insert(reviews).values(
      log.map((r) => ({
        userId,
        questionId: q.id,
        isCorrect: r.isCorrect,
        difficulty: r.difficulty,
        reviewedAt: r.reviewedAt,
      })),
    );
    const s = replayReviews(log);
    await h.db.db.insert(studyStates).values({ userId, questionId: q.id, ...s });
    total += log.length;
  }
  return total;
}

async function states(userId: string) {
  return h.db.db
    .select()
    .from(studyStates)
    .where(eq(studyStates.userId, userId))
    .orderBy(asc(studyStates.questionId));
}

async function logOf(userId: string, questionId: string) {
  const rows = await h.db.db
    .select()
    .from(reviews)
    .where(and(eq(reviews.userId, userId), eq(reviews.questionId, questionId)))
    .orderBy(asc(reviews.reviewedAt), asc(reviews.id));
  return rows.map((r) => ({ ...r, difficulty: r.difficulty as Difficulty | null }));
}

let reviewTotal = 0;
beforeAll(async () => {
  h = await createHarness();
  me = await h.user();
  reviewTotal = await syntheticHistory(me.user.id);
}, 120_000);
afterAll(async () => {
  await h.close();
});

describe("scheduler settings (issue 19)", () => {
  it("new accounts schedule with FSRS at 0.90; the migration keeps SM-2 for existing ones", async () => {
    const fresh = await h.user();
    expect(await fresh.caller.study.scheduler()).toMatchObject({
      scheduler: "fsrs",
      desiredRetention: 0.9,
      customParameters: false,
      canOptimize: false,
    });
  });

  it("refuses a retention outside 0.70-0.97 with the product's words", async () => {
    await expect(me.caller.study.updateScheduler({ desiredRetention: 0.99 })).rejects.toThrow(
      "Desired retention must be between 0.70 and 0.97",
    );
  });

  it("switching to FSRS replays every card's log; switching back gives the SM-2 states again", async () => {
    const sm2Before = await states(me.user.id);
    expect(sm2Before).toHaveLength(CARDS);
    expect(sm2Before.every((s) => s.stability === null)).toBe(true);

    const res = await me.caller.study.updateScheduler({ scheduler: "fsrs" });
    expect(res).toMatchObject({ scheduler: "fsrs", rescheduled: CARDS, reviewCount: reviewTotal });
    const fsrsStates = await states(me.user.id);
    const settings = await schedulerSettings(h.db.db, me.user.id);
    for (const row of fsrsStates) {
      // No card resets to new: every one keeps a due date, a review time and an FSRS memory state.
      expect(row.dueAt).not.toBeNull();
      expect(row.stability).toBeGreaterThan(0);
      const expected = replayReviews(await logOf(me.user.id, row.questionId), settings);
      expect(row.intervalDays).toBe(expected.intervalDays);
      expect(row.dueAt!.getTime()).toBe(expected.dueAt!.getTime());
      expect(row.stability).toBeCloseTo(expected.stability!, 9);
      // "Mastered" follows the same ease under both schedulers (decision 130).
      const before = sm2Before.find((s) => s.questionId === row.questionId)!;
      expect(row.easeFactor).toBe(before.easeFactor);
    }
    expect(fsrsStates.some((s, i) => s.intervalDays !== sm2Before[i]!.intervalDays)).toBe(true);

    // Back to SM-2 over HTTP: the same states as before the round trip.
    const app = await h.app();
    const http = await app.inject({
      method: "POST",
      url: "/trpc/study.updateScheduler",
      headers: { ...me.headers, "content-type": "application/json" },
      payload: { scheduler: "sm2" },
    });
    expect(http.statusCode).toBe(200);
    const back = await states(me.user.id);
    expect(back.map(({ pendingReviewId: _p, ...s }) => s)).toEqual(
      sm2Before.map(({ pendingReviewId: _p, ...s }) => s),
    );
  }, 120_000);

  it("the next interval per rating changes with the scheduler", async () => {
    const q = await addQuestion(h.db.db, me.user.id);
    await me.caller.study.updateScheduler({ scheduler: "sm2" });
    const a = await me.caller.study.answer({ questionId: q.id, selected: ["B"], timeSpentMs: 1 });
    expect(a).toMatchObject({ scheduler: "sm2", nextIntervals: { hard: 1, good: 1, easy: 1 } });
    await me.caller.study.rate({ questionId: q.id, difficulty: 1 });
    await me.caller.study.updateScheduler({ scheduler: "fsrs" });
    const b = await me.caller.study.answer({ questionId: q.id, selected: ["B"], timeSpentMs: 1 });
    expect(b.scheduler).toBe("fsrs");
    expect(b.nextIntervals.easy).toBeGreaterThan(b.nextIntervals.hard);
    const rated = await me.caller.study.rate({ questionId: q.id, difficulty: 2 });
    expect(rated).toBeTruthy();
    const [row] = await h.db.db
      .select()
      .from(studyStates)
      .where(and(eq(studyStates.userId, me.user.id), eq(studyStates.questionId, q.id)));
    expect(row!.intervalDays).toBe(b.nextIntervals.easy);
    expect(row!.stability).toBeGreaterThan(0);
  });

  it("optimizes from 400 reviews: parameters validated, stored, log loss and RMSE before and after", async () => {
    const fresh = await h.user();
    await expect(fresh.caller.study.optimize()).rejects.toThrow("at least 400 reviews");
    const res = await me.caller.study.optimize();
    expect(res.reviewCount).toBeGreaterThanOrEqual(400);
    expect(isValidParameters(res.parameters)).toBe(true);
    expect(res.after.logLoss).toBeGreaterThan(0);
    expect(res.after.logLoss).toBeLessThanOrEqual(res.before.logLoss + 1e-6);
    expect(res.before.rmse).toBeGreaterThan(0);
    const settings = await me.caller.study.scheduler();
    expect(settings.customParameters).toBe(true);
    expect(settings.parameters).toEqual(res.parameters.map((p) => expect.closeTo(p, 9)));
  }, 120_000);
});

/**
 * 400 reviews of which only `repeats` come back to a question on a later day: the rest are answers
 * given again within the same day, which FSRS does not fit to.
 */
async function fewRepeats(userId: string, repeats: number) {
  for (let c = 0; c < repeats; c++) {
    const q = await addQuestion(h.db.db, userId);
    const sameDay = Array.from({ length: 400 / repeats - 1 }, (_, k) => ({
      userId,
      questionId: q.id,
      isCorrect: k % 3 !== 0,
      difficulty: 1,
      reviewedAt: new Date(T0 + c * 3_600_000 + k * 60_000),
    }));
    const later = {
      ...sameDay[0]!,
      isCorrect: true,
      reviewedAt: new Date(T0 + c * 3_600_000 + 3 * DAY),
    };
    await h.db.db.insert(reviews).values([...sameDay, later]);
  }
}

// Issue 31: with too few repeated reviews the optimizer returns FSRS's defaults; that is no fit.
describe("optimizing with too few repeated reviews", () => {
  it("says it kept the default parameters and why, and stores nothing", async () => {
    const user = await h.user();
    await fewRepeats(user.user.id, 10);
    const res = await user.caller.study.optimize();
    const settings = await user.caller.study.scheduler();
    expect(settings.customParameters).toBe(false);
    expect(settings.parameters).toBeNull();
    expect(res.keptDefaults).toBe(
      "Kept the default parameters: FSRS fits to questions answered again on a later day, and needs at least 20 that began alike (the same first rating, and 6 or more with the same wait in days). You have 10 such questions, at most 10 with the same first rating. Keep studying and optimize again later.",
    );
    expect(res.parameters).toEqual(DEFAULT_FSRS_PARAMETERS);
    expect(res.after).toEqual(res.defaults);
    expect(res.rescheduled).toBe(0);
  }, 120_000);

  it("keeps parameters fitted earlier in use, untouched", async () => {
    const user = await h.user();
    await fewRepeats(user.user.id, 8);
    const earlier = DEFAULT_FSRS_PARAMETERS.map((p, i) => (i < 4 ? p * 2 : p));
    await h.db.db.update(users).set({ fsrsParameters: earlier }).where(eq(users.id, user.user.id));
    const res = await user.caller.study.optimize();
    expect(res.keptDefaults).toContain(
      "You have 8 such questions, at most 8 with the same first rating.",
    );
    expect(res.parameters).toEqual(earlier.map((p) => expect.closeTo(p, 9)));
    expect(res.after).toEqual(res.before);
    const settings = await user.caller.study.scheduler();
    expect(settings.customParameters).toBe(true);
    expect(settings.parameters).toEqual(earlier.map((p) => expect.closeTo(p, 9)));
  }, 120_000);

  it("a real fit says nothing of the kind", async () => {
    const res = await me.caller.study.optimize();
    expect(res.keptDefaults).toBeNull();
    expect(res.parameters).not.toEqual(DEFAULT_FSRS_PARAMETERS.map((p) => expect.closeTo(p, 4)));
  }, 120_000);
});

describe("replay is SM-2 by default", () => {
  it("keeps the SM-2 settings when none are given", () => {
    expect(SM2_SETTINGS.scheduler).toBe("sm2");
  });
});
