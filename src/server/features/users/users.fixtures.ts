import { count, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { Harness, TestUser } from "../../test/harness";
import {
  answerKeys,
  priteScores,
  questions,
  reviews,
  sessions,
  studySessions,
  studyStates,
} from "../../db/schema";

/** REST calls through `inject`, as `user` (its token header) or anonymously. */
export function restAs(h: Harness) {
  return async (method: string, url: string, user?: TestUser | null, body?: unknown) => {
    const app = await h.app();
    return app.inject({
      method: method as "GET",
      url,
      payload: body as object,
      headers: user ? user.headers : {},
    });
  };
}

let seq = 0;

/** Study data of every kind the export and the reset cover, inserted straight into the database. */
export async function seedStudyData(
  db: Db,
  userId: string,
  opts: { isPublic?: boolean; now?: Date } = {},
) {
  seq += 1;
  const now = opts.now ?? new Date();
  const [question] = await db
    .insert(questions)
    .values({
      creatorId: userId,
      text: `Fixture question ${seq}: which neurotransmitter?`,
      options: { A: "Dopamine", B: "Serotonin", C: "GABA", D: "Glutamate", E: "Acetylcholine" },
      correctAnswer: "B",
      correctAnswers: ["B"],
      category: "Neuroscience",
      part: "1",
      year: 2024,
      number: seq,
      isPublic: opts.isPublic ?? false,
      createdAt: now,
    })
    .returning();
  const [session] = await db
    .insert(studySessions)
    .values({ userId, questionCount: 1, startedAt: now, endedAt: now })
    .returning();
  await db.insert(studyStates).values({
    userId,
    questionId: question!.id,
    easeFactor: 2.6,
    intervalDays: 1,
    repetitions: 1,
    dueAt: new Date(now.getTime() + 86_400_000),
    lastReviewedAt: now,
  });
  const [review] = await db
    .insert(reviews)
    .values({
      userId,
      questionId: question!.id,
      sessionId: session!.id,
      category: "Neuroscience",
      difficulty: 2,
      isCorrect: true,
      selected: ["B"],
      timeSpentMs: 4200,
      reviewedAt: now,
    })
    .returning();
  const [score] = await db
    .insert(priteScores)
    .values({ userId, year: "2023", overallPercentile: 55, psychiatryPercentile: 60 })
    .returning();
  const [key] = await db
    .insert(answerKeys)
    .values({ userId, part: "1", year: 2020 + (seq % 5), answers: { "1": "B", "2": "D" } })
    .returning();
  return { question: question!, session: session!, review: review!, score: score!, key: key! };
}

/** How many rows each user-owned table holds for `userId`. */
export async function ownedCounts(db: Db, userId: string) {
  const c = async (rows: Promise<{ n: number }[]>) => (await rows)[0]?.n ?? 0;
  const n = { n: count() };
  return {
    questions: await c(db.select(n).from(questions).where(eq(questions.creatorId, userId))),
    studyStates: await c(db.select(n).from(studyStates).where(eq(studyStates.userId, userId))),
    reviews: await c(db.select(n).from(reviews).where(eq(reviews.userId, userId))),
    studySessions: await c(
      db.select(n).from(studySessions).where(eq(studySessions.userId, userId)),
    ),
    priteScores: await c(db.select(n).from(priteScores).where(eq(priteScores.userId, userId))),
    answerKeys: await c(db.select(n).from(answerKeys).where(eq(answerKeys.userId, userId))),
    sessions: await c(db.select(n).from(sessions).where(eq(sessions.userId, userId))),
  };
}
