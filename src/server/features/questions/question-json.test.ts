/**
 * The due list's JSON is built by PostgreSQL (`questionJsonSql`); every other read builds it in Node
 * (`toQuestionJson`). Both must give the same question JSON, field for field, for every shape of row.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  media,
  questionMedia,
  questionReports,
  questions,
  studyStates,
  users,
} from "../../db/schema";
import { createHarness, type Harness } from "../../test/harness";
import {
  imagesByQuestion,
  questionColumns,
  questionJsonSql,
  reportedNotices,
  toQuestionJson,
} from "./question-json";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe("questionJsonSql", () => {
  const byId0 = (rows: { q: { id: string }; json: unknown }[], id: string) =>
    rows.find((r) => r.q.id === id)!.json;

  it("equals toQuestionJson for own, shared, anonymous, studied and never-studied questions", async () => {
    const viewer = await h.user();
    const sharing = await h.user();
    const hidden = await h.user();
    await h.db.db.update(users).set({ publicProfile: true }).where(eq(users.id, sharing.user.id));
    const inserted = await h.db.db
      .insert(questions)
      .values([
        {
          creatorId: viewer.user.id,
          text: 'Own question with "quotes", a backslash \\ and a new\nline — ünïcödé',
          options: { A: "Lithium", B: "Valproate", C: "émoji 💊", D: "</script>" },
          correctAnswer: "A",
          correctAnswers: ["A"],
          part: "1",
          year: 2024,
          number: 7,
          explanation: "Because\n\nof renal clearance.",
          category: "Psychopharmacology",
          createdAt: new Date("2025-03-01T12:34:56.789Z"),
          updatedAt: new Date("2025-03-02T00:00:00.001Z"),
        },
        {
          creatorId: sharing.user.id,
          text: "Select the THREE correct answers.",
          options: Object.fromEntries([..."ABCDEFGHIJKLMNO"].map((l) => [l, `Option ${l}`])),
          correctAnswer: "",
          correctAnswers: ["B", "D", "O"],
          numCorrectAnswers: 3,
          questionType: "multipleCorrect",
          instructions: "Select the THREE correct answers.",
          part: "2",
          year: 2021,
          number: null,
          isPublic: true,
          generatedExplanation: "Saved AI text",
        },
        {
          creatorId: hidden.user.id,
          text: "A public question of a user whose profile is private",
          options: { A: "a", B: "b" },
          correctAnswer: "B",
          correctAnswers: ["B"],
          part: "1",
          year: 2020,
          isPublic: true,
          category: "",
        },
        {
          creatorId: viewer.user.id,
          text: "Front <b>bold</b>",
          back: 'Back <img src="x">',
          questionType: "flashcard",
          source: "Deck::Sub",
          part: "1",
          year: 2024,
        },
      ])
      .returning({ id: questions.id });
    // The flashcard shows two images, in an order that is not their keys' order.
    const [first, second] = ["f".repeat(64), "0".repeat(64)];
    await h.db.db.insert(media).values(
      [first, second].map((sha256) => ({
        sha256,
        mimeType: "image/png",
        byteSize: 1,
        bytes: new Uint8Array([1]),
      })),
    );
    await h.db.db.insert(questionMedia).values([
      { questionId: inserted[3]!.id, sha256: second, position: 1 },
      { questionId: inserted[3]!.id, sha256: first, position: 0 },
    ]);
    const images = await imagesByQuestion(
      h.db.db,
      inserted.map((q) => q.id),
    );
    // Studied: one with every date, one never scheduled (no due date), one not at all.
    await h.db.db.insert(studyStates).values([
      {
        userId: viewer.user.id,
        questionId: inserted[0]!.id,
        easeFactor: 2.36,
        intervalDays: 6,
        repetitions: 2,
        lapses: 1,
        dueAt: new Date("2025-03-08T06:07:08.009Z"),
        lastReviewedAt: new Date("2025-03-02T06:07:08.123Z"),
      },
      {
        userId: viewer.user.id,
        questionId: inserted[1]!.id,
        easeFactor: 1.3000000000000003,
        dueAt: null,
        lastReviewedAt: null,
      },
      // Another user's state must never show.
      { userId: sharing.user.id, questionId: inserted[0]!.id, easeFactor: 2.6 },
    ]);

    // Issue 36: two open wrong-answer reports on one question (the first one's comment shows), a
    // closed one and an open report of another kind that show nothing; and a taken-down question.
    const reporter = await h.user();
    await h.db.db.insert(questionReports).values([
      {
        questionId: inserted[1]!.id,
        reporterId: viewer.user.id,
        kind: "wrong_answer",
        comment: "C, not B",
        createdAt: new Date("2025-03-03T01:02:03.456Z"),
      },
      {
        questionId: inserted[1]!.id,
        reporterId: reporter.user.id,
        kind: "wrong_answer",
        comment: "Later",
        createdAt: new Date("2025-03-04T01:02:03.456Z"),
      },
      {
        questionId: inserted[0]!.id,
        reporterId: reporter.user.id,
        kind: "wrong_answer",
        status: "dismissed",
      },
      { questionId: inserted[2]!.id, reporterId: reporter.user.id, kind: "unclear" },
    ]);
    await h.db.db
      .update(questions)
      .set({ takenDownAt: new Date("2025-03-05T00:00:00.000Z") })
      .where(eq(questions.id, inserted[0]!.id));
    const notices = await reportedNotices(
      h.db.db,
      inserted.map((q) => q.id),
    );
    expect([...notices.values()]).toEqual([
      { count: 2, comment: "C, not B", reportedAt: "2025-03-03T01:02:03.456Z" },
    ]);

    const viewerId = viewer.user.id;
    const rows = await h.db.db
      .select({
        q: questionColumns,
        s: studyStates,
        creatorName: users.username,
        creatorPublic: users.publicProfile,
        json: questionJsonSql(sql`${viewerId}::uuid`),
      })
      .from(questions)
      .innerJoin(users, eq(users.id, questions.creatorId))
      .leftJoin(
        studyStates,
        and(eq(studyStates.questionId, questions.id), eq(studyStates.userId, viewerId)),
      );
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.json).toEqual(
        toQuestionJson(row.q, {
          viewerId,
          creator: { username: row.creatorName, publicProfile: row.creatorPublic },
          studyState: row.s,
          images: images.get(row.q.id),
          reported: notices.get(row.q.id),
        }),
      );
    }
    expect(byId0(rows, inserted[1]!.id)).toMatchObject({ reported: { count: 2 } });
    expect(byId0(rows, inserted[0]!.id)).toMatchObject({
      reported: null,
      takenDownAt: "2025-03-05T00:00:00.000Z",
    });
    expect(byId0(rows, inserted[3]!.id)).toMatchObject({
      questionType: "flashcard",
      back: 'Back <img src="x">',
      source: "Deck::Sub",
      images: [first, second],
    });
    const byId = new Map(rows.map((r) => [r.q.id, r.json]));
    expect(byId.get(inserted[1]!.id)!.contributor).toBe(sharing.user.username);
    expect(byId.get(inserted[2]!.id)!.contributor).toBe("Anonymous");
    expect(byId.get(inserted[2]!.id)!.studyData).toEqual([]);
  });
});
