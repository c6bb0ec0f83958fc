import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Difficulty } from "../../../core/constants";
import { answerState, rateState } from "../../../core/srs/schedule";
import { DEFAULT_FSRS_SETTINGS } from "../../../core/srs/fsrs";
import { questions, reviews, studyStates, users } from "../../db/schema";
import { questionJsonById } from "../questions/question-access";
import { createHarness, type Harness } from "../../test/harness";
import { keptRatings, readLive, writeLiveAnswer, writeLiveRating } from "./study-writer-live";
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

describe("a rating after the user's own live answer (decision 427)", () => {
  const now = new Date("2026-04-01T12:00:00Z");

  /** A public question of another user with a public profile, answered right by a new SM-2 user. */
  async function answered() {
    const author = await h.user();
    await h.db.db.update(users).set({ publicProfile: true }).where(eq(users.id, author.user.id));
    const me = await h.user();
    await h.db.db.update(users).set({ scheduler: "sm2" }).where(eq(users.id, me.user.id));
    const q = await addQuestion(h.db.db, author.user.id, { isPublic: true });
    await recordAnswer(h.db.db, {
      userId: me.user.id,
      now,
      input: { questionId: q.id, selected: ["B"], timeSpentMs: 3000 },
    });
    const afterAnswer = (await studyStateOf(h.db.db, me.user.id, q.id))!;
    return { author, me, q, afterAnswer };
  }

  const rate = (userId: string, questionId: string, difficulty: Difficulty = 2) =>
    rateQuestion(h.db.db, { userId, now, questionId, difficulty });

  const fresh = async (userId: string, questionId: string) =>
    (await questionJsonById(h.db.db, userId, [questionId])).get(questionId);

  it("rates from what the answer kept, in one statement, as a fresh read would", async () => {
    const { me, q, afterAnswer } = await answered();
    const taken = keptRatings.count;
    const rated = await rate(me.user.id, q.id, 1);
    expect(keptRatings.count).toBe(taken + 1);
    const expected = rateState(toState(afterAnswer), 1, now, {
      ...DEFAULT_FSRS_SETTINGS,
      scheduler: "sm2",
    });
    const state = await studyStateOf(h.db.db, me.user.id, q.id);
    expect(state).toMatchObject({
      pendingReviewId: null,
      repetitions: expected.repetitions,
      intervalDays: expected.intervalDays,
      easeFactor: expected.easeFactor,
      dueAt: expected.dueAt,
    });
    expect(rated).toEqual(await fresh(me.user.id, q.id));
    const [review] = await h.db.db
      .select()
      .from(reviews)
      .where(eq(reviews.id, afterAnswer.pendingReviewId!));
    expect(review?.difficulty).toBe(1);
    // Used once: rating again reads.
    await rate(me.user.id, q.id, 2);
    expect(keptRatings.count).toBe(taken + 1);
  });

  it("shows the creator's new name and images as they are at the rating", async () => {
    const { author, me, q } = await answered();
    await h.db.db
      .update(users)
      .set({ username: `renamed${Date.now()}` })
      .where(eq(users.id, author.user.id));
    const taken = keptRatings.count;
    const rated = await rate(me.user.id, q.id);
    expect(keptRatings.count).toBe(taken + 1);
    expect(rated.contributor).toMatch(/^renamed/);
    expect(rated).toEqual(await fresh(me.user.id, q.id));
  });

  it("reads again when the user's settings changed after the answer, and schedules with the new ones", async () => {
    const { me, q } = await answered();
    await h.db.db.update(users).set({ scheduler: "fsrs" }).where(eq(users.id, me.user.id));
    const taken = keptRatings.count;
    const rated = await rate(me.user.id, q.id);
    expect(keptRatings.count).toBe(taken);
    const state = await studyStateOf(h.db.db, me.user.id, q.id);
    expect(state?.stability).not.toBeNull();
    expect(state?.pendingReviewId).toBeNull();
    expect(rated).toEqual(await fresh(me.user.id, q.id));
  });

  it("reads again when the question was edited after the answer, and answers with the edit", async () => {
    const { me, q } = await answered();
    await h.db.db
      .update(questions)
      .set({ text: "Edited after the answer?" })
      .where(eq(questions.id, q.id));
    const taken = keptRatings.count;
    const rated = await rate(me.user.id, q.id);
    expect(keptRatings.count).toBe(taken);
    expect(rated.text).toBe("Edited after the answer?");
  });

  it("refuses in the product's words when the question stopped being visible after the answer", async () => {
    const { me, q } = await answered();
    await h.db.db.update(questions).set({ isPublic: false }).where(eq(questions.id, q.id));
    const before = await studyStateOf(h.db.db, me.user.id, q.id);
    const taken = keptRatings.count;
    await expect(rate(me.user.id, q.id)).rejects.toThrow("Question not found");
    expect(keptRatings.count).toBe(taken);
    expect(await studyStateOf(h.db.db, me.user.id, q.id)).toEqual(before);
  });

  it("leaves a state another write changed after the answer to that write's outcome", async () => {
    const { me, q, afterAnswer } = await answered();
    // Another process's write: the pending answer is gone and the card was moved.
    const moved = new Date("2026-05-01T00:00:00Z");
    await h.db.db
      .update(studyStates)
      .set({ pendingReviewId: null, dueAt: moved })
      .where(and(eq(studyStates.userId, me.user.id), eq(studyStates.questionId, q.id)));
    const taken = keptRatings.count;
    await rate(me.user.id, q.id, 0);
    expect(keptRatings.count).toBe(taken);
    // With no answer pending the rating schedules from the moved state (decision 020), and the
    // answer's review keeps no difficulty.
    const state = await studyStateOf(h.db.db, me.user.id, q.id);
    expect(state?.dueAt?.getTime()).not.toBe(afterAnswer.dueAt?.getTime());
    const [review] = await h.db.db
      .select()
      .from(reviews)
      .where(eq(reviews.id, afterAnswer.pendingReviewId!));
    expect(review?.difficulty).toBeNull();
  });

  it("keeps only the latest answer: rating an earlier question reads it", async () => {
    const { me, q, author } = await answered();
    const second = await addQuestion(h.db.db, author.user.id, { isPublic: true });
    await recordAnswer(h.db.db, {
      userId: me.user.id,
      now,
      input: { questionId: second.id, selected: ["A"], timeSpentMs: 2000 },
    });
    const taken = keptRatings.count;
    const first = await rate(me.user.id, q.id);
    expect(keptRatings.count).toBe(taken);
    expect(first).toEqual(await fresh(me.user.id, q.id));
    await rate(me.user.id, second.id);
    expect(keptRatings.count).toBe(taken + 1);
  });
});
