import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { questions, reviews, studySessions, users } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { addQuestion } from "../study/test-fixtures";
import { studySummary } from "./stats.service";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
afterEach(async () => {
  await h.db.db.update(questions).set({ isPublic: false });
});

/** Appends answers straight to the log, at chosen instants. */
async function logAnswers(
  user: TestUser,
  answers: { at: string; correct?: boolean; category?: string }[],
) {
  const q = await addQuestion(h.db.db, user.user.id);
  for (const a of answers) {
    await h.db.db.insert(reviews).values({
      userId: user.user.id,
      questionId: q.id,
      category: a.category ?? "Neuroscience",
      isCorrect: a.correct ?? true,
      selected: ["B"],
      timeSpentMs: 1000,
      reviewedAt: new Date(a.at),
    });
  }
}

describe("streak across midnight, in the user's time zone", () => {
  // 03:30 UTC on the 2nd is 23:30 on the 1st in New York and 12:30 on the 2nd in Tokyo;
  // 16:00 UTC on the 2nd is 12:00 on the 2nd in New York and 01:00 on the 3rd in Tokyo.
  const answers = [{ at: "2025-06-02T03:30:00Z" }, { at: "2025-06-02T16:00:00Z" }];

  it("counts two days in New York, where the answers straddle midnight", async () => {
    const me = await h.user();
    await logAnswers(me, answers);
    const now = new Date("2025-06-02T20:00:00Z"); // 16:00 on the 2nd in New York
    const s = await studySummary(h.db.db, {
      userId: me.user.id,
      timeZone: "America/New_York",
      now,
    });
    expect(s.streakDays).toBe(2);
    expect(s.lastStudyDate).toBe("2025-06-02");
    expect(s.answeredToday).toBe(1);
    expect(s.studyHistory.map((d) => [d.date, d.questionsStudied])).toEqual([
      ["2025-06-01", 1],
      ["2025-06-02", 1],
    ]);
  });

  it("counts two other days in Tokyo, and one day in UTC", async () => {
    const me = await h.user();
    await logAnswers(me, answers);
    const now = new Date("2025-06-02T20:00:00Z"); // 05:00 on the 3rd in Tokyo
    const tokyo = await studySummary(h.db.db, { userId: me.user.id, timeZone: "Asia/Tokyo", now });
    expect(tokyo.streakDays).toBe(2);
    expect(tokyo.studyHistory.map((d) => d.date)).toEqual(["2025-06-02", "2025-06-03"]);
    expect(tokyo.answeredToday).toBe(1);
    const utc = await studySummary(h.db.db, { userId: me.user.id, timeZone: "UTC", now });
    expect(utc.streakDays).toBe(1);
    expect(utc.answeredToday).toBe(2);
  });

  it("breaks on a gap day and survives until the end of today", async () => {
    const me = await h.user();
    await logAnswers(me, [
      { at: "2025-06-01T12:00:00Z" },
      { at: "2025-06-03T12:00:00Z" },
      { at: "2025-06-04T12:00:00Z" },
    ]);
    const at = (iso: string) =>
      studySummary(h.db.db, { userId: me.user.id, timeZone: "UTC", now: new Date(iso) });
    expect((await at("2025-06-04T13:00:00Z")).streakDays).toBe(2);
    expect((await at("2025-06-05T23:00:00Z")).streakDays).toBe(2); // not yet studied today
    expect((await at("2025-06-06T00:30:00Z")).streakDays).toBe(0);
  });

  it("takes the zone from the browser's header through stats.summary and remembers it", async () => {
    const me = await h.user();
    await logAnswers(me, answers);
    const now = () => new Date("2025-06-02T20:00:00Z");
    const ny = await h.callerFor(me.user, { timeZone: "America/New_York", now });
    expect((await ny.stats.summary()).streakDays).toBe(2);
    const [row] = await h.db.db.select().from(users).where(eq(users.id, me.user.id));
    expect(row!.timeZone).toBe("America/New_York");
    // A device that sends no zone (or a bogus one) gets the remembered zone: the same numbers.
    const other = await h.callerFor(row!, { timeZone: "Not/AZone", now });
    const s = await other.stats.summary();
    expect(s.timeZone).toBe("America/New_York");
    expect(s.streakDays).toBe(2);
  });

  it("counts a day with a started session as a study day (docs/product/states.md)", async () => {
    const me = await h.user();
    await h.db.db
      .insert(studySessions)
      .values({ userId: me.user.id, startedAt: new Date("2025-06-02T10:00:00Z") });
    const s = await studySummary(h.db.db, {
      userId: me.user.id,
      timeZone: "UTC",
      now: new Date("2025-06-02T11:00:00Z"),
    });
    expect(s.streakDays).toBe(1);
    expect(s.studyHistory).toEqual([{ date: "2025-06-02", sessionsCount: 1, questionsStudied: 0 }]);
  });
});

describe("stats.summary", () => {
  it("reports totals, mastery, category progress and the 5-answer threshold", async () => {
    const me = await h.user();
    const other = await h.user();
    const neuro = [];
    for (let i = 0; i < 3; i++)
      neuro.push(await addQuestion(h.db.db, me.user.id, { category: "Neuroscience" }));
    const ethics = [];
    for (let i = 0; i < 2; i++)
      ethics.push(await addQuestion(h.db.db, me.user.id, { category: "Ethics" }));
    await addQuestion(h.db.db, me.user.id, { category: "" });
    await addQuestion(h.db.db, other.user.id, { category: "Genetics", isPublic: true });
    await addQuestion(h.db.db, other.user.id, { category: "Genetics", isPublic: false });

    // Neuroscience: 5 answers, 4 right; Ethics: 4 answers, 1 right (below the threshold).
    const answer = (id: string, right: boolean) =>
      me.caller.study.answer({ questionId: id, selected: [right ? "B" : "A"], timeSpentMs: 10 });
    await answer(neuro[0]!.id, true);
    await me.caller.study.rate({ questionId: neuro[0]!.id, difficulty: 2 }); // ease 2.6: mastered
    await answer(neuro[1]!.id, true);
    await me.caller.study.rate({ questionId: neuro[1]!.id, difficulty: 1 }); // ease 2.5: not
    await answer(neuro[2]!.id, false);
    await answer(neuro[2]!.id, true);
    await answer(neuro[2]!.id, true);
    await answer(ethics[0]!.id, false);
    await answer(ethics[0]!.id, false);
    await answer(ethics[1]!.id, false);
    await answer(ethics[1]!.id, true);

    const s = await me.caller.stats.summary();
    expect(s).toMatchObject({
      totalQuestions: 7,
      ownQuestions: 6,
      masteredCount: 1,
      totalStudied: 9,
      correctAnswers: 5,
      incorrectAnswers: 4,
      masteryLevel: 56,
      streakDays: 1,
      answeredToday: 9,
    });
    // Every answered question lapsed or was rated: tomorrow at the earliest. Due now: the
    // never-studied uncategorized one and the public one.
    expect(s.dueCount).toBe(2);
    expect(s.categoryPerformance).toMatchObject({
      Neuroscience: { total: 5, correct: 4, accuracy: 80 },
      Ethics: { total: 4, correct: 1, accuracy: 25 },
    });
    expect(s.weakestCategories).toEqual([{ name: "Neuroscience", accuracy: 80 }]);
    expect(s.strongestCategories).toEqual([{ name: "Neuroscience", accuracy: 80 }]);
    expect(s.recentPerformance).toHaveLength(9);
    expect(s.recentPerformance[0]).toMatchObject({ category: "Ethics", isCorrect: true });
    expect(s.categoryProgress).toEqual([
      { name: "Neuroscience", total: 3, mastered: 1, masteryPercent: 33, due: 0, accuracy: 80 },
      { name: "Ethics", total: 2, mastered: 0, masteryPercent: 0, due: 0, accuracy: 25 },
      { name: "Genetics", total: 1, mastered: 0, masteryPercent: 0, due: 1, accuracy: null },
    ]);
    expect(s.dueCategories).toEqual([
      { name: "Genetics", due: 1 },
      { name: "Uncategorized", due: 1 },
    ]);
    // The other user's numbers are their own.
    const theirs = await other.caller.stats.summary();
    expect(theirs).toMatchObject({ totalStudied: 0, totalQuestions: 2, streakDays: 0 });
  });
});

describe("rankings (GET /api/stats/comparative)", () => {
  async function userWithScore(
    correct: number,
    wrong: number,
    opts: { share: boolean; pgyLevel?: string; at?: string },
  ) {
    const u = await h.user({ pgyLevel: opts.pgyLevel ?? "2" });
    await h.db.db.update(users).set({ shareUsageData: opts.share }).where(eq(users.id, u.user.id));
    const at = opts.at ?? new Date().toISOString();
    await logAnswers(u, [
      ...Array.from({ length: correct }, () => ({ at, correct: true })),
      ...Array.from({ length: wrong }, () => ({ at, correct: false })),
    ]);
    return u;
  }

  async function comparative(user: TestUser) {
    const res = await (
      await h.app()
    ).inject({
      method: "GET",
      url: "/api/stats/comparative",
      headers: user.headers,
    });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  it("says rankings are not available with fewer than 5 other sharing users", async () => {
    const me = await userWithScore(3, 1, { share: false });
    for (let i = 0; i < 4; i++) await userWithScore(1, 1, { share: true });
    // Users who do not share never count, however many there are.
    for (let i = 0; i < 3; i++) await userWithScore(1, 0, { share: false });
    const body = await comparative(me);
    expect(body.success).toBe(true);
    expect(body.data.overall).toEqual({
      available: false,
      percentile: null,
      totalUsers: null,
      averageScore: null,
      score: 75,
      minimumOthers: 5,
    });
    expect(body.data.pgyLevel).toMatchObject({ available: false, level: "2" });
    expect(body.data.timeBasedRanking).toMatchObject({ available: false, period: "week" });
  });

  it("ranks against real figures once 5 others share, per PGY level and for the week", async () => {
    // Everyone from the previous test is still here: 4 sharing users at 50%.
    const me = await userWithScore(3, 1, { share: false, pgyLevel: "3" });
    await userWithScore(9, 1, { share: true, pgyLevel: "3" }); // 90%
    const body = await comparative(me);
    // Others: 50, 50, 50, 50, 90 → me at 75 beats four: (4 + 0) / 5 = 80th percentile.
    expect(body.data.overall).toEqual({
      available: true,
      percentile: 80,
      totalUsers: 6,
      averageScore: 60.8, // (50·4 + 90 + 75) / 6
      score: 75,
      minimumOthers: 5,
    });
    // Only one other PGY-3 shares: not enough.
    expect(body.data.pgyLevel).toMatchObject({ available: false, level: "3", score: 75 });
    expect(body.data.timeBasedRanking).toMatchObject({ available: true, percentile: 80 });

    // Answers older than a week drop out of the weekly ranking only.
    const old = new Date(Date.now() - 9 * 86_400_000).toISOString();
    for (let i = 0; i < 5; i++) await userWithScore(1, 0, { share: true, pgyLevel: "3", at: old });
    const later = await comparative(me);
    expect(later.data.overall).toMatchObject({ available: true, totalUsers: 11 });
    expect(later.data.pgyLevel).toMatchObject({ available: true, totalUsers: 7, level: "3" });
    // PGY-3 others: 90, 100 ×5 → me at 75 is below all of them.
    expect(later.data.pgyLevel.percentile).toBe(0);
    expect(later.data.timeBasedRanking).toMatchObject({ available: true, totalUsers: 6 });
  });

  it("gives a viewer without answers the cohort but no percentile", async () => {
    const fresh = await h.user();
    const body = await comparative(fresh);
    expect(body.data.overall).toMatchObject({ available: true, percentile: null, score: null });
    expect(body.data.overall.totalUsers).toBeGreaterThanOrEqual(10);
  });
});
