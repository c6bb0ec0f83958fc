import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "../../auth/session";
import { loginAttempts, questions, studyStates, users } from "../../db/schema";
import { createHarness, type Harness } from "../../test/harness";
import { ownedCounts, restAs, seedStudyData } from "./users.fixtures";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await h.user(); // the first account is the admin; everyone below is a regular user
});
afterAll(async () => {
  await h.close();
});

const rest = (...args: Parameters<ReturnType<typeof restAs>>) => restAs(h)(...args);

async function userRow(id: string) {
  const [row] = await h.db.db.select().from(users).where(eq(users.id, id));
  return row;
}

describe("authorization", () => {
  const restPaths: [string, string, unknown?][] = [
    ["PUT", "/api/users/profile", { email: "x@example.test" }],
    ["PUT", "/api/users/settings", { settings: { shareUsageData: true, publicProfile: true } }],
    ["GET", "/api/users/export/study-data"],
    ["GET", "/api/users/export/questions"],
    ["POST", "/api/users/reset-study-progress"],
    ["DELETE", "/api/users/account"],
  ];

  it.each(restPaths)("anonymous %s %s answers 401 {success:false, message}", async (m, url, b) => {
    const res = await rest(m, url, null, b);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: "Please sign in to continue" });
  });

  it("every users procedure refuses an anonymous caller", async () => {
    const a = h.anonymous.users;
    const calls = [
      () => a.updateProfile({ email: "x@example.test" }),
      () => a.updateSettings({ settings: { shareUsageData: true, publicProfile: true } }),
      () => a.exportStudyData(),
      () => a.exportQuestions(),
      () => a.resetStudyProgress(),
      () => a.deleteAccount(),
      () => a.markScoresOnboardingOffered(),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("PUT /api/users/profile", () => {
  it("updates the caller's profile and answers {success, user, message}", async () => {
    const u = await h.user();
    const res = await rest("PUT", "/api/users/profile", u, {
      username: "someone_else",
      email: "new.address@example.test",
      displayName: "  Dr. Resident ",
      pgyLevel: "Fellow",
      specialty: "Child Psychiatry",
      institution: "General Hospital",
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.message).toBe("Profile updated successfully");
    expect(body.user).toMatchObject({
      _id: u.user.id,
      username: u.user.username, // the username never changes
      email: "new.address@example.test",
      displayName: "Dr. Resident",
      pgyLevel: "Fellow",
      specialty: "Child Psychiatry",
      institution: "General Hospital",
    });
    expect(JSON.stringify(body)).not.toMatch(/passwordHash|argon2/);
    expect((await userRow(u.user.id))?.username).toBe(u.user.username);
  });

  it("leaves absent fields alone and clears fields sent empty", async () => {
    const u = await h.user({ pgyLevel: "3" });
    await u.caller.users.updateProfile({ institution: "Somewhere", specialty: "Other" });
    const { user } = await u.caller.users.updateProfile({ institution: "", displayName: null });
    expect(user).toMatchObject({ institution: "", specialty: "Other", pgyLevel: "3" });
    const { user: cleared } = await u.caller.users.updateProfile({ pgyLevel: "" });
    expect(cleared.pgyLevel).toBe("");
    // Settings' 'Select PGY Level' / 'Select Specialty' choices send "" to clear a chosen value.
    const { user: noSpecialty } = await u.caller.users.updateProfile({ specialty: "" });
    expect(noSpecialty).toMatchObject({ specialty: "", pgyLevel: "", institution: "" });
  });

  it.each([
    [{ email: "not an email" }, 400, "Please enter a valid email address"],
    [{ email: "" }, 400, "Please enter all required fields"],
    [{ pgyLevel: "7" }, 400, "Please select a PGY level"],
    [{ specialty: "Dermatology" }, 400, "Please select a specialty from the list"],
    [{ displayName: "x".repeat(101) }, 400, "Display name must be at most 100 characters"],
    [{ institution: "x".repeat(201) }, 400, "Institution must be at most 200 characters"],
  ])("refuses %o with the message and changes nothing", async (payload, status, message) => {
    const u = await h.user();
    const before = await userRow(u.user.id);
    const res = await rest("PUT", "/api/users/profile", u, { displayName: "Changed", ...payload });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ success: false, message });
    expect(await userRow(u.user.id)).toEqual(before);
  });

  it("refuses an email another account uses, in any case (409), over REST and tRPC", async () => {
    const a = await h.user();
    const b = await h.user();
    const res = await rest("PUT", "/api/users/profile", b, { email: a.user.email.toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      success: false,
      message: "An account with this email already exists",
    });
    await expect(b.caller.users.updateProfile({ email: a.user.email })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    // Keeping one's own address (in another case) is fine.
    const own = await b.caller.users.updateProfile({ email: b.user.email.toUpperCase() });
    expect(own.user.email).toBe(b.user.email.toUpperCase());
  });
});

describe("PUT /api/users/settings", () => {
  it("saves both toggles and answers {success, user, message}", async () => {
    const u = await h.user();
    expect((await u.caller.auth.me()).settings).toEqual({
      shareUsageData: false,
      publicProfile: false,
    });
    const res = await rest("PUT", "/api/users/settings", u, {
      settings: { shareUsageData: true, publicProfile: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: "Settings updated successfully",
      user: { _id: u.user.id, settings: { shareUsageData: true, publicProfile: false } },
    });
    const row = await userRow(u.user.id);
    expect([row?.shareUsageData, row?.publicProfile]).toEqual([true, false]);
  });

  it.each([
    [{}, "settings are required"],
    [
      { settings: { shareUsageData: "yes", publicProfile: false } },
      "shareUsageData must be true or false",
    ],
    [{ settings: { shareUsageData: true } }, "publicProfile must be true or false"],
  ])("refuses %o and changes nothing", async (payload, message) => {
    const u = await h.user();
    const res = await rest("PUT", "/api/users/settings", u, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message });
    const row = await userRow(u.user.id);
    expect([row?.shareUsageData, row?.publicProfile]).toEqual([false, false]);
  });

  it("Public Profile decides the contributor name on public questions and the default visibility", async () => {
    const author = await h.user();
    const reader = await h.user();
    const { question } = await seedStudyData(h.db.db, author.user.id, { isPublic: true });
    expect((await reader.caller.questions.get({ id: question.id })).contributor).toBe("Anonymous");

    await author.caller.users.updateSettings({
      settings: { shareUsageData: false, publicProfile: true },
    });
    const shown = await reader.caller.questions.get({ id: question.id });
    expect(shown.contributor).toBe(author.user.username);
    const draft = {
      text: "Which drug is a mood stabiliser?",
      options: { A: "Lithium", B: "Sertraline" },
      correctAnswer: "A",
      part: "1",
      year: 2024,
    };
    expect((await author.caller.questions.create(draft as never)).isPublic).toBe(true);

    await author.caller.users.updateSettings({
      settings: { shareUsageData: false, publicProfile: false },
    });
    expect((await reader.caller.questions.get({ id: question.id })).contributor).toBe("Anonymous");
    expect((await author.caller.questions.create(draft as never)).isPublic).toBe(false);
    // Existing questions keep their own flag.
    expect((await reader.caller.questions.get({ id: question.id })).isPublic).toBe(true);
  });

  it("Share Anonymous Usage Data decides whether the user counts in other users' rankings", async () => {
    const local = await createHarness();
    try {
      const viewer = await local.user();
      const others = [];
      for (let i = 0; i < 5; i++) others.push(await local.user());
      for (const u of [viewer, ...others]) await seedStudyData(local.db.db, u.user.id);
      for (const u of others.slice(0, 4)) {
        await u.caller.users.updateSettings({
          settings: { shareUsageData: true, publicProfile: false },
        });
      }
      expect((await viewer.caller.stats.comparative()).overall.available).toBe(false);
      await others[4]!.caller.users.updateSettings({
        settings: { shareUsageData: true, publicProfile: false },
      });
      const ranked = await viewer.caller.stats.comparative();
      expect(ranked.overall).toMatchObject({ available: true, totalUsers: 6 });
      await others[0]!.caller.users.updateSettings({
        settings: { shareUsageData: false, publicProfile: false },
      });
      expect((await viewer.caller.stats.comparative()).overall.available).toBe(false);
    } finally {
      await local.close();
    }
  });
});

describe("exports", () => {
  it("GET /api/users/export/study-data holds all of the caller's study data and nobody else's", async () => {
    const u = await h.user();
    const other = await h.user();
    const mine = await seedStudyData(h.db.db, u.user.id);
    await seedStudyData(h.db.db, other.user.id, { isPublic: true });

    const res = await rest("GET", "/api/users/export/study-data", u);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.message).toBe("Study data exported successfully");
    const data = body.data;
    expect(data).toMatchObject({ format: "prite-study/study-data", version: 1 });
    expect(Date.parse(data.exportedAt)).not.toBeNaN();
    expect(data.user).toMatchObject({
      _id: u.user.id,
      username: u.user.username,
      email: u.user.email,
      pgyLevel: "2",
      settings: { shareUsageData: false, publicProfile: false },
      questionsAdded: 1,
    });
    expect(data.studyStates).toEqual([
      {
        questionId: mine.question.id,
        easeFactor: 2.6,
        interval: 1,
        repetitions: 1,
        lapses: 0,
        nextReview: expect.any(String),
        lastReviewed: expect.any(String),
      },
    ]);
    expect(data.reviews).toEqual([
      {
        id: mine.review.id,
        questionId: mine.question.id,
        sessionId: mine.session.id,
        category: "Neuroscience",
        difficulty: 2,
        isCorrect: true,
        selected: ["B"],
        timeSpentMs: 4200,
        reviewedAt: mine.review.reviewedAt.toISOString(),
      },
    ]);
    expect(data.studySessions).toEqual([
      expect.objectContaining({ _id: mine.session.id, questionCount: 1 }),
    ]);
    expect(data.priteScores).toEqual([
      expect.objectContaining({ _id: mine.score.id, year: "2023", overallPercentile: 55 }),
    ]);
    expect(data.answerKeys).toEqual([
      expect.objectContaining({ part: "1", year: mine.key.year, answers: { "1": "B", "2": "D" } }),
    ]);
    expect(JSON.stringify(body)).not.toContain(other.user.id);
    expect(JSON.stringify(body)).not.toMatch(/passwordHash|argon2/);

    // The same through tRPC.
    const viaTrpc = await u.caller.users.exportStudyData();
    expect(viaTrpc.data.reviews).toHaveLength(1);
  });

  it("GET /api/users/export/questions holds only the caller's own questions with their own progress", async () => {
    const u = await h.user();
    const other = await h.user();
    const mine = await seedStudyData(h.db.db, u.user.id);
    const theirs = await seedStudyData(h.db.db, other.user.id, { isPublic: true });
    // The other user studied my question too: their progress must not leak into my export.
    await h.db.db.insert(studyStates).values({
      userId: other.user.id,
      questionId: mine.question.id,
      easeFactor: 1.3,
    });
    const res = await rest("GET", "/api/users/export/questions", u);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: "Questions exported successfully" });
    expect(body.questions).toHaveLength(1);
    expect(body.questions[0]).toMatchObject({
      _id: mine.question.id,
      creator: u.user.id,
      text: mine.question.text,
      options: mine.question.options,
      correctAnswer: "B",
      category: "Neuroscience",
      part: "1",
      year: 2024,
      studyData: [expect.objectContaining({ user: u.user.id, easeFactor: 2.6 })],
    });
    expect(body.questions[0]).not.toHaveProperty("searchText");
    expect(JSON.stringify(body)).not.toContain(theirs.question.id);
    expect((await u.caller.users.exportQuestions()).questions).toHaveLength(1);
  });

  it("a user without data exports empty lists", async () => {
    const u = await h.user();
    const { data } = await u.caller.users.exportStudyData();
    expect(data).toMatchObject({
      studyStates: [],
      reviews: [],
      studySessions: [],
      priteScores: [],
      answerKeys: [],
    });
    expect((await u.caller.users.exportQuestions()).questions).toEqual([]);
  });
});

describe("POST /api/users/reset-study-progress", () => {
  it("clears the caller's study states, reviews and sessions; keeps questions, scores, answer keys and other users' data", async () => {
    const u = await h.user();
    const other = await h.user();
    await seedStudyData(h.db.db, u.user.id);
    await seedStudyData(h.db.db, other.user.id);
    const otherBefore = await ownedCounts(h.db.db, other.user.id);

    const res = await rest("POST", "/api/users/reset-study-progress", u);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: "Study progress reset successfully" });
    expect(await ownedCounts(h.db.db, u.user.id)).toMatchObject({
      questions: 1,
      studyStates: 0,
      reviews: 0,
      studySessions: 0,
      priteScores: 1,
      answerKeys: 1,
    });
    expect(await ownedCounts(h.db.db, other.user.id)).toEqual(otherBefore);
  });

  it("works over tRPC and on a user with nothing to reset", async () => {
    const u = await h.user();
    await expect(u.caller.users.resetStudyProgress()).resolves.toEqual({
      success: true,
      message: "Study progress reset successfully",
    });
  });
});

describe("DELETE /api/users/account", () => {
  it("removes everything the user owns and every session; the old token answers 401", async () => {
    const u = await h.user({ password: "a good long password" });
    const other = await h.user();
    const mine = await seedStudyData(h.db.db, u.user.id, { isPublic: true });
    await seedStudyData(h.db.db, other.user.id);
    // The other user's progress on my public question goes with the question.
    await h.db.db
      .insert(studyStates)
      .values({ userId: other.user.id, questionId: mine.question.id });
    const { token: secondDevice } = await createSession(h.db.db, u.user.id, new Date());
    await h.db.db
      .insert(loginAttempts)
      .values({ usernameKey: u.user.username.toLowerCase(), ip: "10.0.0.1" });
    const otherBefore = await ownedCounts(h.db.db, other.user.id);

    const res = await rest("DELETE", "/api/users/account", u);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: "Account deleted successfully" });

    expect(await userRow(u.user.id)).toBeUndefined();
    expect(await ownedCounts(h.db.db, u.user.id)).toEqual({
      questions: 0,
      studyStates: 0,
      reviews: 0,
      studySessions: 0,
      priteScores: 0,
      answerKeys: 0,
      sessions: 0,
    });
    expect(
      await h.db.db
        .select()
        .from(loginAttempts)
        .where(eq(loginAttempts.usernameKey, u.user.username.toLowerCase())),
    ).toEqual([]);
    expect(
      await h.db.db.select().from(questions).where(eq(questions.id, mine.question.id)),
    ).toEqual([]);
    expect(await ownedCounts(h.db.db, other.user.id)).toMatchObject({
      ...otherBefore,
      studyStates: otherBefore.studyStates - 1,
    });

    for (const token of [u.token, secondDevice]) {
      const me = await (
        await h.app()
      ).inject({
        method: "GET",
        url: "/api/auth/me",
        headers: { "x-auth-token": token },
      });
      expect(me.statusCode).toBe(401);
    }
    const again = await rest("DELETE", "/api/users/account", u);
    expect(again.statusCode).toBe(401);

    const login = await rest("POST", "/api/auth/login", null, {
      username: u.user.username,
      password: "a good long password",
    });
    expect(login.statusCode).toBe(401);
    expect(login.json().message).toBe("Invalid username or password");
  });

  it("works over tRPC; the username can then be registered afresh", async () => {
    const u = await h.user();
    await expect(u.caller.users.deleteAccount()).resolves.toEqual({
      success: true,
      message: "Account deleted successfully",
    });
    const again = await h.user({ username: u.user.username });
    expect(again.user.id).not.toBe(u.user.id);
  });
});

describe("PRITE scores onboarding", () => {
  it("is offered once: the flag starts false and the first offer is remembered", async () => {
    const u = await h.user();
    expect((await u.caller.auth.me()).scoresOnboardingOffered).toBe(false);
    const first = await u.caller.users.markScoresOnboardingOffered();
    expect(first.user.scoresOnboardingOffered).toBe(true);
    const stamp = (await userRow(u.user.id))?.scoresOnboardingOfferedAt;
    expect(stamp).toBeInstanceOf(Date);
    await u.caller.users.markScoresOnboardingOffered();
    expect((await userRow(u.user.id))?.scoresOnboardingOfferedAt).toEqual(stamp);
    // A fresh request (the harness caller's context keeps the row it was made with).
    const me = await rest("GET", "/api/auth/me", u);
    expect(me.json().scoresOnboardingOffered).toBe(true);
  });
});
