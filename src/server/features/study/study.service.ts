/**
 * Study sessions and the study time zone. The due page is due-page.service.ts; answers, ratings and
 * every other write of study states and reviews are study-writer.service.ts.
 */
import { and, eq, isNull, ne } from "drizzle-orm";
import { DUE_PAGE } from "../../../core/constants";
import type { Db } from "../../db/client";
import { studySessions, users, type StudySessionRow } from "../../db/schema";
import { notFound } from "../../errors";
import { validTimeZone } from "../auth/auth.service";
import type { QuestionJson } from "../questions/question-json";
import { listDueQuestions } from "./due-page.service";
import type { DailyUser } from "./new-limit";
import { STUDY_SESSION_NOT_FOUND } from "./study-writer.service";

// What callers that name the study service (the REST layer, tests) read from the two modules.
export { computeDuePage, duePageJson, listDueQuestions } from "./due-page.service";
export { FLASHCARD_IS_RATED, NOT_AN_OPTION, schedulerSettings } from "./study-writer.service";

export interface StartedSession {
  /** Null when nothing is due: an empty start is not a study day (it would extend the streak). */
  session: { id: string; category: string | null; startedAt: string; questionCount: number } | null;
  questions: QuestionJson[];
  total: number;
}

/**
 * Starts a study session: records it (the streak and study history count session days) and hands back
 * the first page of due questions for the client to shuffle (docs/product/states.md).
 */
export async function startSession(
  db: Db,
  opts: { userId: string; now: Date; category?: string; limit?: number; user?: DailyUser },
): Promise<StartedSession> {
  const due = await listDueQuestions(db, {
    userId: opts.userId,
    now: opts.now,
    category: opts.category,
    limit: opts.limit ?? DUE_PAGE.DEFAULT,
    user: opts.user,
  });
  if (due.questions.length === 0) return { session: null, questions: [], total: due.total };
  const [session] = await db
    .insert(studySessions)
    .values({
      userId: opts.userId,
      category: opts.category ? opts.category : null,
      questionCount: due.questions.length,
      startedAt: opts.now,
    })
    .returning();
  return { session: sessionJson(session!), questions: due.questions, total: due.total };
}

function sessionJson(row: StudySessionRow): NonNullable<StartedSession["session"]> {
  return {
    id: row.id,
    category: row.category,
    startedAt: row.startedAt.toISOString(),
    questionCount: row.questionCount,
  };
}

/** Marks a session finished (the Session Complete view); idempotent. */
export async function finishSession(
  db: Db,
  opts: { userId: string; sessionId: string; now: Date },
): Promise<{ success: true }> {
  const [row] = await db
    .update(studySessions)
    .set({ endedAt: opts.now })
    .where(
      and(
        eq(studySessions.id, opts.sessionId),
        eq(studySessions.userId, opts.userId),
        isNull(studySessions.endedAt),
      ),
    )
    .returning({ id: studySessions.id });
  if (!row) {
    const [exists] = await db
      .select({ id: studySessions.id })
      .from(studySessions)
      .where(and(eq(studySessions.id, opts.sessionId), eq(studySessions.userId, opts.userId)));
    if (!exists) throw notFound(STUDY_SESSION_NOT_FOUND);
  }
  return { success: true };
}

/**
 * The time zone stats are computed in: the browser's (x-time-zone) when valid, else the one stored
 * with the user. A new valid zone is remembered, so the CLI and other devices agree.
 */
export async function studyTimeZone(
  db: Db,
  user: { id: string; timeZone: string },
  header: string | null,
): Promise<string> {
  const fromHeader = validTimeZone(header);
  if (fromHeader && fromHeader !== user.timeZone) {
    // The row only when it holds another zone: a session answered from the cache carries the zone
    // it was read with, and rewriting the same value would still write a row version each time.
    await db
      .update(users)
      .set({ timeZone: fromHeader })
      .where(and(eq(users.id, user.id), ne(users.timeZone, fromHeader)));
    return fromHeader;
  }
  return fromHeader ?? validTimeZone(user.timeZone) ?? "UTC";
}
