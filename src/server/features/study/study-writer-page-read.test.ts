import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_FSRS_PARAMETERS } from "../../../core/srs/fsrs";
import { media, questionMedia, questions, reviews, studyStates, users } from "../../db/schema";
import { questionJsonById } from "../questions/question-access";
import { createHarness, type Harness } from "../../test/harness";
import { enableDuePageCache, newDuePageCache } from "./due-page-cache";
import { listDueQuestions } from "./due-page.service";
import { takePageRead } from "./page-reads";
import { writerContextOf } from "./study-writer-context";
import { pageReadAnswers, readLive } from "./study-writer-live";
import { recordAnswer } from "./study-writer.service";
import { addQuestion, studyStateOf } from "./test-fixtures";

/*
 * The answer written from what the due page read (decision 430): the same read as the live path's own,
 * the same outcome, and the rows it read checked in the write.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  enableDuePageCache(h.db.db, newDuePageCache());
});
afterAll(async () => {
  await h.close();
});

const now = new Date("2026-08-03T14:00:00Z");
const HOUR = 3_600_000;

/**
 * An author with a public profile and a user who studies with FSRS toward an exam: a public question
 * with an image that the user has studied (due), and a never-studied multiple-answer one of the
 * author's, the newest public questions.
 */
async function world() {
  const author = await h.user();
  await h.db.db.update(users).set({ publicProfile: true }).where(eq(users.id, author.user.id));
  const me = await h.user();
  await h.db.db
    .update(users)
    .set({
      scheduler: "fsrs",
      fsrsParameters: [...DEFAULT_FSRS_PARAMETERS],
      desiredRetention: 0.85,
      examDate: "2026-10-10",
      timeZone: "America/Chicago",
      easyDays: [0, 6],
      loadBalance: true,
      newPerDay: 5,
    })
    .where(eq(users.id, me.user.id));
  const studied = await addQuestion(h.db.db, author.user.id, {
    isPublic: true,
    number: null,
    explanation: "Because.",
    createdAt: new Date("2025-01-01T00:00:00Z"),
  });
  const sha256 = `${Math.random().toString(16).slice(2, 10)}`.padEnd(64, "c");
  await h.db.db
    .insert(media)
    .values({ sha256, mimeType: "image/png", byteSize: 1, bytes: new Uint8Array([1]) });
  await h.db.db.insert(questionMedia).values({ questionId: studied.id, sha256 });
  await h.db.db.insert(studyStates).values({
    userId: me.user.id,
    questionId: studied.id,
    dueAt: new Date(now.getTime() - HOUR),
    lastReviewedAt: new Date(now.getTime() - 5 * 24 * HOUR),
    stability: 4.2,
    fsrsDifficulty: 5.1,
    repetitions: 2,
    intervalDays: 4,
    introducedAt: new Date("2026-01-01T00:00:00Z"),
  });
  const fresh = await addQuestion(h.db.db, author.user.id, {
    isPublic: true,
    questionType: "multipleCorrect",
    createdAt: new Date(now.getTime() - 2 * HOUR),
  });
  return { author, me, studied, fresh };
}

/** The user's due page through the server's path, which keeps what it read. */
const page = (userId: string) => listDueQuestions(h.db.db, { userId, now, limit: 20 });

const answer = (userId: string, questionId: string, selected: string[], sessionId?: string) =>
  recordAnswer(h.db.db, {
    userId,
    now,
    input: { questionId, selected: selected as never, timeSpentMs: 2500, sessionId },
  });

const freshJson = async (userId: string, questionId: string) =>
  (await questionJsonById(h.db.db, userId, [questionId])).get(questionId);

describe("an answer from the due page's read (decision 430)", () => {
  it("reads what the live path's own read reads, value for value", async () => {
    const { me, studied, fresh } = await world();
    const listed = await page(me.user.id);
    expect(listed.questions.map((q) => q._id)).toEqual(
      expect.arrayContaining([studied.id, fresh.id]),
    );
    for (const q of [studied, fresh]) {
      const kept = takePageRead(h.db.db, me.user.id, q.id)!;
      const own = (await readLive(h.db.db, { userId: me.user.id, questionId: q.id }))!;
      expect(kept.question).toEqual(own.question);
      expect(kept.state).toEqual(own.state);
      expect(kept.stateVersion).toBe(own.version);
      expect(kept.questionVersion).toBe(own.questionVersion);
      expect(kept.userVersion).toBe(own.userVersion);
      expect(writerContextOf(kept.user)).toEqual(own.context);
      // Taken once.
      expect(takePageRead(h.db.db, me.user.id, q.id)).toBeUndefined();
    }
  });

  it("answers in one statement with what a fresh read gives, the image and the creator's name included", async () => {
    const { author, me, studied, fresh } = await world();
    await page(me.user.id);
    await h.db.db
      .update(users)
      .set({ username: `renamed${Date.now()}` })
      .where(eq(users.id, author.user.id));
    const used = pageReadAnswers.count;
    const first = await answer(me.user.id, studied.id, ["B"]);
    const second = await answer(me.user.id, fresh.id, ["A", "C", "E"]);
    expect(pageReadAnswers.count).toBe(used + 2);
    expect(first.isCorrect).toBe(true);
    expect(second.isCorrect).toBe(true);
    expect(first.question).toEqual(await freshJson(me.user.id, studied.id));
    expect(first.question.contributor).toMatch(/^renamed/);
    expect(first.question.images).toHaveLength(1);
    expect(second.question).toEqual(await freshJson(me.user.id, fresh.id));
    const state = await studyStateOf(h.db.db, me.user.id, fresh.id);
    expect(state?.introducedAt?.toISOString()).toBe(now.toISOString());
    expect(state?.pendingReviewId).toBe(second.reviewId);
    const [review] = await h.db.db.select().from(reviews).where(eq(reviews.id, first.reviewId));
    expect(review).toMatchObject({ isCorrect: true, selected: ["B"], userId: me.user.id });
  });

  it("reads again when the user's settings changed after the page, and schedules with the new ones", async () => {
    const { me, fresh } = await world();
    await page(me.user.id);
    await h.db.db.update(users).set({ scheduler: "sm2" }).where(eq(users.id, me.user.id));
    const used = pageReadAnswers.count;
    const result = await answer(me.user.id, fresh.id, ["A", "C", "E"]);
    expect(pageReadAnswers.count).toBe(used);
    expect(result.scheduler).toBe("sm2");
    expect((await studyStateOf(h.db.db, me.user.id, fresh.id))?.stability).toBeNull();
  });

  it("judges by the key as it is when the question was edited after the page", async () => {
    const { me, studied } = await world();
    await page(me.user.id);
    await h.db.db
      .update(questions)
      .set({ correctAnswer: "A", correctAnswers: ["A"] })
      .where(eq(questions.id, studied.id));
    const used = pageReadAnswers.count;
    const result = await answer(me.user.id, studied.id, ["B"]);
    expect(pageReadAnswers.count).toBe(used);
    expect(result.isCorrect).toBe(false);
    expect(result.correctAnswer).toBe("A");
  });

  it("refuses in the product's words when the question stopped being visible after the page", async () => {
    const { me, fresh } = await world();
    await page(me.user.id);
    await h.db.db.update(questions).set({ isPublic: false }).where(eq(questions.id, fresh.id));
    await expect(answer(me.user.id, fresh.id, ["A"])).rejects.toThrow("Question not found");
    expect(await studyStateOf(h.db.db, me.user.id, fresh.id)).toBeUndefined();
  });

  it("leaves a state another write changed after the page to its own read", async () => {
    const { me, studied } = await world();
    await page(me.user.id);
    const moved = new Date("2026-08-01T00:00:00Z");
    await h.db.db
      .update(studyStates)
      .set({ repetitions: 7, dueAt: moved })
      .where(and(eq(studyStates.userId, me.user.id), eq(studyStates.questionId, studied.id)));
    const used = pageReadAnswers.count;
    await answer(me.user.id, studied.id, ["B"]);
    expect(pageReadAnswers.count).toBe(used);
    // Scheduled from the state as the other write left it.
    expect((await studyStateOf(h.db.db, me.user.id, studied.id))?.repetitions).toBe(7);
  });

  it("refuses another user's study session in the product's words", async () => {
    const { me, studied } = await world();
    const other = await h.user();
    await addQuestion(h.db.db, other.user.id);
    const theirs = await other.caller.study.startSession();
    await page(me.user.id);
    await expect(answer(me.user.id, studied.id, ["B"], theirs.session!.id)).rejects.toThrow(
      "Study session not found",
    );
    const state = await studyStateOf(h.db.db, me.user.id, studied.id);
    expect(state?.pendingReviewId).toBeNull();
  });
});
