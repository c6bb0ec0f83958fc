import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerState } from "../../../core/srs/schedule";
import { reviews, users } from "../../db/schema";
import { createHarness, type Harness } from "../../test/harness";
import { readLive, writeLiveAnswer, writeLiveRating } from "./study-writer-live";
import { toState } from "./study-writer-context";
import { rateQuestion, recordAnswer } from "./study-writer.service";
import { addQuestion, studyStateOf } from "./test-fixtures";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const reviewCount = async (userId: string, questionId: string) =>
  (
    await h.db.db
      .select({ id: reviews.id })
      .from(reviews)
      .where(and(eq(reviews.userId, userId), eq(reviews.questionId, questionId)))
  ).length;

describe("the study writer's live path (decision 398)", () => {
  it("answers and rates as the locking transaction does, one review per answer", async () => {
    const me = await h.user();
    await h.db.db.update(users).set({ scheduler: "sm2" }).where(eq(users.id, me.user.id));
    const q = await addQuestion(h.db.db, me.user.id);
    const now = new Date("2026-03-01T12:00:00Z");
    const answer = await recordAnswer(h.db.db, {
      userId: me.user.id,
      now,
      input: { questionId: q.id, selected: ["B"], timeSpentMs: 4000 },
    });
    expect(answer.isCorrect).toBe(true);
    expect(answer.question.studyData[0]?.repetitions).toBe(0);
    const pending = await studyStateOf(h.db.db, me.user.id, q.id);
    expect(pending?.pendingReviewId).toBe(answer.reviewId);
    expect(pending?.introducedAt?.toISOString()).toBe(now.toISOString());
    const rated = await rateQuestion(h.db.db, {
      userId: me.user.id,
      now,
      questionId: q.id,
      difficulty: 1,
    });
    const after = await studyStateOf(h.db.db, me.user.id, q.id);
    expect(after?.pendingReviewId).toBeNull();
    expect(after?.repetitions).toBe(1);
    expect(rated.studyData[0]?.repetitions).toBe(1);
    const [review] = await h.db.db.select().from(reviews).where(eq(reviews.id, answer.reviewId));
    expect(review).toMatchObject({ difficulty: 1, isCorrect: true, selected: ["B"] });
    expect(await reviewCount(me.user.id, q.id)).toBe(1);
  });

  it("writes nothing when the state changed after it was read, and leaves that to the transaction", async () => {
    const me = await h.user();
    const q = await addQuestion(h.db.db, me.user.id);
    const now = new Date("2026-03-02T12:00:00Z");
    await recordAnswer(h.db.db, {
      userId: me.user.id,
      now,
      input: { questionId: q.id, selected: ["A"], timeSpentMs: 1000 },
    });
    // Read, then another write reaches the state first (the rating), then the stale write.
    const read = await readLive(h.db.db, { userId: me.user.id, questionId: q.id });
    expect(read).toBeTruthy();
    await rateQuestion(h.db.db, { userId: me.user.id, now, questionId: q.id, difficulty: 0 });
    const before = await studyStateOf(h.db.db, me.user.id, q.id);
    const stale = await writeLiveAnswer(h.db.db, read!, {
      userId: me.user.id,
      after: answerState(toState(read!.state!), false, now, read!.context.settings),
      now,
      review: { isCorrect: false, selected: "{A}", timeSpentMs: 1000 },
    });
    expect(stale).toBeNull();
    const rating = await writeLiveRating(h.db.db, read!, {
      userId: me.user.id,
      next: toState(read!.state!),
      difficulty: 2,
    });
    expect(rating).toBeNull();
    expect(await studyStateOf(h.db.db, me.user.id, q.id)).toEqual(before);
    expect(await reviewCount(me.user.id, q.id)).toBe(1);

    // A never-studied question that gained a state after the read is not overwritten either.
    const fresh = await addQuestion(h.db.db, me.user.id);
    const none = await readLive(h.db.db, { userId: me.user.id, questionId: fresh.id });
    expect(none?.state).toBeNull();
    await recordAnswer(h.db.db, {
      userId: me.user.id,
      now,
      input: { questionId: fresh.id, selected: ["B"], timeSpentMs: 1000 },
    });
    const written = await studyStateOf(h.db.db, me.user.id, fresh.id);
    const late = await writeLiveAnswer(h.db.db, none!, {
      userId: me.user.id,
      after: answerState(toState(undefined), false, now, none!.context.settings),
      now,
      review: { isCorrect: false, selected: "{A}", timeSpentMs: 1000 },
    });
    expect(late).toBeNull();
    expect(await studyStateOf(h.db.db, me.user.id, fresh.id)).toEqual(written);
    expect(await reviewCount(me.user.id, fresh.id)).toBe(1);
  });

  it("declines another user's private question, so the transaction refuses it in its own words", async () => {
    const owner = await h.user();
    const other = await h.user();
    const q = await addQuestion(h.db.db, owner.user.id);
    expect(await readLive(h.db.db, { userId: other.user.id, questionId: q.id })).toBeNull();
    await expect(
      recordAnswer(h.db.db, {
        userId: other.user.id,
        now: new Date(),
        input: { questionId: q.id, selected: ["B"], timeSpentMs: 1000 },
      }),
    ).rejects.toThrow("Question not found");
  });
});
