import { and, eq, sql } from "drizzle-orm";
import { interleave } from "../../../core/srs/daily";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { questions, reviews, studySessions, studyStates, users } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { queryRows } from "../../db/raw";
import { createDb } from "../../db/client";
import { media, questionMedia } from "../../db/schema";
import { DUE_PAGE } from "../../../core/constants";
import { enableDuePageCache, newDuePageCache } from "./due-page-cache";
import { computeDuePage, listDueQuestions } from "./study.service";
import { addQuestion, studyStateOf } from "./test-fixtures";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
// Public questions would join every later test's pool: each test starts from a private world.
afterEach(async () => {
  await h.db.db.update(questions).set({ isPublic: false });
});

const DAY = 86_400_000;

/** New accounts schedule with FSRS (issue 19); these tests pin SM-2's own intervals. */
async function sm2User() {
  const me = await h.user();
  await h.db.db.update(users).set({ scheduler: "sm2" }).where(eq(users.id, me.user.id));
  return me;
}

async function rest(method: string, url: string, user: TestUser, body?: unknown) {
  const app = await h.app();
  return app.inject({
    method: method as "GET",
    url,
    payload: body as object,
    headers: user.headers,
  });
}

const stateOf = (userId: string, questionId: string) => studyStateOf(h.db.db, userId, questionId);

async function reviewsOf(userId: string, questionId?: string) {
  return h.db.db
    .select()
    .from(reviews)
    .where(
      and(eq(reviews.userId, userId), questionId ? eq(reviews.questionId, questionId) : undefined),
    )
    .orderBy(reviews.id);
}

describe("the due list (docs/product/product-decisions.md study pool)", () => {
  it("holds own new questions, at most 20 newest public new ones of others, never others' private ones", async () => {
    const me = await h.user();
    const other = await h.user();
    const base = Date.now() - 100 * DAY;
    const own = [];
    for (let i = 0; i < 3; i++) {
      own.push(await addQuestion(h.db.db, me.user.id, { createdAt: new Date(base + i * DAY) }));
    }
    const publicOnes = [];
    for (let i = 0; i < 23; i++) {
      publicOnes.push(
        await addQuestion(h.db.db, other.user.id, {
          isPublic: true,
          createdAt: new Date(base + i * DAY),
        }),
      );
    }
    const hidden = await addQuestion(h.db.db, other.user.id, { isPublic: false });
    const keyless = await addQuestion(h.db.db, me.user.id, {
      correctAnswer: "",
      correctAnswers: [],
    });

    // The day takes 20 new questions (docs/product/study-plan.md): the 3 own, then 17 public.
    const page = await me.caller.study.due();
    expect(page.total).toBe(20);
    expect(page.questions).toHaveLength(20);
    const ids = page.questions.map((q) => q._id);
    expect(ids).not.toContain(hidden.id);
    expect(ids).not.toContain(keyless.id);
    // Own new (oldest first), then the newest public ones (newest first) up to the day's limit.
    expect(ids.slice(0, 3)).toEqual(own.map((q) => q.id));
    expect(ids.slice(3)).toEqual(
      publicOnes
        .map((q) => q.id)
        .reverse()
        .slice(0, 17),
    );
    // Contributor shown as 'Anonymous' (public profile off) and no one else's progress.
    expect(page.questions[3]).toMatchObject({ contributor: "Anonymous", studyData: [] });

    // Paging: default 50, a page of 5 from offset 2, and the full count each time.
    const slice = await me.caller.study.due({ limit: 5, offset: 2 });
    expect(slice.total).toBe(20);
    expect(slice.questions.map((q) => q._id)).toEqual(ids.slice(2, 7));
    const tail = await me.caller.study.due({ limit: 5, offset: 18 });
    expect(tail.questions.map((q) => q._id)).toEqual(ids.slice(18));
    await expect(me.caller.study.due({ limit: 501 })).rejects.toThrow(/At most 500/);

    // Studying one public question uses one of the day's slots: it leaves, and none comes in.
    await me.caller.study.answer({
      questionId: publicOnes[22]!.id,
      selected: ["A"],
      timeSpentMs: 1000,
    });
    const after = await me.caller.study.due({ limit: 500 });
    // 3 own + 16 public new, and the answered one (due until it is rated) as a review.
    expect(after.newCount).toBe(19);
    expect(after.questions.map((q) => q._id)).toContain(publicOnes[21]!.id);
    expect(after.questions.map((q) => q._id)).not.toContain(publicOnes[5]!.id);
  });

  it("filters by category ('Uncategorized' is the empty one)", async () => {
    const me = await h.user();
    const a = await addQuestion(h.db.db, me.user.id, { category: "Ethics" });
    const b = await addQuestion(h.db.db, me.user.id, { category: "" });
    await addQuestion(h.db.db, me.user.id, { category: "Genetics" });
    const ethics = await me.caller.study.due({ category: "Ethics" });
    expect(ethics.questions.map((q) => q._id)).toEqual([a.id]);
    expect(ethics.total).toBe(1);
    const none = await me.caller.study.due({ category: "Uncategorized" });
    expect(none.questions.map((q) => q._id)).toEqual([b.id]);
  });

  it("brings a studied question back once its review date has passed", async () => {
    const me = await sm2User();
    const q = await addQuestion(h.db.db, me.user.id);
    const t0 = new Date("2025-03-01T12:00:00Z");
    const at = (ms: number) => h.callerFor(me.user, { now: () => new Date(t0.getTime() + ms) });
    await (await at(0)).study.answer({ questionId: q.id, selected: ["B"], timeSpentMs: 500 });
    await (await at(0)).study.rate({ questionId: q.id, difficulty: 1 });
    expect((await (await at(DAY - 1000)).study.due()).total).toBe(0);
    const due = await (await at(DAY)).study.due();
    expect(due.questions.map((x) => x._id)).toEqual([q.id]);
    expect(due.questions[0]!.studyData).toHaveLength(1);
  });

  it("drops a studied question while it is private to someone else or has no answer, and counts it again after", async () => {
    const author = await h.user();
    const me = await h.user();
    const q = await addQuestion(h.db.db, author.user.id, { isPublic: true });
    const t0 = new Date("2025-03-01T12:00:00Z");
    const later = await h.callerFor(me.user, { now: () => new Date(t0.getTime() + 30 * DAY) });
    const mine = await h.callerFor(me.user, { now: () => t0 });
    await mine.study.answer({ questionId: q.id, selected: ["B"], timeSpentMs: 500 });
    await mine.study.rate({ questionId: q.id, difficulty: 1 });
    const dueIds = async () => {
      const due = await later.study.due();
      expect(due.total).toBe(due.questions.length);
      return due.questions.map((x) => x._id);
    };
    expect(await dueIds()).toEqual([q.id]);

    // The author makes it private (through the product): gone for me, list and count alike.
    await (
      await h.callerFor(author.user)
    ).questions.update({ id: q.id, data: { isPublic: false } });
    expect(await dueIds()).toEqual([]);
    await h.db.db.update(questions).set({ isPublic: true }).where(eq(questions.id, q.id));
    expect(await dueIds()).toEqual([q.id]);
    // Without an answer it cannot be checked (decision 021), whatever wrote the change.
    await h.db.db
      .update(questions)
      .set({ correctAnswer: "", correctAnswers: [] })
      .where(eq(questions.id, q.id));
    expect(await dueIds()).toEqual([]);
    await h.db.db
      .update(questions)
      .set({ correctAnswer: "C", correctAnswers: ["C"] })
      .where(eq(questions.id, q.id));
    expect(await dueIds()).toEqual([q.id]);
    const [state] = await h.db.db
      .select({ available: studyStates.available })
      .from(studyStates)
      .where(eq(studyStates.questionId, q.id));
    expect(state).toEqual({ available: true });
  });

  it("is served at GET /api/questions/due as the documented list with the count in X-Total-Count", async () => {
    const me = await h.user();
    for (let i = 0; i < 4; i++) await addQuestion(h.db.db, me.user.id, { category: "Ethics" });
    const res = await rest("GET", "/api/questions/due?limit=3", me);
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-total-count"]).toBe("4");
    const body = res.json();
    expect(Array.isArray(body)).toBe(true);
    expect(body).toHaveLength(3);
    expect(body[0]).toMatchObject({ category: "Ethics", studyData: [] });
    // The same questions, field for field and in order, as the tRPC page the app reads.
    expect(body).toEqual((await me.caller.study.due({ limit: 3 })).questions);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect((await rest("GET", "/api/questions/due?offset=3", me)).json()).toHaveLength(1);
    expect((await rest("GET", "/api/questions/due?category=Genetics", me)).json()).toEqual([]);
    const tooMany = await rest("GET", "/api/questions/due?limit=1000", me);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toMatch(/At most 500/);
    const anonymous = await (await h.app()).inject({ method: "GET", url: "/api/questions/due" });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("answering", () => {
  it("decides correctness on the server and ignores anything the client claims", async () => {
    const me = await h.user();
    const q = await addQuestion(h.db.db, me.user.id);
    const wrong = await me.caller.study.answer({
      questionId: q.id,
      selected: ["A"],
      timeSpentMs: 1200,
      // A client cannot tell the server it was right.
      ...({ isCorrect: true } as object),
    });
    expect(wrong).toMatchObject({ isCorrect: false, correctAnswers: ["B"], selected: ["A"] });
    const right = await me.caller.study.answer({
      questionId: q.id,
      selected: ["b"],
      timeSpentMs: 800,
    });
    expect(right.isCorrect).toBe(true);
    const log = await reviewsOf(me.user.id, q.id);
    expect(log.map((r) => [r.isCorrect, r.selected, r.timeSpentMs])).toEqual([
      [false, ["A"], 1200],
      [true, ["B"], 800],
    ]);
    expect(log[0]!.category).toBe("Neuroscience");
  });

  it("needs exactly the answer set of a multiple-correct question", async () => {
    const me = await h.user();
    const q = await addQuestion(h.db.db, me.user.id, { questionType: "multipleCorrect" });
    const answer = (selected: string[]) =>
      me.caller.study.answer({ questionId: q.id, selected, timeSpentMs: 1 });
    expect((await answer(["A", "C"])).isCorrect).toBe(false);
    expect((await answer(["A", "C", "E", "F"])).isCorrect).toBe(false);
    expect((await answer(["A", "C", "D"])).isCorrect).toBe(false);
    const right = await answer(["E", "A", "C"]);
    expect(right).toMatchObject({ isCorrect: true, correctAnswers: ["A", "C", "E"] });
  });

  it("refuses letters that are not options, empty selections and keyless questions", async () => {
    const me = await h.user();
    const q = await addQuestion(h.db.db, me.user.id, { options: { A: "x", B: "y" } });
    await expect(
      me.caller.study.answer({ questionId: q.id, selected: ["D"], timeSpentMs: 1 }),
    ).rejects.toThrow("Please select one of the question's options");
    await expect(
      me.caller.study.answer({ questionId: q.id, selected: [], timeSpentMs: 1 }),
    ).rejects.toThrow("Please select an answer");
    const keyless = await addQuestion(h.db.db, me.user.id, {
      correctAnswer: "",
      correctAnswers: [],
    });
    await expect(
      me.caller.study.answer({ questionId: keyless.id, selected: ["A"], timeSpentMs: 1 }),
    ).rejects.toThrow(/no correct answer yet/);
    expect(await reviewsOf(me.user.id)).toHaveLength(0);
  });

  it("treats a wrong answer as a lapse: ease -0.2, interval 1 day, due tomorrow", async () => {
    const me = await h.user();
    const q = await addQuestion(h.db.db, me.user.id);
    const now = new Date("2025-05-10T08:00:00Z");
    const caller = await h.callerFor(me.user, { now: () => now });
    const result = await caller.study.answer({ questionId: q.id, selected: ["C"], timeSpentMs: 5 });
    const state = await stateOf(me.user.id, q.id);
    expect(state).toMatchObject({ easeFactor: 2.3, intervalDays: 1, repetitions: 0, lapses: 1 });
    expect(state!.dueAt!.toISOString()).toBe("2025-05-11T08:00:00.000Z");
    expect(state!.pendingReviewId).toBe(result.reviewId);
    expect(result.question.studyData).toEqual([
      expect.objectContaining({ user: me.user.id, easeFactor: 2.3, interval: 1, lapses: 1 }),
    ]);
  });

  it("another user's private question answers 404 and records nothing", async () => {
    const me = await h.user();
    const other = await h.user();
    const secret = await addQuestion(h.db.db, other.user.id, { isPublic: false });
    await expect(
      me.caller.study.answer({ questionId: secret.id, selected: ["B"], timeSpentMs: 1 }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: "Question not found" });
    await expect(
      me.caller.study.rate({ questionId: secret.id, difficulty: 2 }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    const res = await rest("PATCH", `/api/questions/${secret.id}/study`, me, { difficulty: 2 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: "Question not found" });
    expect(await reviewsOf(me.user.id)).toHaveLength(0);
    expect(await stateOf(me.user.id, secret.id)).toBeUndefined();
  });

  it("rejects a session id that is not the caller's", async () => {
    const me = await h.user();
    const other = await h.user();
    const q = await addQuestion(h.db.db, me.user.id);
    await addQuestion(h.db.db, other.user.id);
    const theirs = await other.caller.study.startSession();
    await expect(
      me.caller.study.answer({
        questionId: q.id,
        selected: ["B"],
        timeSpentMs: 1,
        sessionId: theirs.session!.id,
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: "Study session not found" });
    expect(await reviewsOf(me.user.id)).toHaveLength(0);
  });

  it("writes the review and the study state in one transaction", async () => {
    const me = await h.user();
    const q = await addQuestion(h.db.db, me.user.id);
    // Make the study-state write fail after the review row has been inserted.
    await h.db.db.execute(
      sql.raw(`create or replace function test_fail_state() returns trigger language plpgsql as $$
        begin raise exception 'study state write failed'; end $$`),
    );
    await h.db.db.execute(
      sql.raw(`create trigger test_fail_state before insert or update on study_states
        for each row when (new.question_id = '${q.id}') execute function test_fail_state()`),
    );
    try {
      await expect(
        me.caller.study.answer({ questionId: q.id, selected: ["A"], timeSpentMs: 1 }),
      ).rejects.toThrow();
      expect(await reviewsOf(me.user.id, q.id)).toHaveLength(0);
      expect(await stateOf(me.user.id, q.id)).toBeUndefined();
    } finally {
      await h.db.db.execute(sql.raw(`drop trigger test_fail_state on study_states`));
    }
    await me.caller.study.answer({ questionId: q.id, selected: ["A"], timeSpentMs: 1 });
    expect(await reviewsOf(me.user.id, q.id)).toHaveLength(1);
  });
});

describe("rating (PATCH /api/questions/{id}/study)", () => {
  it("schedules with SM-2 and returns the question with only the caller's study entry", async () => {
    const me = await sm2User();
    const q = await addQuestion(h.db.db, me.user.id);
    const t0 = Date.parse("2025-01-01T10:00:00Z");
    const at = (days: number) => h.callerFor(me.user, { now: () => new Date(t0 + days * DAY) });
    const study = async (days: number, difficulty: 0 | 1 | 2) => {
      const c = await at(days);
      await c.study.answer({ questionId: q.id, selected: ["B"], timeSpentMs: 10 });
      return c.study.rate({ questionId: q.id, difficulty });
    };
    const first = await study(0, 2);
    expect(first.studyData).toEqual([
      expect.objectContaining({ user: me.user.id, easeFactor: 2.6, interval: 1, repetitions: 1 }),
    ]);
    expect(first.studyData[0]!.nextReview).toBe("2025-01-02T10:00:00.000Z");
    const second = await study(1, 1);
    expect(second.studyData[0]).toMatchObject({ easeFactor: 2.6, interval: 6, repetitions: 2 });
    const third = await study(7, 0);
    expect(third.studyData[0]).toMatchObject({ easeFactor: 2.46, interval: 16, repetitions: 3 });
    const log = await reviewsOf(me.user.id, q.id);
    expect(log.map((r) => r.difficulty)).toEqual([2, 1, 0]);
    expect((await stateOf(me.user.id, q.id))!.pendingReviewId).toBeNull();
  });

  it("after a wrong answer records the rating but keeps the lapse schedule", async () => {
    const me = await h.user();
    const q = await addQuestion(h.db.db, me.user.id);
    await me.caller.study.answer({ questionId: q.id, selected: ["A"], timeSpentMs: 10 });
    const before = await stateOf(me.user.id, q.id);
    const rated = await me.caller.study.rate({ questionId: q.id, difficulty: 2 });
    expect(rated.studyData[0]).toMatchObject({ easeFactor: 2.3, interval: 1, repetitions: 0 });
    const after = await stateOf(me.user.id, q.id);
    expect(after!.dueAt).toEqual(before!.dueAt);
    expect((await reviewsOf(me.user.id, q.id))[0]!.difficulty).toBe(2);
  });

  it("accepts 0, 1 and 2 only", async () => {
    const me = await sm2User();
    const q = await addQuestion(h.db.db, me.user.id);
    for (const difficulty of [3, -1, 1.5, "1", "easy", null]) {
      const res = await rest("PATCH", `/api/questions/${q.id}/study`, me, { difficulty });
      expect(res.statusCode, String(difficulty)).toBe(400);
      expect(res.json().message).toBe("Difficulty must be 0 (Hard), 1 (Medium) or 2 (Easy)");
    }
    const missing = await rest("PATCH", `/api/questions/${q.id}/study`, me, {});
    expect(missing.statusCode).toBe(400);
    expect(await stateOf(me.user.id, q.id)).toBeUndefined();
    const ok = await rest("PATCH", `/api/questions/${q.id}/study`, me, { difficulty: 0 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      _id: q.id,
      studyData: [{ user: me.user.id, easeFactor: 2.36, interval: 1, repetitions: 1 }],
    });
  });

  it("keeps each user's progress on a public question apart", async () => {
    const author = await h.user();
    const reader = await h.user();
    const q = await addQuestion(h.db.db, author.user.id, { isPublic: true });
    await author.caller.study.answer({ questionId: q.id, selected: ["B"], timeSpentMs: 1 });
    await author.caller.study.rate({ questionId: q.id, difficulty: 2 });

    await reader.caller.study.answer({ questionId: q.id, selected: ["B"], timeSpentMs: 1 });
    const res = await rest("PATCH", `/api/questions/${q.id}/study`, reader, { difficulty: 0 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.studyData).toHaveLength(1);
    expect(body.studyData[0]).toMatchObject({ user: reader.user.id, easeFactor: 2.36 });
    expect((await stateOf(author.user.id, q.id))!.easeFactor).toBe(2.6);
    // The author no longer sees it due; the reader's schedule is their own.
    expect((await author.caller.study.due()).questions.map((x) => x._id)).not.toContain(q.id);
  });
});

describe("sessions", () => {
  it("starts a session with the due questions and ties answers to it", async () => {
    const me = await h.user();
    const a = await addQuestion(h.db.db, me.user.id, { category: "Ethics" });
    await addQuestion(h.db.db, me.user.id, { category: "Genetics" });
    expect(await me.caller.study.startSession({ category: "Psychotherapy" })).toEqual({
      session: null,
      questions: [],
      total: 0,
    });
    const started = await me.caller.study.startSession({ category: "Ethics" });
    expect(started.questions.map((q) => q._id)).toEqual([a.id]);
    expect(started.total).toBe(1);
    expect(started.session).toMatchObject({ category: "Ethics", questionCount: 1 });
    await me.caller.study.answer({
      questionId: a.id,
      selected: ["B"],
      timeSpentMs: 4000,
      sessionId: started.session!.id,
    });
    const stats = await me.caller.stats.session({ sessionId: started.session!.id });
    expect(stats).toMatchObject({
      questionsAnswered: 1,
      correctAnswers: 1,
      accuracy: 100,
      averageTimeSeconds: 4,
      answerTimes: [4000],
      startTime: started.session!.startedAt,
    });
    await me.caller.study.finishSession({ sessionId: started.session!.id });
    const [row] = await h.db.db
      .select()
      .from(studySessions)
      .where(eq(studySessions.id, started.session!.id));
    expect(row!.endedAt).not.toBeNull();
    const other = await h.user();
    await expect(
      other.caller.stats.session({ sessionId: started.session!.id }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

// Issue 20: the due page in one statement and its cache (docs/decisions/250-due-page-cache.md).
const HOUR = 3_600_000;

/** A user with `reviewed` studied questions due (most overdue first), `own` new ones and public ones of another. */
async function world(opts: { reviewed: number; own: number; publicNew: number; now: Date }) {
  const me = await h.user();
  const other = await h.user();
  const studied = [];
  for (let i = 0; i < opts.reviewed; i++) {
    const q = await addQuestion(h.db.db, me.user.id);
    await h.db.db.insert(studyStates).values({
      userId: me.user.id,
      questionId: q.id,
      dueAt: new Date(opts.now.getTime() - (opts.reviewed - i) * HOUR),
    });
    studied.push(q.id);
  }
  const own = [];
  for (let i = 0; i < opts.own; i++) {
    own.push((await addQuestion(h.db.db, me.user.id, { createdAt: new Date(2024, 0, 1 + i) })).id);
  }
  const publicOnes = [];
  for (let i = 0; i < opts.publicNew; i++) {
    const q = await addQuestion(h.db.db, other.user.id, {
      isPublic: true,
      createdAt: new Date(2024, 1, 1 + i),
    });
    publicOnes.push(q.id);
  }
  // Studied most overdue first, interleaved (src/core/srs/daily.ts) with today's new questions: own
  // oldest first, then public newest first.
  const order = interleave(studied, [...own, ...publicOnes.reverse()]);
  return { me, other, order, studied };
}

describe("the due page", () => {
  it("pages across the three segments as one list, for every offset and size", async () => {
    const now = new Date();
    const { me, order, studied } = await world({ reviewed: 3, own: 4, publicNew: 2, now });
    const caller = await h.callerFor(me.user, { now: () => now });
    for (let offset = 0; offset <= order.length + 1; offset++) {
      for (let limit = 1; limit <= order.length + 1; limit++) {
        const page = await caller.study.due({ limit, offset });
        expect(page.total, `offset ${offset}, limit ${limit}`).toBe(order.length);
        expect(
          page.questions.map((q) => q._id),
          `offset ${offset}, limit ${limit}`,
        ).toEqual(order.slice(offset, offset + limit));
      }
    }
    // Only the caller's studied entries carry a study entry.
    const all = await caller.study.due({ limit: 50 });
    expect(all.questions.map((q) => q.studyData.length)).toEqual(
      order.map((id) => (studied.includes(id) ? 1 : 0)),
    );
  });

  it("keeps serving flashcards", async () => {
    const me = await h.user();
    const card = await addQuestion(h.db.db, me.user.id, {
      questionType: "flashcard",
      correctAnswer: "",
      correctAnswers: [],
      options: {},
    });
    const page = await me.caller.study.due();
    expect(page.questions.map((q) => q._id)).toEqual([card.id]);
  });
});

describe("the due page kept by version (decision 270)", () => {
  it("answers a page again from memory until a write the page shows, whoever writes it and however", async () => {
    const now = new Date();
    const cache = enableDuePageCache(h.db.db, newDuePageCache());
    const get = vi.spyOn(cache, "get");
    const hit = () => get.mock.results.at(-1)?.value !== undefined;
    const { me, other, order } = await world({ reviewed: 1, own: 1, publicNew: 1, now });
    const caller = await h.callerFor(me.user, { now: () => now });
    const due = async () => {
      get.mockClear();
      return caller.study.due();
    };

    const first = await due();
    const again = await due();
    expect(hit()).toBe(true);
    expect(again.questions).toEqual(first.questions);

    // The other user's private question is not on my page: my page stays kept.
    await addQuestion(h.db.db, other.user.id, { isPublic: false });
    await due();
    expect(hit()).toBe(true);

    // Another user's public question changed straight in the database, no procedure involved.
    await h.db.db
      .update(questions)
      .set({ text: "Rewritten by its author" })
      .where(eq(questions.id, order[2]!));
    const rewritten = await due();
    expect(hit()).toBe(false);
    expect(rewritten.questions[2]!.text).toBe("Rewritten by its author");

    // The contributor shown: their name, once their profile is public, and again when they rename.
    await h.db.db.update(users).set({ publicProfile: true }).where(eq(users.id, other.user.id));
    expect((await due()).questions[2]!.contributor).toBe(other.user.username);
    await h.db.db
      .update(users)
      .set({ username: "renamed_author" })
      .where(eq(users.id, other.user.id));
    expect((await due()).questions[2]!.contributor).toBe("renamed_author");
    // A change to a user that the page does not show leaves it kept.
    await h.db.db.update(users).set({ timeZone: "Asia/Tokyo" }).where(eq(users.id, other.user.id));
    await due();
    expect(hit()).toBe(true);

    // Images added to the public question, and taken away.
    const sha256 = "ab".repeat(32);
    await h.db.db
      .insert(media)
      .values({ sha256, mimeType: "image/png", byteSize: 1, bytes: new Uint8Array([1]) });
    await h.db.db.insert(questionMedia).values({ questionId: order[2]!, sha256 });
    expect((await due()).questions[2]!.images).toEqual([sha256]);
    await h.db.db.delete(questionMedia).where(eq(questionMedia.questionId, order[2]!));
    expect((await due()).questions[2]!.images).toEqual([]);

    // A question the other user shares joins the list at once.
    const shared = await addQuestion(h.db.db, other.user.id, { isPublic: true });
    const withShared = await due();
    expect(withShared.total).toBe(4);
    expect(withShared.questions.map((q) => q._id)).toContain(shared.id);

    // The user's own answer takes the studied question off the list.
    await caller.study.answer({ questionId: order[0]!, selected: ["B"], timeSpentMs: 900 });
    await caller.study.rate({ questionId: order[0]!, difficulty: 1 });
    const answered = await due();
    expect(answered.questions.map((q) => q._id)).not.toContain(order[0]);
    expect(answered).toEqual(
      await computeDuePage(h.db.db, { userId: me.user.id, now, limit: DUE_PAGE.DEFAULT }),
    );
  });

  it("lets a studied question in when it falls due, with nothing written, and never answers an earlier clock", async () => {
    const t0 = new Date("2026-01-10T12:00:00Z");
    enableDuePageCache(h.db.db, newDuePageCache());
    const me = await h.user();
    const q = await addQuestion(h.db.db, me.user.id);
    await h.db.db
      .insert(studyStates)
      .values({ userId: me.user.id, questionId: q.id, dueAt: new Date(t0.getTime() + HOUR) });
    const at = (ms: number) => h.callerFor(me.user, { now: () => new Date(t0.getTime() + ms) });
    const [before, due, earlier] = await Promise.all([at(0), at(HOUR), at(HOUR - 1)]);
    expect((await before.study.due()).total).toBe(0);
    expect((await due.study.due()).questions.map((x) => x._id)).toEqual([q.id]);
    expect((await earlier.study.due()).total).toBe(0);
  });

  it("holds at most its size in text, dropping the oldest pages first", () => {
    const cache = newDuePageCache(100);
    const entry = (n: number) => ({
      value: { json: "x".repeat(n), total: 1 },
      version: "1/1",
      dayKey: "",
      readAt: 0,
      validUntil: Infinity,
    });
    cache.set("a", entry(20));
    cache.set("b", entry(20));
    expect(cache.size).toBe(2);
    cache.set("c", entry(20));
    expect(cache.get("a", "1/1", 0)).toBeUndefined();
    expect(cache.get("c", "1/1", 0)?.json).toHaveLength(20);
    // Another version refuses the page and forgets it.
    expect(cache.get("c", "1/2", 0)).toBeUndefined();
    expect(cache.has("c")).toBe(false);
    // A page larger than the whole cache is not kept.
    cache.set("d", entry(51));
    expect(cache.has("d")).toBe(false);
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "a write through another handle (another server process) is seen by the next request",
    async () => {
      const url = await currentUrl();
      const other = await createDb({ databaseUrl: url, maxConnections: 2 });
      try {
        enableDuePageCache(other.db, newDuePageCache());
        const now = new Date();
        const { me, order } = await world({ reviewed: 2, own: 0, publicNew: 0, now });
        const opts = { userId: me.user.id, now };
        const before = await listDueQuestions(other.db, opts);
        expect(before.questions.map((q) => q._id)).toEqual(order);
        expect(await listDueQuestions(other.db, opts)).toEqual(before);
        await me.caller.study.answer({ questionId: order[0]!, selected: ["B"], timeSpentMs: 10 });
        await me.caller.study.rate({ questionId: order[0]!, difficulty: 2 });
        // No waiting: the very next request through the other handle has the answer's effect.
        const after = await listDueQuestions(other.db, opts);
        expect(after.questions.map((q) => q._id)).toEqual([order[1]]);
      } finally {
        await other.close();
      }
    },
  );
});

async function currentUrl(): Promise<string> {
  const [row] = await queryRows<{ name: string }>(h.db.db, sql`select current_database() as name`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${row!.name}`;
  return url.toString();
}
