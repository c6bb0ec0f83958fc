import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { interleave } from "../../../core/srs/daily";
import { leechMarks, questions, studyStates, users } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { storeSyncedReviews } from "./study-writer.service";
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
const HOUR = 3_600_000;

/** A caller with the user's row as it is now (settings read from it), at `now`. */
async function callerAt(me: TestUser, now: Date) {
  const [row] = await h.db.db.select().from(users).where(eq(users.id, me.user.id));
  return h.callerFor(row!, { now: () => now });
}

async function importedBank(userId: string, n: number, createdBefore: Date) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const q = await addQuestion(h.db.db, userId, {
      createdAt: new Date(createdBefore.getTime() - (n - i) * HOUR),
    });
    ids.push(q.id);
  }
  return ids;
}

async function dueReviews(userId: string, n: number, now: Date, lastDaysAgo = 10) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const q = await addQuestion(h.db.db, userId, {
      createdAt: new Date(now.getTime() - 400 * DAY),
    });
    await h.db.db.insert(studyStates).values({
      userId,
      questionId: q.id,
      intervalDays: 1 + (i % 7),
      stability: 1 + (i % 7),
      fsrsDifficulty: 5,
      repetitions: 2,
      lastReviewedAt: new Date(now.getTime() - lastDaysAgo * DAY - i * HOUR),
      dueAt: new Date(now.getTime() - (n - i) * 60_000),
      introducedAt: null,
    });
    ids.push(q.id);
  }
  return ids;
}

describe("new questions per day (decision 370)", () => {
  it("takes the day's limit of new questions, oldest first, interleaved with the reviews; REST keeps its shape", async () => {
    const me = await h.user();
    const now = new Date();
    const bank = await importedBank(me.user.id, 30, new Date(now.getTime() - DAY));
    const reviews = await dueReviews(me.user.id, 4, now);
    const caller = await callerAt(me, now);
    const page = await caller.study.due({ limit: 100 });
    expect(page.total).toBe(24);
    expect(page.reviewCount).toBe(4);
    expect(page.newCount).toBe(20);
    expect(page.questions.map((q) => q._id)).toEqual(interleave(reviews, bank.slice(0, 20)));
    const plan = await caller.study.dayPlan();
    expect(plan).toMatchObject({ reviewCount: 4, newCount: 20, newPerDay: 20 });

    const app = await h.app();
    const res = await app.inject({
      method: "GET",
      url: "/api/questions/due?limit=5",
      headers: me.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-total-count"]).toBe("24");
    const body = res.json() as { _id: string }[];
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((q) => q._id)).toEqual(page.questions.slice(0, 5).map((q) => q._id));
  });

  it("gives the offline copy the same day's list, in the same order", async () => {
    const me = await h.user();
    const now = new Date();
    const bank = await importedBank(me.user.id, 40, new Date(now.getTime() - DAY));
    const reviews = await dueReviews(me.user.id, 6, now);
    const caller = await callerAt(me, now);
    const copy = await caller.study.offlineCopy();
    const due = await caller.study.due({ limit: 500 });
    expect(copy.questions.map((q) => q._id)).toEqual(due.questions.map((q) => q._id));
    expect(copy.questions.map((q) => q._id)).toEqual(interleave(reviews, bank.slice(0, 20)));
    // The copy's states: the reviews have one, the day's new questions none.
    expect(Object.keys(copy.states).sort()).toEqual([...reviews].sort());
  });

  it("counts questions introduced today against the limit, and starts again at midnight in the user's zone", async () => {
    const me = await h.user();
    await h.db.db
      .update(users)
      .set({ timeZone: "America/New_York", newPerDay: 3 })
      .where(eq(users.id, me.user.id));
    // 23:30 in New York on the 26th.
    const evening = new Date("2026-11-27T04:30:00Z");
    const bank = await importedBank(me.user.id, 10, new Date("2026-11-20T00:00:00Z"));
    const caller = await callerAt(me, evening);
    expect((await caller.study.due()).questions.map((q) => q._id)).toEqual(bank.slice(0, 3));
    for (const id of bank.slice(0, 2)) {
      await caller.study.answer({ questionId: id, selected: ["A"], timeSpentMs: 1000 });
    }
    // Two introduced: one new left today (the two answered wrong come back as reviews tomorrow).
    const later = await callerAt(me, new Date(evening.getTime() + 20 * 60_000));
    expect((await later.study.dayPlan()).newCount).toBe(1);
    // 00:10 on the 27th in New York: a new day, three new again.
    const morning = await callerAt(me, new Date("2026-11-27T05:10:00Z"));
    const next = await morning.study.due();
    expect(next.newCount).toBe(3);
    expect(next.questions.filter((q) => q.studyData.length === 0).map((q) => q._id)).toEqual(
      bank.slice(2, 5),
    );
  });

  it("lets questions written by hand today in at once, over the limit when there are more of them", async () => {
    const me = await h.user();
    const now = new Date();
    await importedBank(me.user.id, 10, new Date(now.getTime() - 2 * DAY));
    await h.db.db.update(users).set({ newPerDay: 2 }).where(eq(users.id, me.user.id));
    const caller = await callerAt(me, now);
    const written: string[] = [];
    for (let i = 0; i < 3; i++) {
      written.push(
        (
          (await caller.questions.create({
            text: `From today's conference ${i}`,
            options: { A: "a", B: "b" },
            correctAnswer: "A",
            part: "1",
            year: 2024,
          })) as { _id: string }
        )._id,
      );
    }
    const page = await caller.study.due();
    expect(page.newCount).toBe(3);
    // Written in one instant here: among themselves they come oldest first, then by id.
    expect(page.questions.map((q) => q._id).sort()).toEqual([...written].sort());
    await caller.study.setDailyLimits({ newPerDay: 5 });
    const more = await (await callerAt(me, now)).study.due();
    expect(more.newCount).toBe(5);
    expect(
      more.questions
        .map((q) => q._id)
        .filter((id) => written.includes(id))
        .sort(),
    ).toEqual([...written].sort());
  });

  it("validates the settings in the product's words", async () => {
    const me = await h.user();
    await expect(me.caller.study.setDailyLimits({ newPerDay: 501 })).rejects.toThrow(
      /New questions per day must be a whole number from 0 to 500/,
    );
    await expect(me.caller.study.setDailyLimits({ leechThreshold: 0 })).rejects.toThrow(
      /leech threshold/,
    );
    expect(await me.caller.study.setDailyLimits({ newPerDay: 0, leechThreshold: 4 })).toEqual({
      newPerDay: 0,
      leechThreshold: 4,
    });
  });
});

describe("catch-up (decision 371)", () => {
  it("spreads the backlog over the chosen days, lowest recall first, keeping every memory state", async () => {
    const me = await h.user();
    const now = new Date();
    const ids = await dueReviews(me.user.id, 90, now);
    await importedBank(me.user.id, 5, new Date(now.getTime() - DAY));
    const before = new Map(
      await Promise.all(
        ids.map(async (id) => [id, await studyStateOf(h.db.db, me.user.id, id)] as const),
      ),
    );
    const caller = await callerAt(me, now);
    const plan = await caller.study.dayPlan();
    expect(plan.catchUp).toMatchObject({ backlog: 90, reviewsPerDay: 20, offered: true });
    await expect(caller.study.startCatchUp({ days: 1 })).rejects.toThrow(/2 to 30 days/);
    const started = await caller.study.startCatchUp({ days: 3 });
    expect(started.moved).toBe(90);
    expect(started.perDay).toEqual([30, 30, 30]);

    const during = await callerAt(me, now);
    const today = await during.study.due({ limit: 500 });
    // Today's share only, and new questions paused.
    expect(today.reviewCount).toBe(30);
    expect(today.newCount).toBe(0);
    const after = await during.study.dayPlan();
    expect(after.catchUp.offered).toBe(false);
    expect(after.catchUp.until).toBe(started.until);
    // Nothing lost or reset: every question still has its state, only the due date moved.
    for (const id of ids) {
      const s = (await studyStateOf(h.db.db, me.user.id, id))!;
      const b = before.get(id)!;
      expect(s).toMatchObject({
        stability: b!.stability,
        intervalDays: b!.intervalDays,
        lastReviewedAt: b!.lastReviewedAt,
        lapses: b!.lapses,
      });
      expect(s.dueAt!.getTime()).toBeLessThan(new Date(started.until).getTime());
    }
    // The most at risk (shortest stability, longest ago) are today's.
    const todayIds = new Set(today.questions.map((q) => q._id));
    const weakest = ids.filter((id) => before.get(id)!.stability === 1);
    expect(weakest.every((id) => todayIds.has(id))).toBe(true);
    // After the last day, new questions come back.
    const back = await callerAt(me, new Date(new Date(started.until).getTime() + HOUR));
    expect((await back.study.dayPlan()).newCount).toBe(5);
    await during.study.endCatchUp();
    expect((await (await callerAt(me, now)).study.dayPlan()).newCount).toBe(5);
  });

  it("refuses a catch-up with nothing overdue", async () => {
    const me = await h.user();
    await expect(me.caller.study.startCatchUp({ days: 3 })).rejects.toThrow(/Nothing is overdue/);
  });
});

describe("leeches (decision 372)", () => {
  it("marks a question failed threshold times, takes it off the list, shows it with its history, counts it for the owner; reset and report", async () => {
    const owner = await h.user();
    const me = await h.user();
    const q = await addQuestion(h.db.db, owner.user.id, { isPublic: true });
    await me.caller.study.setDailyLimits({ leechThreshold: 3 });
    let t = Date.now() - 5 * DAY;
    // Each wrong answer is a lapse (docs/product/scheduling.md), under FSRS as under SM-2.
    for (let i = 0; i < 3; i++) {
      const c = await callerAt(me, new Date((t += DAY)));
      await c.study.answer({ questionId: q.id, selected: ["A"], timeSpentMs: 1000 });
      const state = await studyStateOf(h.db.db, me.user.id, q.id);
      expect([state!.lapses, state!.leech]).toEqual([i + 1, i === 2]);
    }
    const now = new Date(t + 2 * DAY);
    const caller = await callerAt(me, now);
    expect((await caller.study.due({ limit: 500 })).questions.map((x) => x._id)).not.toContain(
      q.id,
    );
    const leeches = await caller.study.leeches();
    expect(leeches).toHaveLength(1);
    expect(leeches[0]).toMatchObject({ lapses: 3, reported: false });
    expect(leeches[0]!.question._id).toBe(q.id);
    expect(leeches[0]!.history.map((r) => r.isCorrect)).toEqual([false, false, false]);
    expect((await caller.study.dayPlan()).leechCount).toBe(1);

    // The owner sees one resident; nobody else's questions appear for them.
    expect(await owner.caller.study.ownerLeechCounts()).toEqual([
      { questionId: q.id, residents: 1, reports: 0 },
    ]);
    expect(await me.caller.study.ownerLeechCounts()).toEqual([]);

    await caller.study.reportLeech({ questionId: q.id, note: "Two answers are right" });
    expect(await owner.caller.study.ownerLeechCounts()).toEqual([
      { questionId: q.id, residents: 1, reports: 1 },
    ]);

    // Reset: explicit, back to new, history kept, the owner's count kept.
    await expect(
      caller.study.resetLeech({ questionId: q.id, confirm: false as unknown as true }),
    ).rejects.toThrow(/Confirm the reset/);
    await caller.study.resetLeech({ questionId: q.id, confirm: true });
    expect(await studyStateOf(h.db.db, me.user.id, q.id)).toBeUndefined();
    expect(await caller.study.leeches()).toEqual([]);
    const page = await caller.study.due({ limit: 500 });
    expect(page.questions.map((x) => x._id)).toContain(q.id);
    expect(await owner.caller.study.ownerLeechCounts()).toEqual([
      { questionId: q.id, residents: 1, reports: 1 },
    ]);
    await expect(caller.study.resetLeech({ questionId: q.id, confirm: true })).rejects.toThrow(
      /not one of your leeches/,
    );

    // A later sync replays only the answers after the reset: one failure, not a leech again.
    await storeSyncedReviews(h.db.db, me.user.id, [
      {
        userId: me.user.id,
        questionId: q.id,
        isCorrect: false,
        reviewedAt: new Date(now.getTime() + HOUR),
        clientId: "7d4f0c1e-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
      },
    ]);
    const replayed = await studyStateOf(h.db.db, me.user.id, q.id);
    expect(replayed).toMatchObject({ lapses: 1, leech: false });
    expect(replayed!.lastReviewedAt!.getTime()).toBe(now.getTime() + HOUR);
    const marks = await h.db.db
      .select()
      .from(leechMarks)
      .where(and(eq(leechMarks.userId, me.user.id), eq(leechMarks.questionId, q.id)));
    expect(marks).toHaveLength(1);
  });
});
