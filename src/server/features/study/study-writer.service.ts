/**
 * The one writer of study states and of the review log (`study_states`, `reviews`): an answer, a
 * rating, a flashcard's rating (flashcard.service.ts), answers synced from offline study, an exam's
 * wrong answers sent to study, the states a scheduler switch replays, and the progress an Anki import
 * keeps all reach the tables through the functions here. `study-writer.test.ts` holds the rule: no
 * other source file inserts or updates either table. Every state change starts from the user's
 * scheduler (`schedulerSettings`), so SM-2 or FSRS applies to each of them alike.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { FLASHCARD, type Difficulty } from "../../../core/constants";
import type { TAnswerInput, TDifficulty } from "../../../core/schemas/study";
import { answerKeyOf, isCorrectSelection } from "../../../core/correctness";
import type { StudyState } from "../../../core/srs";
import type { SchedulerSettings } from "../../../core/srs/fsrs";
import { replayReviews } from "../../../core/srs/replay";
import { placesReviews } from "../../../core/srs/exam-plan";
import { answerState, rateState } from "../../../core/srs/schedule";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/migrate";
import {
  reviews,
  studyResets,
  studySessions,
  studyStates,
  users,
  type StudyStateRow,
} from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import { countStudySetAnswer } from "../programs/assignment-progress";
import type { QuestionJson, StoredQuestion } from "../questions/question-json";
import { questionJsonFor, requireVisibleQuestion } from "../questions/question-access";
import { noteStudyWrite } from "./due-page-cache";
import { placeLive } from "./review-placement";
import {
  answerResultOf,
  normalizedSelection,
  toState,
  type AnswerResult,
  writerContextOf,
  writerUserFields,
  type WriterContext,
} from "./study-writer-context";
import { answerLive, rateLive } from "./study-writer-live";

export { toState, type AnswerResult } from "./study-writer-context";

export const STUDY_SESSION_NOT_FOUND = "Study session not found";
export const NOT_AN_OPTION = "Please select one of the question's options";
export const NO_ANSWER_KEY = "This question has no correct answer yet. Add one in Browse first.";
/** A flashcard has no options to answer: its review is the resident's rating (issue 17). */
export const FLASHCARD_IS_RATED =
  "This is a flashcard: show its back, then rate it Again, Hard, Good or Easy.";

/**
 * The user's scheduler and its settings: the one read every state change starts from, so SM-2 or
 * FSRS applies to every writer (study, sync, exams, flashcards) that goes through this service.
 */
export async function schedulerSettings(tx: Db, userId: string): Promise<SchedulerSettings> {
  return (await writerContext(tx, userId)).settings;
}

/**
 * The same read, with the user's program when they are one of its residents (issue 32): the same row
 * and the same query, so a user without a program costs nothing more for the study sets below.
 */
async function writerContext(tx: Db, userId: string): Promise<WriterContext> {
  const [row] = await tx.select(writerUserFields(users)).from(users).where(eq(users.id, userId));
  if (!row) throw notFound("User not found");
  return writerContextOf(row);
}

/** The user's state of a question, row-locked until the transaction ends (undefined: never studied). */
export async function lockedState(
  tx: Db,
  userId: string,
  questionId: string,
): Promise<StudyStateRow | undefined> {
  const [row] = await tx
    .select()
    .from(studyStates)
    .where(and(eq(studyStates.userId, userId), eq(studyStates.questionId, questionId)))
    .for("update");
  return row;
}

/**
 * Writes one review row and locks the card's state: what every live review (an answer, a flashcard's
 * rating, an exam's wrong answer sent to study) starts with, before it reschedules the card with the
 * user's scheduler. `settings`, when the caller has read them already, saves reading them again.
 */
export async function logReview(
  tx: Db,
  opts: {
    userId: string;
    question: Pick<StoredQuestion, "id" | "category">;
    sessionId?: string;
    /** The exam whose answer this is (decision 170: the statistics count it once). */
    examId?: string;
    review: {
      isCorrect: boolean;
      difficulty: number | null;
      selected: string[];
      timeSpentMs: number;
    };
    now: Date;
    settings?: SchedulerSettings;
  },
): Promise<{ review: { id: number }; before: StudyState; settings: SchedulerSettings }> {
  const { userId, question, now } = opts;
  const [review] = await tx
    .insert(reviews)
    .values({
      userId,
      questionId: question.id,
      sessionId: opts.sessionId ?? null,
      category: question.category,
      ...opts.review,
      reviewedAt: now,
      ...(opts.examId !== undefined && { examId: opts.examId }),
    })
    .returning({ id: reviews.id });
  const current = await lockedState(tx, userId, question.id);
  // An answer given in Study (not an exam's answer sent to study) counts towards the resident's
  // study sets (issue 32): the program comes with the settings' read.
  const inStudy = opts.examId === undefined;
  const context =
    opts.settings && !inStudy
      ? { settings: opts.settings, program: null }
      : await writerContext(tx, userId);
  if (inStudy && context.program) {
    await countStudySetAnswer(tx, {
      userId,
      program: context.program,
      category: question.category,
      isCorrect: opts.review.isCorrect,
      at: now,
    });
  }
  return { review: review!, before: toState(current), settings: opts.settings ?? context.settings };
}

/** A state as the columns of its row. */
function stateColumns(state: StudyState) {
  return {
    easeFactor: state.easeFactor,
    intervalDays: state.intervalDays,
    repetitions: state.repetitions,
    lapses: state.lapses,
    dueAt: state.dueAt,
    lastReviewedAt: state.lastReviewedAt,
    stability: state.stability ?? null,
    fsrsDifficulty: state.fsrsDifficulty ?? null,
  };
}

/** The user's leech threshold, read inside the statement that writes the state. */
const leechThresholdOf = (userId: string) =>
  sql`(select ${users.leechThreshold} from ${users} where ${users.id} = ${userId})`;

/**
 * Upserts the user's study state (SM-2 or FSRS) for a question. The leech mark (decision 372,
 * `isLeechAfter` in src/core/srs/daily.ts) is worked out in the same statement: the failure that
 * brings the lapses to the user's threshold sets it, and it stays set. `now` is when a first write
 * introduces the question (the daily new limit counts these).
 */
export async function saveState(
  tx: Db,
  key: { userId: string; questionId: string },
  state: StudyState,
  pendingReviewId: number | null,
  now?: Date,
): Promise<StudyStateRow> {
  const values = { ...stateColumns(state), pendingReviewId };
  const threshold = leechThresholdOf(key.userId);
  const [row] = await tx
    .insert(studyStates)
    .values({
      ...key,
      ...values,
      leech: sql`${state.lapses}::int >= ${threshold}`,
      ...(now && { introducedAt: now }),
    })
    .onConflictDoUpdate({
      target: [studyStates.userId, studyStates.questionId],
      set: {
        ...values,
        leech: sql`${studyStates.leech} or (excluded.lapses > ${studyStates.lapses} and excluded.lapses >= ${threshold})`,
      },
    })
    .returning();
  return row!;
}

/** A study session of the user's (another user's is indistinguishable from a missing one). */
export async function requireOwnSession(tx: Db, userId: string, sessionId: string): Promise<void> {
  const [session] = await tx
    .select({ id: studySessions.id })
    .from(studySessions)
    .where(and(eq(studySessions.id, sessionId), eq(studySessions.userId, userId)));
  if (!session) throw notFound(STUDY_SESSION_NOT_FOUND);
}

/**
 * Records one answer. Correctness is decided here from the stored answer set, never by the client.
 * The review row and the study state change in one transaction: a wrong answer is a lapse (docs/product/scheduling.md);
 * a right one waits for its difficulty rating (`pendingReviewId`), which schedules it.
 */
export async function recordAnswer(
  db: Db,
  opts: { userId: string; now: Date; input: TAnswerInput & { sessionId?: string } },
): Promise<AnswerResult> {
  const { userId, now, input } = opts;
  const live = await answerLive(db, opts);
  if (live) {
    noteStudyWrite(db, userId);
    return live;
  }
  const result = await db.transaction(async (tx) => {
    const question = await requireVisibleQuestion(tx, userId, input.questionId);
    if (question.questionType === FLASHCARD) throw badRequest(FLASHCARD_IS_RATED);
    const key = answerKeyOf(question);
    if (key.length === 0) throw badRequest(NO_ANSWER_KEY);
    const selected = normalizedSelection(question, input.selected);
    if (!selected) throw badRequest(NOT_AN_OPTION);
    if (input.sessionId) await requireOwnSession(tx, userId, input.sessionId);
    const isCorrect = isCorrectSelection(selected, key);
    const { review, before, settings } = await logReview(tx, {
      userId,
      question,
      sessionId: input.sessionId,
      review: { isCorrect, difficulty: null, selected, timeSpentMs: input.timeSpentMs },
      now,
    });
    // A right answer keeps the schedule until it is rated; a wrong one starts the card over now.
    const after: StudyState = answerState(before, isCorrect, now, settings);
    const state = await saveState(tx, { userId, questionId: question.id }, after, review.id, now);
    const [json] = await questionJsonFor(tx, userId, [question], new Map([[question.id, state]]));
    return answerResultOf(question, {
      isCorrect,
      selected,
      key,
      reviewId: review.id,
      json: json!,
      before,
      now,
      settings,
    });
  });
  noteStudyWrite(db, userId);
  return result;
}

/**
 * The difficulty rating (docs/product/rest-api.md PATCH /questions/{id}/study). After a right answer it schedules with
 * the user's scheduler (SM-2 or FSRS); after a wrong one the lapse already scheduled the card and the rating is only recorded on the
 * review; with no answer waiting (a REST client that only rates) it schedules (decision 020).
 */
export async function rateQuestion(
  db: Db,
  opts: { userId: string; now: Date; questionId: string; difficulty: TDifficulty },
): Promise<QuestionJson> {
  const { userId, now, difficulty } = opts;
  const live = await rateLive(db, opts);
  if (live) {
    noteStudyWrite(db, userId);
    return live;
  }
  const rated = await db.transaction(async (tx) => {
    const question = await requireVisibleQuestion(tx, userId, opts.questionId);
    // A flashcard's rating is its review (rateFlashcard): a bare difficulty would reschedule it
    // with nothing in the log.
    if (question.questionType === FLASHCARD) throw badRequest(FLASHCARD_IS_RATED);
    const current = await lockedState(tx, userId, question.id);
    let pendingCorrect: boolean | null = null;
    if (current?.pendingReviewId != null) {
      const [pending] = await tx
        .update(reviews)
        .set({ difficulty })
        .where(and(eq(reviews.id, current.pendingReviewId), eq(reviews.userId, userId)))
        .returning({ isCorrect: reviews.isCorrect });
      pendingCorrect = pending ? pending.isCorrect : null;
    }
    const settings = await schedulerSettings(tx, userId);
    const next =
      pendingCorrect === false
        ? toState(current)
        : await placeLive(
            tx,
            userId,
            question.id,
            toState(current),
            rateState(toState(current), difficulty, now, settings),
            now,
            settings,
          );
    const state = await saveState(tx, { userId, questionId: question.id }, next, null, now);
    const [json] = await questionJsonFor(tx, userId, [question], new Map([[question.id, state]]));
    return json!;
  });
  noteStudyWrite(db, userId);
  return rated;
}

/**
 * Answers given offline (sync.service.ts, decision 200): the new review rows, then every card they
 * touched rebuilt from its whole log. A row whose client id is already stored (another sync of the
 * same answers committed first) is left out. Answers the rows written.
 */
export async function storeSyncedReviews(
  tx: Db,
  userId: string,
  rows: readonly (typeof reviews.$inferInsert)[],
): Promise<{ clientId: string | null; questionId: string }[]> {
  if (rows.length === 0) return [];
  const inserted = await tx
    .insert(reviews)
    .values([...rows])
    .onConflictDoNothing({
      target: [reviews.userId, reviews.clientId],
      where: sql`${reviews.clientId} IS NOT NULL`,
    })
    .returning({
      clientId: reviews.clientId,
      questionId: reviews.questionId,
      category: reviews.category,
      isCorrect: reviews.isCorrect,
      reviewedAt: reviews.reviewedAt,
    });
  // Cards in one order, so two syncs touching the same cards lock them without deadlocking.
  const cards = [...new Set(inserted.map((r) => r.questionId))].sort();
  if (cards.length > 0) {
    const { settings, program } = await writerContext(tx, userId);
    for (const questionId of cards) await rebuildCard(tx, userId, questionId, settings);
    // Answers given offline count towards study sets as of when they were given (issue 32).
    if (program) {
      for (const r of inserted) {
        await countStudySetAnswer(tx, {
          userId,
          program,
          category: r.category,
          isCorrect: r.isCorrect,
          at: r.reviewedAt,
        });
      }
    }
  }
  return inserted.map((r) => ({ clientId: r.clientId, questionId: r.questionId }));
}

/** The card's state from its whole log, written under the row's lock; an answer awaiting its rating stays so. */
async function rebuildCard(
  tx: Db,
  userId: string,
  questionId: string,
  settings: SchedulerSettings,
): Promise<void> {
  await tx.insert(studyStates).values({ userId, questionId }).onConflictDoNothing();
  const [current] = await tx
    .select({ pendingReviewId: studyStates.pendingReviewId })
    .from(studyStates)
    .where(and(eq(studyStates.userId, userId), eq(studyStates.questionId, questionId)))
    .for("update");
  const log = await tx
    .select({
      isCorrect: reviews.isCorrect,
      difficulty: reviews.difficulty,
      reviewedAt: reviews.reviewedAt,
    })
    .from(reviews)
    .where(and(eq(reviews.userId, userId), eq(reviews.questionId, questionId), afterReset(userId)))
    .orderBy(asc(reviews.reviewedAt), asc(reviews.id));
  const replayable = log.map((r) => ({ ...r, difficulty: r.difficulty as Difficulty | null }));
  let state = replayReviews(replayable, settings);
  // The last review lands where a live one would (the offline copy placed it the same way).
  const last = replayable[replayable.length - 1];
  if (last && placesReviews(settings)) {
    const before = replayReviews(replayable.slice(0, -1), settings);
    state = await placeLive(tx, userId, questionId, before, state, last.reviewedAt, settings);
  }
  await saveState(tx, { userId, questionId }, state, current?.pendingReviewId ?? null);
}

/**
 * Reviews of `reviews` rows that count for the card's state: those after the user last reset the
 * question to new (a leech's Reset), or all of them when it never was.
 */
export const afterReset = (userId: string) =>
  sql`not exists (select 1 from ${studyResets} r where r.user_id = ${userId}
        and r.question_id = ${reviews.questionId} and ${reviews.reviewedAt} <= r.reset_at)`;

/** Rows per statement of the bulk writes below. */
const STATE_CHUNK = 2_000;

/**
 * The states a scheduler switch replayed from the log (scheduler.service.ts, decision 132), written
 * over the stored ones in a few statements; a pending answer stays pending. Cards without a state
 * row are left alone.
 */
export async function saveReplayedStates(
  tx: Db,
  userId: string,
  states: ReadonlyMap<string, StudyState>,
): Promise<void> {
  const rows = [...states].map(([q, s]) => ({
    q,
    ef: s.easeFactor,
    iv: s.intervalDays,
    reps: s.repetitions,
    lapses: s.lapses,
    due: s.dueAt?.toISOString() ?? null,
    last: s.lastReviewedAt?.toISOString() ?? null,
    stab: s.stability ?? null,
    diff: s.fsrsDifficulty ?? null,
  }));
  for (let i = 0; i < rows.length; i += STATE_CHUNK) {
    const json = JSON.stringify(rows.slice(i, i + STATE_CHUNK));
    await tx.execute(sql`
      UPDATE study_states s SET
        ease_factor = v.ef, interval_days = v.iv, repetitions = v.reps, lapses = v.lapses,
        due_at = v.due, last_reviewed_at = v.last, stability = v.stab, fsrs_difficulty = v.diff,
        leech = s.leech OR (v.lapses > s.lapses AND v.lapses >= ${leechThresholdOf(userId)})
      FROM jsonb_to_recordset(${json}::jsonb) AS v(
        q uuid, ef float8, iv int, reps int, lapses int, due timestamptz, last timestamptz,
        stab float8, diff float8)
      WHERE s.user_id = ${userId} AND s.question_id = v.q`);
  }
}

/** Rows per INSERT of imported states: 10 columns × 1000 stays far below PostgreSQL's 65,535 parameters. */
const IMPORT_CHUNK = 1000;

/**
 * "Keep my Anki progress" (imports.service.ts, decision 241): each imported card's state becomes the
 * importer's state of the question, unless they already study it (this app's review log stays the
 * truth for it). Answers how many states were written.
 */
export async function keepImportedStates(
  tx: Db,
  userId: string,
  states: ReadonlyMap<string, StudyState>,
): Promise<number> {
  // Kept progress is not a question introduced today (introducedAt null: the daily limit skips it).
  const rows = [...states].map(([questionId, s]) => ({
    userId,
    questionId,
    ...stateColumns(s),
    introducedAt: null,
  }));
  let written = 0;
  for (let start = 0; start < rows.length; start += IMPORT_CHUNK) {
    const inserted = await tx
      .insert(studyStates)
      .values(rows.slice(start, start + IMPORT_CHUNK))
      .onConflictDoNothing()
      .returning({ questionId: studyStates.questionId });
    written += inserted.length;
  }
  return written;
}

/**
 * A leech's Reset (decision 372): the question goes back to new, exactly as if never studied (its
 * state row is deleted), and replays of the log start after this moment. The review log stays whole
 * (the Leeches list shows it) and the resident still counts among those who found it a leech.
 */
export async function resetToNew(
  tx: Db,
  userId: string,
  questionId: string,
  now: Date,
): Promise<boolean> {
  const deleted = await tx
    .delete(studyStates)
    .where(and(eq(studyStates.userId, userId), eq(studyStates.questionId, questionId)))
    .returning({ questionId: studyStates.questionId });
  await tx
    .insert(studyResets)
    .values({ userId, questionId, resetAt: now })
    .onConflictDoUpdate({
      target: [studyResets.userId, studyResets.questionId],
      set: { resetAt: now },
    });
  return deleted.length > 0;
}

/**
 * A catch-up's new due dates (decision 371): only due_at moves; the memory state, lapses and leech
 * mark stay. Answers how many states moved.
 */
export async function moveDueDates(
  tx: Db,
  userId: string,
  dates: ReadonlyMap<string, Date>,
): Promise<number> {
  const rows = [...dates].map(([q, due]) => ({ q, due: due.toISOString() }));
  let moved = 0;
  for (let i = 0; i < rows.length; i += STATE_CHUNK) {
    const json = JSON.stringify(rows.slice(i, i + STATE_CHUNK));
    const result = await tx.execute(sql`
      UPDATE study_states s SET due_at = v.due
      FROM jsonb_to_recordset(${json}::jsonb) AS v(q uuid, due timestamptz)
      WHERE s.user_id = ${userId} AND s.question_id = v.q
      RETURNING s.question_id`);
    moved += rowsOf(result).length;
  }
  return moved;
}
