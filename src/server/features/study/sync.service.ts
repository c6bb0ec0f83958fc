import { and, eq, inArray } from "drizzle-orm";
import { answerKeyOf, isCorrectSelection } from "../../../core/correctness";
import { FLASHCARD, SYNC } from "../../../core/constants";
import { flashcardReview } from "../../../core/srs/flashcard";
import { SYNC_MESSAGES, type SyncStatus, type TSyncReview } from "../../../core/schemas/study";
import type { SchedulerSettings } from "../../../core/srs/fsrs";
import type { Db } from "../../db/client";
import { questions, reviews, studyStates, type QuestionRow } from "../../db/schema";
import { visibleTo } from "../questions/question-json";
import type { QuestionJson } from "../questions/question-json";
import { NOT_A_FLASHCARD } from "./flashcard.service";
import type { DailyUser } from "./new-limit";
import { listDueQuestions } from "./due-page.service";
import {
  FLASHCARD_IS_RATED,
  NO_ANSWER_KEY,
  NOT_AN_OPTION,
  schedulerSettings,
  storeSyncedReviews,
} from "./study-writer.service";
import { dueLoads } from "./review-placement";

export interface SyncResult {
  id: string;
  status: SyncStatus;
  /** Why a refused answer can never be stored, in words the app shows. */
  reason?: string;
}

export interface SyncJson {
  results: SyncResult[];
  applied: number;
  duplicates: number;
  refused: number;
}

const DAY_MS = 86_400_000;

/** Why one answer cannot be stored, or null when it can. */
function refusal(review: TSyncReview, at: Date, question: QuestionRow | undefined, now: Date) {
  if (at.getTime() > now.getTime() + SYNC.CLOCK_SKEW_MS) return SYNC_MESSAGES.FUTURE;
  if (at.getTime() < now.getTime() - SYNC.MAX_AGE_DAYS * DAY_MS) return SYNC_MESSAGES.TOO_OLD;
  if (!question) return SYNC_MESSAGES.QUESTION_GONE;
  // A flashcard's review is its rating (issue 17); a multiple-choice answer is a selection.
  if (question.questionType === FLASHCARD) return review.rating ? null : FLASHCARD_IS_RATED;
  if (review.rating) return NOT_A_FLASHCARD;
  if (answerKeyOf(question).length === 0) return NO_ANSWER_KEY;
  const letters = new Set(Object.keys(question.options));
  if (review.selected.some((l) => !letters.has(l.toUpperCase()))) return NOT_AN_OPTION;
  return null;
}

/**
 * Answers given offline, stored exactly once (issue 18, decision 200). An id already stored for this
 * user is a duplicate and changes nothing, so a device may resend a batch whose answer it never got.
 * Every card an answer touched is then rebuilt from its whole review log in the order the answers
 * were given, so answers from two devices that studied the same card offline are both kept and
 * scheduled as if given one after the other. One transaction: a sync is stored whole or not at all.
 */
export async function syncReviews(
  db: Db,
  opts: { userId: string; now: Date; reviews: readonly TSyncReview[] },
): Promise<SyncJson> {
  const { userId, now } = opts;
  const ids = opts.reviews.map((r) => r.id.toLowerCase());
  return db.transaction(async (tx) => {
    const stored = await tx
      .select({ clientId: reviews.clientId })
      .from(reviews)
      .where(and(eq(reviews.userId, userId), inArray(reviews.clientId, ids)));
    const already = new Set(stored.map((r) => r.clientId));

    const questionIds = [...new Set(opts.reviews.map((r) => r.questionId.toLowerCase()))];
    const found = await tx
      .select()
      .from(questions)
      .where(and(inArray(questions.id, questionIds), visibleTo(userId)));
    const byId = new Map(found.map((q) => [q.id, q]));

    const results = new Map<string, SyncResult>();
    const rows: (typeof reviews.$inferInsert)[] = [];
    const considered = new Set<string>();
    opts.reviews.forEach((review, i) => {
      const id = ids[i]!;
      // An id repeated within the batch is the same answer sent twice: the first one counts, and the
      // list below answers the repeats as duplicates.
      if (considered.has(id)) return;
      considered.add(id);
      if (already.has(id)) {
        results.set(id, { id: review.id, status: "duplicate" });
        return;
      }
      const at = new Date(review.reviewedAt);
      const question = byId.get(review.questionId.toLowerCase());
      const reason = refusal(review, at, question, now);
      if (reason || !question) {
        results.set(id, { id: review.id, status: "refused", reason: reason ?? undefined });
        return;
      }
      const selected = review.rating
        ? []
        : [...new Set(review.selected.map((l) => l.toUpperCase()))].sort();
      const isCorrect = isCorrectSelection(selected, answerKeyOf(question));
      rows.push({
        userId,
        questionId: question.id,
        category: question.category,
        selected,
        // A flashcard's rating says both (decision 235); after an answer, a rating only means
        // something when it was right (decision 020).
        ...(review.rating
          ? flashcardReview(review.rating)
          : { isCorrect, difficulty: isCorrect ? review.difficulty : null }),
        timeSpentMs: review.timeSpentMs,
        reviewedAt: at,
        clientId: id,
      });
    });

    // Another sync of the same answers may have committed since the read above: its rows win.
    const inserted = await storeSyncedReviews(tx, userId, rows);
    const insertedIds = new Set(inserted.map((r) => r.clientId));
    for (const row of rows) {
      const id = row.clientId!;
      const status = insertedIds.has(id) ? "applied" : "duplicate";
      results.set(id, { id: opts.reviews[ids.indexOf(id)]!.id, status });
    }

    const listed = new Set<string>();
    const list = ids.map((id, i) => {
      if (listed.has(id)) return { id: opts.reviews[i]!.id, status: "duplicate" as const };
      listed.add(id);
      return results.get(id)!;
    });
    const count = (s: SyncStatus) => list.filter((r) => r.status === s).length;
    return {
      results: list,
      applied: count("applied"),
      duplicates: count("duplicate"),
      refused: count("refused"),
    };
  });
}

/** A card's full scheduling state as the browser needs it to reschedule offline (times as ISO text). */
export interface OfflineState {
  easeFactor: number;
  intervalDays: number;
  repetitions: number;
  lapses: number;
  dueAt: string | null;
  lastReviewedAt: string | null;
  stability: number | null;
  fsrsDifficulty: number | null;
}

export interface OfflineCopy {
  /** The next due questions in the due list's order, with everything Study and its explanation show. */
  questions: QuestionJson[];
  /** The caller's state of each of them that has one (never-studied questions have none). */
  states: Record<string, OfflineState>;
  /** The caller's scheduler, so the browser reschedules with the same rules as the server. */
  settings: SchedulerSettings;
  /**
   * Reviews due per local day over the next OFFLINE_LOAD_DAYS days (issue 34): what the load balancer
   * reads offline, so a review rated offline lands on the day the server would pick.
   */
  dayLoads?: Record<string, number>;
  savedAt: string;
}

/** Days of due counts the offline copy carries for the load balancer. */
export const OFFLINE_LOAD_DAYS = 400;

/**
 * What the app keeps for studying offline (issue 18): the due list's first `limit` questions, their
 * full study states (FSRS memory included, which the question JSON leaves out) and the scheduler.
 */
export async function offlineCopy(
  db: Db,
  opts: { userId: string; now: Date; limit: number; user?: DailyUser },
): Promise<OfflineCopy> {
  const page = await listDueQuestions(db, {
    userId: opts.userId,
    now: opts.now,
    limit: opts.limit,
    user: opts.user,
  });
  const ids = page.questions.map((q) => q._id);
  const rows =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(studyStates)
          .where(and(eq(studyStates.userId, opts.userId), inArray(studyStates.questionId, ids)));
  const states: Record<string, OfflineState> = {};
  for (const r of rows) {
    states[r.questionId] = {
      easeFactor: r.easeFactor,
      intervalDays: r.intervalDays,
      repetitions: r.repetitions,
      lapses: r.lapses,
      dueAt: r.dueAt?.toISOString() ?? null,
      lastReviewedAt: r.lastReviewedAt?.toISOString() ?? null,
      stability: r.stability,
      fsrsDifficulty: r.fsrsDifficulty,
    };
  }
  const settings = await schedulerSettings(db, opts.userId);
  const loads = settings.placement
    ? await dueLoads(
        db,
        opts.userId,
        {
          from: opts.now,
          to: new Date(opts.now.getTime() + OFFLINE_LOAD_DAYS * 86_400_000),
        },
        settings.placement.timeZone,
        null,
      )
    : new Map<string, number>();
  return {
    questions: page.questions,
    states,
    settings,
    dayLoads: Object.fromEntries(loads),
    savedAt: opts.now.toISOString(),
  };
}
