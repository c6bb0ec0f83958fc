import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIFFICULTY } from "../../../core/constants";
import { recallAfter } from "../../../core/srs/exam-plan";
import { answerOffline, settleInCopy } from "../../../web/offline/local-study";
import { questions, studyStates, users } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { addQuestion, studyStateOf } from "./test-fixtures";

/** Issue 34: the exam plan's settings, the exam rule on a live rating, the forecast, offline agreement. */
let h: Harness;
const DAY = 86_400_000;
const NOW = new Date("2026-03-02T15:00:00Z");

beforeAll(async () => {
  h = await createHarness({ now: () => NOW });
});
afterAll(async () => {
  await h.close();
});

async function fsrsUser(plan: Record<string, unknown> = {}): Promise<TestUser> {
  const u = await h.user();
  await h.db.db
    .update(users)
    .set({ scheduler: "fsrs", timeZone: "America/Chicago", ...plan })
    .where(eq(users.id, u.user.id));
  return { ...u, caller: await h.callerFor({ ...u.user }, { now: () => NOW }) };
}

/** A question the user has studied: stability 8, last review 8 days ago, due now. */
async function studied(u: TestUser, category = "Neuroscience") {
  const q = await addQuestion(h.db.db, u.user.id, { category });
  await h.db.db.insert(studyStates).values({
    userId: u.user.id,
    questionId: q.id,
    easeFactor: 2.5,
    intervalDays: 8,
    repetitions: 3,
    lapses: 0,
    dueAt: NOW,
    lastReviewedAt: new Date(NOW.getTime() - 8 * DAY),
    stability: 8,
    fsrsDifficulty: 5,
  });
  return q;
}

describe("study.setPlan", () => {
  it("saves what it is given and refuses out-of-range values in the product's words", async () => {
    const u = await fsrsUser();
    const plan = await u.caller.study.setPlan({
      examDate: "2026-05-01",
      examTargetRetention: 0.92,
      maxNewPerDay: 150,
      planCategories: ["Neuroscience", "Neuroscience"],
      easyDays: [6, 0, 6],
      loadBalance: false,
    });
    expect(plan.settings).toMatchObject({
      examDate: "2026-05-01",
      examTargetRetention: 0.92,
      maxNewPerDay: 150,
      planCategories: ["Neuroscience"],
      easyDays: [0, 6],
      loadBalance: false,
    });
    await expect(u.caller.study.setPlan({ examDate: "2026-03-02" })).rejects.toThrow(
      "The exam date must be after today",
    );
    await expect(u.caller.study.setPlan({ examDate: "2030-01-01" })).rejects.toThrow(
      "within two years",
    );
    await expect(u.caller.study.setPlan({ examDate: "2026-13-45" })).rejects.toThrow();
    await expect(u.caller.study.setPlan({ examTargetRetention: 1.2 })).rejects.toThrow(
      "target recall",
    );
    await expect(u.caller.study.setPlan({ maxNewPerDay: 501 })).rejects.toThrow("500");
    await expect(u.caller.study.setPlan({ planCategories: ["Astrology"] })).rejects.toThrow(
      "PRITE's list",
    );
    await expect(u.caller.study.setPlan({ easyDays: [7] })).rejects.toThrow("Easy days");
    // Clearing the date.
    expect((await u.caller.study.setPlan({ examDate: null })).settings.examDate).toBeNull();
  });
});

describe("the exam rule on a live rating", () => {
  it("cuts an interval that would jump past the exam to before it", async () => {
    const plain = await fsrsUser({ loadBalance: false });
    const planned = await fsrsUser({ loadBalance: false });
    await planned.caller.study.setPlan({ examDate: "2026-03-22", examTargetRetention: 0.95 });
    const qa = await studied(plain);
    const qb = await studied(planned);
    await plain.caller.study.rate({ questionId: qa.id, difficulty: DIFFICULTY.MEDIUM });
    await planned.caller.study.rate({ questionId: qb.id, difficulty: DIFFICULTY.MEDIUM });
    const a = (await studyStateOf(h.db.db, plain.user.id, qa.id))!;
    const b = (await studyStateOf(h.db.db, planned.user.id, qb.id))!;
    const examAt = Date.parse("2026-03-22T05:00:00Z"); // midnight in Chicago (CDT)
    expect(a.dueAt!.getTime()).toBeGreaterThan(examAt);
    expect(recallAfter(a.stability!, (examAt - NOW.getTime()) / DAY)).toBeLessThan(0.95);
    expect(b.dueAt!.getTime()).toBeLessThan(examAt);
    expect(b.intervalDays).toBe(19);
    expect(b.stability).toBeCloseTo(a.stability!, 9);
  });

  it("the offline copy reschedules a rating near the exam to the same day", async () => {
    const u = await fsrsUser();
    await u.caller.study.setPlan({ examDate: "2026-03-22", examTargetRetention: 0.95 });
    const q = await studied(u);
    const copy = await u.caller.study.offlineCopy();
    expect(copy.settings.exam?.targetRetention).toBe(0.95);
    const question = copy.questions.find((x) => x._id === q.id)!;
    const { pending } = answerOffline(copy, question, {
      id: "00000000-0000-4000-8000-000000000001",
      selected: ["B"],
      timeSpentMs: 1000,
      now: NOW,
    });
    const offline = settleInCopy(copy, pending, DIFFICULTY.MEDIUM).states[q.id]!;
    await u.caller.study.answer({ questionId: q.id, selected: ["B"], timeSpentMs: 1000 });
    await u.caller.study.rate({ questionId: q.id, difficulty: DIFFICULTY.MEDIUM });
    const server = (await studyStateOf(h.db.db, u.user.id, q.id))!;
    expect(offline.dueAt).toBe(server.dueAt!.toISOString());
    expect(offline.intervalDays).toBe(server.intervalDays);
    expect(server.dueAt!.getTime()).toBeLessThan(Date.parse("2026-03-22T05:00:00Z"));
  });
});

describe("load balancing on a live rating", () => {
  it("lands on the lightest allowed day; off, on the scheduler's own day", async () => {
    const on = await fsrsUser({ loadBalance: true });
    const off = await fsrsUser({ loadBalance: false });
    for (const u of [on, off]) {
      const q = await studied(u);
      // Fill every day around the scheduler's own day but one with reviews due.
      await u.caller.study.rate({ questionId: q.id, difficulty: DIFFICULTY.EASY });
    }
    const [qOff] = await h.db.db
      .select()
      .from(studyStates)
      .where(eq(studyStates.userId, off.user.id));
    const own = qOff!.intervalDays;
    expect(own).toBeGreaterThanOrEqual(3);
    // Now a second card for `on`, with reviews piled on the scheduler's own day.
    const crowded = new Date(NOW.getTime() + own * DAY);
    for (let i = 0; i < 5; i++) {
      const filler = await addQuestion(h.db.db, on.user.id);
      await h.db.db.insert(studyStates).values({
        userId: on.user.id,
        questionId: filler.id,
        dueAt: crowded,
        lastReviewedAt: NOW,
        intervalDays: own,
      });
    }
    const q2 = await studied(on);
    await on.caller.study.rate({ questionId: q2.id, difficulty: DIFFICULTY.EASY });
    const placed = (await studyStateOf(h.db.db, on.user.id, q2.id))!;
    expect(placed.intervalDays).not.toBe(own);
    expect(Math.abs(placed.intervalDays - own)).toBeLessThanOrEqual(Math.ceil(own * 0.15) + 1);
  });

  it("weighs only what the daily list can show: not leeches, not questions gone from view", async () => {
    const off = await fsrsUser({ loadBalance: false });
    const q = await studied(off);
    await off.caller.study.rate({ questionId: q.id, difficulty: DIFFICULTY.EASY });
    const own = (await studyStateOf(h.db.db, off.user.id, q.id))!.intervalDays;
    expect(own).toBeGreaterThanOrEqual(3);

    const on = await fsrsUser({ loadBalance: true });
    const crowded = new Date(NOW.getTime() + own * DAY);
    const owner = await h.user();
    for (let i = 0; i < 6; i++) {
      // Half suspended as leeches, half another resident's questions that are no longer shared.
      const filler = await addQuestion(h.db.db, i % 2 ? owner.user.id : on.user.id, {
        isPublic: i % 2 === 1,
      });
      await h.db.db.insert(studyStates).values({
        userId: on.user.id,
        questionId: filler.id,
        dueAt: crowded,
        lastReviewedAt: NOW,
        intervalDays: own,
        leech: i % 2 === 0,
      });
      if (i % 2) {
        await h.db.db.update(questions).set({ isPublic: false }).where(eq(questions.id, filler.id));
      }
    }
    const hidden = await h.db.db
      .select({ available: studyStates.available, leech: studyStates.leech })
      .from(studyStates)
      .where(and(eq(studyStates.userId, on.user.id), eq(studyStates.dueAt, crowded)));
    expect(hidden).toHaveLength(6);
    expect(hidden.every((s) => s.leech || !s.available)).toBe(true);

    const q2 = await studied(on);
    await on.caller.study.rate({ questionId: q2.id, difficulty: DIFFICULTY.EASY });
    expect((await studyStateOf(h.db.db, on.user.id, q2.id))!.intervalDays).toBe(own);
  });
});

describe("study.plan", () => {
  it("shows the pace, the daily forecast and the recall per category", async () => {
    const u = await fsrsUser();
    await studied(u, "Neuroscience");
    await studied(u, "Child Psychiatry");
    for (let i = 0; i < 30; i++) {
      await addQuestion(h.db.db, u.user.id, {
        category: i % 2 ? "Neuroscience" : "Substance Use Disorders",
      });
    }
    const plan = await u.caller.study.setPlan({ examDate: "2026-05-01", newPerDay: 0 });
    expect(plan.bank).toEqual({ total: 32, unseen: 30 });
    expect(plan.pace.covered).toBe(true);
    expect(plan.pace.perDay).toBe(1); // 30 unseen over 53 days
    expect(plan.days.length).toBe(61); // today up to the exam day (Chicago)
    expect(plan.days[0]).toEqual({ date: "2026-03-02", reviews: 2, new: 1 });
    expect(plan.days.reduce((n, d) => n + d.new, 0)).toBe(30);
    expect(Object.keys(plan.recallByCategory).sort()).toEqual([
      "Child Psychiatry",
      "Neuroscience",
      "Substance Use Disorders",
    ]);
    expect(plan.recallByCategory.Neuroscience!.total).toBe(16);
    expect(plan.recallByCategory.Neuroscience!.recall).toBeGreaterThan(0.5);
    expect(plan.shareSeenByExam).toBe(1);
    expect(plan.switchToFsrs).toBeNull();

    // The plan's categories narrow the bank; an SM-2 user is offered FSRS.
    await h.db.db.update(users).set({ scheduler: "sm2" }).where(eq(users.id, u.user.id));
    const narrow = await u.caller.study.setPlan({ planCategories: ["Substance Use Disorders"] });
    expect(narrow.bank).toEqual({ total: 15, unseen: 15 });
    expect(narrow.switchToFsrs).toMatch(/Switch to FSRS/);
  });

  it("says when the bank cannot be covered at the maximum, and what would cover it", async () => {
    const u = await fsrsUser();
    for (let i = 0; i < 40; i++) await addQuestion(h.db.db, u.user.id);
    const plan = await u.caller.study.setPlan({
      examDate: "2026-03-14",
      newPerDay: 2,
      maxNewPerDay: 5,
    });
    expect(plan.pace.covered).toBe(false);
    expect(plan.pace.perDay).toBe(5);
    expect(plan.pace.message).toMatch(/cannot be covered in time/);
    expect(plan.pace.coveringExamDate).toBe("2026-03-17");
  });
});

describe("the day's new-question limit with an exam date", () => {
  /** A caller with the user's row as a request reads it now (a session lookup after a change). */
  async function fresh(u: TestUser) {
    const [row] = await h.db.db.select().from(users).where(eq(users.id, u.user.id));
    return h.callerFor(row!, { now: () => NOW });
  }

  it("rises from the resident's own limit to the plan's pace, and falls back without a date", async () => {
    const u = await fsrsUser({ newPerDay: 2, maxNewPerDay: 40 });
    for (let i = 0; i < 120; i++) {
      await addQuestion(h.db.db, u.user.id, { category: "Neuroscience", text: `Pace ${i}` });
    }
    expect((await (await fresh(u)).study.due({ limit: 100 })).newCount).toBe(2);

    // 37 days out: 30 days to introduce the bank before the week of review.
    await u.caller.study.setPlan({ examDate: "2026-04-08" });
    const caller = await fresh(u);
    const plan = await caller.study.plan();
    expect(plan.pace.perDay).toBeGreaterThan(2);
    expect(plan.pace.perDay).toBeLessThanOrEqual(40);
    expect((await caller.study.due({ limit: 100 })).newCount).toBe(plan.pace.perDay);

    await u.caller.study.setPlan({ examDate: null });
    expect((await (await fresh(u)).study.due({ limit: 100 })).newCount).toBe(2);
  });
});
