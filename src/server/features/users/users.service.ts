import { and, asc, eq, ne, sql } from "drizzle-orm";
import { recordAudit, type AuditMeta } from "../audit/audit.service";
import type { TProfileInput, TSettingsInput } from "../../../core/schemas";
import { invalidateUserSessions } from "../../auth/session";
import type { Db } from "../../db/client";
import {
  answerKeys,
  exams,
  loginAttempts,
  mockExams,
  priteScores,
  questions,
  reviews,
  studySessions,
  studyStates,
  users,
  type UserRow,
} from "../../db/schema";
import { AppError, isUniqueViolation } from "../../errors";
import {
  questionColumns,
  imagesByQuestion,
  toQuestionJson,
  toStudyDataJson,
  type QuestionJson,
} from "../questions/question-json";
import { toPriteScoreJson } from "../scores/score-json";
import { loadUserJson } from "./user-json";
import {
  EXPORT_VERSION,
  STUDY_DATA_FORMAT,
  USER_MESSAGES,
  type StudyDataExport,
} from "./users.types";

async function requireUser(db: Db, userId: string): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw new AppError("UNAUTHORIZED", USER_MESSAGES.USER_NOT_FOUND);
  return row;
}

/** PUT /users/profile: absent fields stay as they are; the username never changes. */
export async function updateProfile(
  db: Db,
  userId: string,
  input: TProfileInput,
): Promise<UserRow> {
  const changes: Partial<UserRow> = {};
  if (input.email !== undefined) changes.email = input.email;
  if (input.displayName !== undefined) changes.displayName = input.displayName;
  if (input.pgyLevel !== undefined) changes.pgyLevel = input.pgyLevel;
  if (input.specialty !== undefined) changes.specialty = input.specialty;
  if (input.institution !== undefined) changes.institution = input.institution;
  if (Object.keys(changes).length === 0) return requireUser(db, userId);
  if (changes.email !== undefined) {
    const [clash] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = lower(${changes.email})`, ne(users.id, userId)))
      .limit(1);
    if (clash) throw new AppError("CONFLICT", USER_MESSAGES.EMAIL_TAKEN);
  }
  try {
    const [row] = await db.update(users).set(changes).where(eq(users.id, userId)).returning();
    if (!row) throw new AppError("UNAUTHORIZED", USER_MESSAGES.USER_NOT_FOUND);
    return row;
  } catch (err) {
    // Two accounts claiming one address at the same moment: the unique index decides.
    if (isUniqueViolation(err)) throw new AppError("CONFLICT", USER_MESSAGES.EMAIL_TAKEN);
    throw err;
  }
}

/** PUT /users/settings: both privacy toggles. */
export async function updateSettings(
  db: Db,
  userId: string,
  input: TSettingsInput,
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({
      shareUsageData: input.settings.shareUsageData,
      publicProfile: input.settings.publicProfile,
    })
    .where(eq(users.id, userId))
    .returning();
  if (!row) throw new AppError("UNAUTHORIZED", USER_MESSAGES.USER_NOT_FOUND);
  return row;
}

/** Remembers that the PRITE scores form was offered; the first time only counts. */
export async function markScoresOnboardingOffered(
  db: Db,
  userId: string,
  now: Date,
): Promise<UserRow> {
  await db
    .update(users)
    .set({ scoresOnboardingOfferedAt: now })
    .where(and(eq(users.id, userId), sql`${users.scoresOnboardingOfferedAt} is null`));
  return requireUser(db, userId);
}

/**
 * Everything the server keeps about the user's studying, read in one transaction so the parts agree
 * (a review never points at a session the export left out).
 */
export async function exportStudyData(db: Db, userId: string, now: Date): Promise<StudyDataExport> {
  return db.transaction(async (tx) => {
    const user = await loadUserJson(tx, await requireUser(tx, userId));
    const states = await tx
      .select()
      .from(studyStates)
      .where(eq(studyStates.userId, userId))
      .orderBy(asc(studyStates.questionId));
    const log = await tx
      .select()
      .from(reviews)
      .where(eq(reviews.userId, userId))
      .orderBy(asc(reviews.reviewedAt), asc(reviews.id));
    const sessionRows = await tx
      .select()
      .from(studySessions)
      .where(eq(studySessions.userId, userId))
      .orderBy(asc(studySessions.startedAt), asc(studySessions.id));
    const scores = await tx
      .select()
      .from(priteScores)
      .where(eq(priteScores.userId, userId))
      .orderBy(asc(priteScores.year), asc(priteScores.createdAt));
    const keys = await tx
      .select()
      .from(answerKeys)
      .where(eq(answerKeys.userId, userId))
      .orderBy(asc(answerKeys.year), asc(answerKeys.part));
    return {
      format: STUDY_DATA_FORMAT,
      version: EXPORT_VERSION,
      exportedAt: now.toISOString(),
      user,
      studyStates: states.map((s) => {
        const { user: _user, ...rest } = toStudyDataJson(s);
        return { questionId: s.questionId, ...rest };
      }),
      reviews: log.map((r) => ({
        id: r.id,
        questionId: r.questionId,
        sessionId: r.sessionId,
        category: r.category,
        difficulty: r.difficulty,
        isCorrect: r.isCorrect,
        selected: r.selected,
        timeSpentMs: r.timeSpentMs,
        reviewedAt: r.reviewedAt.toISOString(),
      })),
      studySessions: sessionRows.map((s) => ({
        _id: s.id,
        category: s.category,
        questionCount: s.questionCount,
        startedAt: s.startedAt.toISOString(),
        endedAt: s.endedAt ? s.endedAt.toISOString() : null,
      })),
      priteScores: scores.map(toPriteScoreJson),
      answerKeys: keys.map((k) => ({
        part: k.part,
        year: k.year,
        answers: k.answers,
        createdAt: k.createdAt.toISOString(),
        updatedAt: k.updatedAt.toISOString(),
      })),
    };
  });
}

// The generated search column repeats text, options and explanation: never exported.

/** The questions the user created (not public ones of others), oldest first, with their own study entry. */
export async function exportQuestions(db: Db, userId: string): Promise<QuestionJson[]> {
  const [owner] = await db
    .select({ username: users.username, publicProfile: users.publicProfile })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  const rows = await db
    .select({ q: questionColumns, state: studyStates })
    .from(questions)
    .leftJoin(
      studyStates,
      and(eq(studyStates.questionId, questions.id), eq(studyStates.userId, userId)),
    )
    .where(eq(questions.creatorId, userId))
    .orderBy(asc(questions.createdAt), asc(questions.id));
  const images = await imagesByQuestion(
    db,
    rows.map((r) => r.q.id),
  );
  return rows.map((r) =>
    toQuestionJson(r.q, {
      viewerId: userId,
      creator: owner ?? null,
      studyState: r.state,
      images: images.get(r.q.id),
    }),
  );
}

/** Clears the user's study state, review log and study sessions; their questions and scores stay. */
export async function resetStudyProgress(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(reviews).where(eq(reviews.userId, userId));
    await tx.delete(studyStates).where(eq(studyStates.userId, userId));
    await tx.delete(studySessions).where(eq(studySessions.userId, userId));
    // Exam answers count in the statistics (decision 170): a reset leaves none behind.
    await tx.delete(exams).where(eq(exams.userId, userId));
  });
}

/**
 * Removes the account and everything it owns in one transaction: sessions (so every token answers 401),
 * study data, scores, answer keys, sign-in throttling records and the questions the user created
 * (with other users' progress on them, which cannot outlive the questions).
 */
export async function deleteAccount(db: Db, userId: string, meta: AuditMeta): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!row) throw new AppError("UNAUTHORIZED", USER_MESSAGES.USER_NOT_FOUND);
    // Written first: the foreign key keeps the entry, with the username, when the row goes.
    await recordAudit(tx, {
      kind: "account.deleted",
      actor: { id: userId, username: row.username },
      ...meta,
    });
    await invalidateUserSessions(tx, userId);
    await tx.delete(reviews).where(eq(reviews.userId, userId));
    await tx.delete(studyStates).where(eq(studyStates.userId, userId));
    await tx.delete(studySessions).where(eq(studySessions.userId, userId));
    await tx.delete(priteScores).where(eq(priteScores.userId, userId));
    await tx.delete(answerKeys).where(eq(answerKeys.userId, userId));
    await tx.delete(exams).where(eq(exams.userId, userId));
    // Takers' own attempts stay theirs (exams.mock_exam_id is set to null).
    await tx.delete(mockExams).where(eq(mockExams.creatorId, userId));
    await tx.delete(questions).where(eq(questions.creatorId, userId));
    await tx
      .delete(loginAttempts)
      .where(eq(loginAttempts.usernameKey, row.username.trim().toLowerCase()));
    await tx.delete(users).where(eq(users.id, userId));
  });
}
