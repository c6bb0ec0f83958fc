import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reviews, users } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { NOT_A_FLASHCARD } from "./flashcard.service";
import { FLASHCARD_IS_RATED } from "./study.service";
import { addFlashcard, addQuestion, studyStateOf } from "./test-fixtures";

/**
 * Studying flashcards (issue 17, decision 235) through the procedures (createCaller) and HTTP, on
 * whichever database the suite runs on: a flashcard is due, rated, rescheduled and counted like any
 * review; Again counts as incorrect; a rating made offline syncs exactly once.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const DAY = 86_400_000;

async function userWith(scheduler: "sm2" | "fsrs") {
  const me = await h.user();
  await h.db.db.update(users).set({ scheduler }).where(eq(users.id, me.user.id));
  return me;
}

const stateOf = (userId: string, questionId: string) => studyStateOf(h.db.db, userId, questionId);

async function reviewsOf(userId: string, questionId: string) {
  return h.db.db
    .select()
    .from(reviews)
    .where(and(eq(reviews.userId, userId), eq(reviews.questionId, questionId)))
    .orderBy(reviews.id);
}

async function rest(method: "GET" | "POST", url: string, user: TestUser, body?: unknown) {
  const app = await h.app();
  return app.inject({ method, url, payload: body as object, headers: user.headers });
}

async function dueIds(me: TestUser) {
  return (await me.caller.study.due()).questions.map((q) => q._id);
}

describe("a flashcard in the study queue", () => {
  it("is due, rated Good, rescheduled by SM-2 and counted in the dashboard's totals and categories", async () => {
    const me = await userWith("sm2");
    const card = await addFlashcard(h.db.db, me.user.id, { category: "Psychopharmacology" });
    const due = await me.caller.study.due();
    expect(due.questions.map((q) => [q._id, q.questionType])).toEqual([[card.id, "flashcard"]]);

    const { session } = await me.caller.study.startSession();
    const preview = await me.caller.study.nextIntervals({ questionId: card.id });
    expect(preview).toEqual({
      scheduler: "sm2",
      nextIntervals: { again: 1, hard: 1, good: 1, easy: 1 },
    });
    const before = Date.now();
    const result = await me.caller.study.rateFlashcard({
      questionId: card.id,
      rating: "good",
      timeSpentMs: 7_000,
      sessionId: session!.id,
    });
    expect(result).toMatchObject({
      rating: "good",
      isCorrect: true,
      scheduler: "sm2",
      nextIntervals: preview.nextIntervals,
    });
    expect(result.question.studyData[0]).toMatchObject({
      easeFactor: 2.5,
      interval: 1,
      repetitions: 1,
      lapses: 0,
    });

    const [review] = await reviewsOf(me.user.id, card.id);
    expect(review).toMatchObject({
      isCorrect: true,
      difficulty: 1,
      selected: [],
      timeSpentMs: 7_000,
      sessionId: session!.id,
      category: "Psychopharmacology",
    });
    const state = await stateOf(me.user.id, card.id);
    expect(state).toMatchObject({ intervalDays: 1, repetitions: 1, pendingReviewId: null });
    expect(state!.dueAt!.getTime()).toBeGreaterThanOrEqual(before + DAY);
    expect(await dueIds(me)).toEqual([]);

    // A second review six days on: Easy gives SM-2's second interval and raises the ease.
    const later = await h.callerFor(me.user, { now: () => new Date(Date.now() + 6 * DAY) });
    expect(await later.study.due()).toMatchObject({ total: 1 });
    const easy = await later.study.rateFlashcard({ questionId: card.id, rating: "easy" });
    expect(easy.question.studyData[0]).toMatchObject({ easeFactor: 2.6, interval: 6 });

    const s = await me.caller.stats.summary();
    expect(s).toMatchObject({ totalStudied: 2, correctAnswers: 2, incorrectAnswers: 0 });
    expect(s.categoryPerformance).toMatchObject({
      Psychopharmacology: { total: 2, correct: 2, accuracy: 100 },
    });
    expect(s.categoryProgress).toContainEqual(
      expect.objectContaining({ name: "Psychopharmacology", total: 1, due: 0, accuracy: 100 }),
    );
  });

  it("Again is an incorrect review: a lapse, due tomorrow, counted incorrect", async () => {
    const me = await userWith("sm2");
    const card = await addFlashcard(h.db.db, me.user.id, { category: "Ethics" });
    await me.caller.study.rateFlashcard({ questionId: card.id, rating: "good" });
    const later = await h.callerFor(me.user, { now: () => new Date(Date.now() + DAY) });
    const again = await later.study.rateFlashcard({ questionId: card.id, rating: "again" });
    expect(again.isCorrect).toBe(false);
    expect(again.question.studyData[0]).toMatchObject({
      easeFactor: 2.3,
      interval: 1,
      repetitions: 0,
      lapses: 1,
    });
    const log = await reviewsOf(me.user.id, card.id);
    expect(log.map((r) => [r.isCorrect, r.difficulty])).toEqual([
      [true, 1],
      [false, null],
    ]);
    const s = await me.caller.stats.summary();
    expect(s).toMatchObject({ totalStudied: 2, correctAnswers: 1, incorrectAnswers: 1 });
    expect(s.categoryPerformance).toMatchObject({ Ethics: { total: 2, correct: 1, accuracy: 50 } });
    expect(s.recentPerformance[0]).toMatchObject({ category: "Ethics", isCorrect: false });
  });

  it("under FSRS each button's interval is what its rating schedules", async () => {
    const me = await userWith("fsrs");
    const card = await addFlashcard(h.db.db, me.user.id);
    await me.caller.study.rateFlashcard({ questionId: card.id, rating: "good" });
    const at = new Date(Date.now() + 4 * DAY);
    const later = await h.callerFor(me.user, { now: () => at });
    const { nextIntervals } = await later.study.nextIntervals({ questionId: card.id });
    expect(nextIntervals.again).toBeLessThan(nextIntervals.easy);
    const hard = await later.study.rateFlashcard({ questionId: card.id, rating: "hard" });
    expect(hard.scheduler).toBe("fsrs");
    const state = await stateOf(me.user.id, card.id);
    expect(state!.intervalDays).toBe(nextIntervals.hard);
    expect(state!.stability).toBeGreaterThan(0);
    expect(state!.dueAt!.getTime()).toBe(at.getTime() + nextIntervals.hard * DAY);
  });

  it("is rated, not answered; a multiple-choice question is answered, not rated as a flashcard", async () => {
    const me = await h.user();
    const card = await addFlashcard(h.db.db, me.user.id);
    const mcq = await addQuestion(h.db.db, me.user.id);
    await expect(
      me.caller.study.answer({ questionId: card.id, selected: ["A"], timeSpentMs: 1 }),
    ).rejects.toThrow(FLASHCARD_IS_RATED);
    await expect(me.caller.study.rate({ questionId: card.id, difficulty: 1 })).rejects.toThrow(
      FLASHCARD_IS_RATED,
    );
    await expect(
      me.caller.study.rateFlashcard({ questionId: mcq.id, rating: "good" }),
    ).rejects.toThrow(NOT_A_FLASHCARD);
    expect(await reviewsOf(me.user.id, card.id)).toEqual([]);
    expect(await reviewsOf(me.user.id, mcq.id)).toEqual([]);
  });

  it("is in the offline copy with the rest of the due list", async () => {
    const me = await h.user();
    const card = await addFlashcard(h.db.db, me.user.id);
    const mcq = await addQuestion(h.db.db, me.user.id);
    const copy = await me.caller.study.offlineCopy();
    expect(copy.questions.map((q) => q._id).sort()).toEqual([card.id, mcq.id].sort());
  });
});

describe("REST: POST /api/questions/:id/flashcard-rating, GET /api/questions/:id/next-intervals", () => {
  it("rates a flashcard, refuses a rating that is not one of the four, and 404s another's private card", async () => {
    const me = await userWith("sm2");
    const other = await h.user();
    const card = await addFlashcard(h.db.db, me.user.id);
    const preview = await rest("GET", `/api/questions/${card.id}/next-intervals`, me);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({
      scheduler: "sm2",
      nextIntervals: { again: 1, hard: 1, good: 1, easy: 1 },
    });

    const bad = await rest("POST", `/api/questions/${card.id}/flashcard-rating`, me, {
      rating: "perfect",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("Rating must be again, hard, good or easy");

    const res = await rest("POST", `/api/questions/${card.id}/flashcard-rating`, me, {
      rating: "again",
      timeSpentMs: 3_000,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      isCorrect: false,
      question: { _id: card.id, studyData: [{ lapses: 1, interval: 1 }] },
    });

    const theirs = await rest("POST", `/api/questions/${card.id}/flashcard-rating`, other, {
      rating: "good",
    });
    expect(theirs.statusCode).toBe(404);
    expect(await reviewsOf(other.user.id, card.id)).toEqual([]);
    expect(await reviewsOf(me.user.id, card.id)).toHaveLength(1);
  });
});

describe("a flashcard rated offline (study.sync)", () => {
  const hoursAgo = (n: number) => new Date(Date.now() - n * 3_600_000).toISOString();

  it("syncs once, replays in the order given, and counts in the stats; resending is a duplicate", async () => {
    const me = await userWith("sm2");
    const card = await addFlashcard(h.db.db, me.user.id, { category: "Neuroscience" });
    const batch = {
      reviews: [
        {
          id: crypto.randomUUID(),
          questionId: card.id,
          rating: "good" as const,
          timeSpentMs: 4_000,
          reviewedAt: hoursAgo(30),
        },
        {
          id: crypto.randomUUID(),
          questionId: card.id,
          rating: "again" as const,
          timeSpentMs: 5_000,
          reviewedAt: hoursAgo(2),
        },
      ],
    };
    const first = await me.caller.study.sync(batch);
    expect(first).toMatchObject({ applied: 2, duplicates: 0, refused: 0 });
    const log = await reviewsOf(me.user.id, card.id);
    expect(log.map((r) => [r.isCorrect, r.difficulty, r.selected])).toEqual([
      [true, 1, []],
      [false, null, []],
    ]);
    // Good then Again: one success, then a lapse from the later time.
    const state = await stateOf(me.user.id, card.id);
    expect(state).toMatchObject({ easeFactor: 2.3, intervalDays: 1, repetitions: 0, lapses: 1 });
    expect(state!.dueAt!.toISOString()).toBe(
      new Date(Date.parse(batch.reviews[1]!.reviewedAt) + DAY).toISOString(),
    );

    const again = await me.caller.study.sync(batch);
    expect(again).toMatchObject({ applied: 0, duplicates: 2, refused: 0 });
    expect(await reviewsOf(me.user.id, card.id)).toHaveLength(2);

    const s = await me.caller.stats.summary();
    expect(s).toMatchObject({ totalStudied: 2, correctAnswers: 1, incorrectAnswers: 1 });
  });

  it("refuses a flashcard sent without a rating and a rating sent for a multiple-choice question", async () => {
    const me = await h.user();
    const card = await addFlashcard(h.db.db, me.user.id);
    const mcq = await addQuestion(h.db.db, me.user.id);
    const res = await rest("POST", "/api/study/sync", me, {
      reviews: [
        {
          id: crypto.randomUUID(),
          questionId: card.id,
          selected: ["A"],
          timeSpentMs: 1,
          reviewedAt: hoursAgo(1),
        },
        {
          id: crypto.randomUUID(),
          questionId: mcq.id,
          rating: "easy",
          timeSpentMs: 1,
          reviewedAt: hoursAgo(1),
        },
        {
          id: crypto.randomUUID(),
          questionId: card.id,
          rating: "easy",
          timeSpentMs: 1,
          reviewedAt: hoursAgo(1),
        },
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { results: { status: string; reason?: string }[] };
    expect(body.results.map((r) => [r.status, r.reason])).toEqual([
      ["refused", FLASHCARD_IS_RATED],
      ["refused", NOT_A_FLASHCARD],
      ["applied", undefined],
    ]);
    expect(await reviewsOf(me.user.id, mcq.id)).toEqual([]);
    expect((await reviewsOf(me.user.id, card.id)).map((r) => r.difficulty)).toEqual([2]);
  });

  it("refuses a batch entry with neither a selection nor a rating (400, nothing stored)", async () => {
    const me = await h.user();
    const card = await addFlashcard(h.db.db, me.user.id);
    const res = await rest("POST", "/api/study/sync", me, {
      reviews: [
        { id: crypto.randomUUID(), questionId: card.id, timeSpentMs: 1, reviewedAt: hoursAgo(1) },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("Please select an answer");
    expect(await reviewsOf(me.user.id, card.id)).toEqual([]);
  });
});
