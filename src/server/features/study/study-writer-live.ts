/**
 * The study writer's live path (issue 35 item 1, docs/decisions/398-study-answer-path.md): an answer
 * and a rating each in one read and one guarded write, prepared once per database handle, as the exam
 * answer does (decision 212). Part of the study writer (study-writer.service.ts calls it first and
 * keeps the locking transaction for everything it declines), so the rule that one module writes
 * study states and reviews holds.
 *
 * - The read: the question if the user may see it, its creator's name and images, the user's
 *   scheduler settings, their state of the question with its row version (`xmin`), the answer waiting
 *   for its rating and whether the study session is the user's: one statement.
 * - The write: one statement, so one transaction. A studied question's state is written only if its
 *   row is still the version read (`xmin`, re-checked by UPDATE … WHERE on the row's newest version
 *   under its lock); a first answer's state only if there is still none (ON CONFLICT DO NOTHING,
 *   decision 406); the review row only with the state. When another write came first nothing is
 *   written and the caller runs the locking transaction, which decides as before.
 *
 * Declined (undefined): a handle without its own client (a transaction), a program's resident (the
 * study sets count in the transaction), and a rating with no state yet.
 *
 * A rating that follows the user's answer through this process starts from what the answer read and
 * wrote, kept per user (decision 427): its one statement re-checks in the write what the read would
 * have found (the state, the user's settings row and the question still the versions kept, the
 * question still visible) and reads what may have changed meanwhile (the creator's name, images, the
 * report notice). When any of it moved nothing is written and the rating reads as before.
 *
 * An answer to a question of the page this process just served starts, in the same way, from what the
 * page's statement read (page-reads.ts, decision 430). Every write returns the user's version as it
 * found it, which moves the due page's kept day sizes on (due-page-cache.ts, decision 429).
 */
import { and, eq, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { LRUCache } from "lru-cache";
import { FLASHCARD, type Difficulty } from "../../../core/constants";
import { answerKeyOf, isCorrectSelection } from "../../../core/correctness";
import type { TAnswerInput } from "../../../core/schemas/study";
import type { StudyState } from "../../../core/srs";
import { answerState, rateState } from "../../../core/srs/schedule";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import { timeRawQuery } from "../../metrics";
import { questions, studyStates, users, type StudyStateRow } from "../../db/schema";
import {
  programBankOf,
  questionColumns,
  reportedNoticeSql,
  toQuestionJson,
  type CreatorInfo,
  type QuestionJson,
  type ReportedNotice,
  type StoredQuestion,
} from "../questions/question-json";
import { noteLiveStudyWrite } from "./due-page-cache";
import { takePageRead, type PageRead } from "./page-reads";
import {
  ANSWER_INSERT,
  ANSWER_INSERT_PAGE,
  ANSWER_UPDATE,
  ANSWER_UPDATE_PAGE,
  RATE_KEPT,
  RATE_WRITE,
} from "./live-statements";
import { placeLive } from "./review-placement";
import {
  answerResultOf,
  normalizedSelection,
  toState,
  writerContextOf,
  writerUserFields,
  type AnswerResult,
  type WriterContext,
} from "./study-writer-context";

const ph = {
  userId: sql.placeholder("userId"),
  questionId: sql.placeholder("questionId"),
  sessionId: sql.placeholder("sessionId"),
};

/** The read of both paths, prepared once per handle. */
function liveRead(db: Db) {
  return prepared(db, "study_live_read", (d, name) => {
    const viewer = users;
    const creator = alias(users, "creator");
    return d
      .select({
        q: questionColumns,
        creator: { username: creator.username, publicProfile: creator.publicProfile },
        state: studyStates,
        version: sql<string | null>`${studyStates}.xmin::text`,
        // The rows the settings and the question come from, as read: a kept answer's rating checks them.
        userVersion: sql<string>`${viewer}.xmin::text`,
        questionVersion: sql<string>`${questions}.xmin::text`,
        user: writerUserFields(viewer),
        images: sql<string[] | null>`(select array_agg(m.sha256 order by m.position)
          from question_media m where m.question_id = ${questions.id})`,
        pendingCorrect: sql<boolean | null>`(select r.is_correct from reviews r
          where r.id = ${studyStates.pendingReviewId} and r.user_id = ${viewer.id})`,
        reported: reportedNoticeSql(),
        ownSession: sql<boolean>`exists (select 1 from study_sessions ss
          where ss.id = ${ph.sessionId}::uuid and ss.user_id = ${viewer.id})`,
      })
      .from(questions)
      .innerJoin(viewer, eq(viewer.id, ph.userId))
      .leftJoin(creator, eq(creator.id, questions.creatorId))
      .leftJoin(
        studyStates,
        and(eq(studyStates.userId, viewer.id), eq(studyStates.questionId, questions.id)),
      )
      .where(
        and(
          eq(questions.id, ph.questionId),
          // visibleTo (question-json.ts) with the user as a placeholder.
          or(
            eq(questions.creatorId, ph.userId),
            eq(questions.isPublic, true),
            programBankOf(ph.userId),
          ),
        ),
      )
      .prepare(name);
  });
}

/** What an answer or a rating starts from: its own read, or the due page's (decision 430). */
export interface LiveRead {
  question: StoredQuestion;
  context: WriterContext;
  state: StudyStateRow | null;
  version: string | null;
  /** Row versions (`xmin`) of the user's row and the question's, as read. */
  userVersion: string;
  questionVersion: string;
}

/** The live path's own read: also the pending answer's outcome, the session's owner and the question's JSON. */
export interface OwnLiveRead extends LiveRead {
  pendingCorrect: boolean | null;
  ownSession: boolean;
  json(state: StudyStateRow): QuestionJson;
}

type RawClient = {
  unsafe?: (text: string, params: unknown[], opts: { prepare: boolean }) => Promise<unknown[]>;
  query?: (text: string, params: unknown[]) => Promise<{ rows: unknown[] }>;
};

/** The handle's own client (postgres.js or PGlite); a transaction's handle has none. */
function clientOf(db: Db): RawClient | null {
  const client = (db as unknown as { $client?: RawClient }).$client;
  return client && (client.unsafe || client.query) ? client : null;
}

/** Whether this handle takes the live path at all. */
export const liveCapable = (db: Db) => clientOf(db) !== null;

/**
 * What the writes start from, from the rows as read (the live path's own read or the due page's), or
 * undefined for a program's resident: the transaction counts the program's study sets.
 */
function liveReadOf(read: PageRead): LiveRead | undefined {
  const context = writerContextOf(read.user);
  if (context.program) return undefined;
  return {
    question: read.question,
    context,
    state: read.state,
    version: read.stateVersion,
    userVersion: read.userVersion,
    questionVersion: read.questionVersion,
  };
}

/**
 * The question (null: not visible to the user, or no such user) with everything both writes need,
 * or undefined when the live path declines.
 */
export async function readLive(
  db: Db,
  key: { userId: string; questionId: string; sessionId?: string },
): Promise<OwnLiveRead | null | undefined> {
  if (!clientOf(db)) return undefined;
  const [row] = await liveRead(db).execute({
    userId: key.userId,
    questionId: key.questionId,
    sessionId: key.sessionId ?? null,
  });
  if (!row) return null;
  const read = liveReadOf({
    question: row.q,
    user: row.user,
    state: row.state,
    stateVersion: row.version,
    userVersion: row.userVersion,
    questionVersion: row.questionVersion,
  });
  if (!read) return undefined;
  return {
    ...read,
    pendingCorrect: row.pendingCorrect,
    ownSession: row.ownSession,
    json: (state) =>
      toQuestionJson(row.q, {
        viewerId: key.userId,
        creator: row.creator,
        studyState: state,
        images: row.images ?? undefined,
        reported: row.reported,
      }),
  };
}

async function run(
  db: Db,
  operation: "insert" | "update",
  text: string,
  params: unknown[],
): Promise<Record<string, unknown>[]> {
  const client = clientOf(db)!;
  const rows = await timeRawQuery(operation, async () =>
    client.unsafe
      ? await client.unsafe(text, params, { prepare: true })
      : (await client.query!(text, params)).rows,
  );
  return rows as Record<string, unknown>[];
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

function stateParams(key: { userId: string; questionId: string }, s: StudyState): unknown[] {
  return [
    key.userId,
    key.questionId,
    s.easeFactor,
    s.intervalDays,
    s.repetitions,
    s.lapses,
    iso(s.dueAt),
    iso(s.lastReviewedAt),
    s.stability ?? null,
    s.fsrsDifficulty ?? null,
  ];
}

const dateOf = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)));

function stateRowOf(r: Record<string, unknown>): StudyStateRow {
  return {
    userId: String(r.user_id),
    questionId: String(r.question_id),
    easeFactor: Number(r.ease_factor),
    intervalDays: Number(r.interval_days),
    repetitions: Number(r.repetitions),
    lapses: Number(r.lapses),
    dueAt: dateOf(r.due_at),
    lastReviewedAt: dateOf(r.last_reviewed_at),
    stability: r.stability == null ? null : Number(r.stability),
    fsrsDifficulty: r.fsrs_difficulty == null ? null : Number(r.fsrs_difficulty),
    pendingReviewId: r.pending_review_id == null ? null : Number(r.pending_review_id),
    available: Boolean(r.available),
    leech: Boolean(r.leech),
    introducedAt: dateOf(r.introduced_at),
  };
}

/** A state as a live write left it, with its row version (`xmin`). */
export interface LiveWritten {
  state: StudyStateRow;
  version: string;
}

/**
 * Tells the due page's kept day sizes (due-page-cache.ts, decision 429) about a live write of the
 * user's that committed: the version it found, the question and its state before.
 */
function noteWrite(
  db: Db,
  userId: string,
  row: Record<string, unknown>,
  question: StoredQuestion,
  before: StudyStateRow | null,
): void {
  noteLiveStudyWrite(db, userId, {
    versionBefore: String(row.version_before),
    reviewsWritten: Number(row.reviews_written),
    question,
    before,
    after: stateRowOf(row),
  });
}

function writtenOf(
  db: Db,
  userId: string,
  read: LiveRead,
  row: Record<string, unknown> | undefined,
): LiveWritten | null {
  if (!row) return null;
  noteWrite(db, userId, row, read.question, read.state);
  return { state: stateRowOf(row), version: String(row.row_version) };
}

type AnswerWrite = {
  userId: string;
  after: StudyState;
  now: Date;
  sessionId?: string;
  review: { isCorrect: boolean; selected: string; timeSpentMs: number };
};

/**
 * The answer's statement: from the live path's own read, or from the due page's (`fromPage`: the
 * rows it read checked in the write, the question's changing parts read fresh).
 */
async function writeAnswerRow(
  db: Db,
  read: LiveRead,
  opts: AnswerWrite,
  fromPage: boolean,
): Promise<Record<string, unknown> | undefined> {
  const key = { userId: opts.userId, questionId: read.question.id };
  const params = [
    ...stateParams(key, opts.after),
    opts.now.toISOString(),
    opts.sessionId ?? null,
    read.question.category,
    opts.review.isCorrect,
    opts.review.selected,
    opts.review.timeSpentMs,
  ];
  const rowVersions = fromPage ? [read.userVersion, read.questionVersion] : [];
  const [row] =
    read.version === null
      ? await run(db, "insert", fromPage ? ANSWER_INSERT_PAGE : ANSWER_INSERT, [
          ...params,
          ...rowVersions,
        ])
      : await run(db, "insert", fromPage ? ANSWER_UPDATE_PAGE : ANSWER_UPDATE, [
          ...params,
          read.version,
          ...rowVersions,
        ]);
  return row;
}

/** The answer's review and state in one statement, or null when another write came first. */
export async function writeLiveAnswer(
  db: Db,
  read: LiveRead,
  opts: AnswerWrite,
): Promise<LiveWritten | null> {
  return writtenOf(db, opts.userId, read, await writeAnswerRow(db, read, opts, false));
}

/** The rating's state and the pending review's difficulty: the state row, or null when another write came first. */
export async function writeLiveRating(
  db: Db,
  read: LiveRead,
  opts: { userId: string; next: StudyState; difficulty: number },
): Promise<StudyStateRow | null> {
  const key = { userId: opts.userId, questionId: read.question.id };
  const [row] = await run(db, "update", RATE_WRITE, [
    ...stateParams(key, opts.next),
    read.version,
    opts.difficulty,
    read.state?.pendingReviewId ?? null,
  ]);
  if (!row) return null;
  noteWrite(db, opts.userId, row, read.question, read.state);
  return stateRowOf(row);
}

/** An answer through the live path, kept for the rating that normally follows it (decision 427). */
interface KeptAnswer {
  read: LiveRead;
  /** The state the answer wrote (its review pending) and that state's row version. */
  written: LiveWritten;
  isCorrect: boolean;
}

/**
 * Per database handle, each user's latest live answer. Only a shortcut: an entry forgotten, or
 * answered in another process, leaves the rating to its read, and the rating's write re-checks every
 * row the entry came from. A few thousand users studying at once fit; an hour-old answer is not
 * worth its memory.
 */
const keptAnswers = new WeakMap<Db, LRUCache<string, KeptAnswer>>();

function keptAnswersOf(db: Db): LRUCache<string, KeptAnswer> {
  let kept = keptAnswers.get(db);
  if (!kept) keptAnswers.set(db, (kept = new LRUCache({ max: 4096, ttl: 60 * 60 * 1000 })));
  return kept;
}

/** The user's kept answer to this question, taken out (a rating uses it once). */
function takeKeptAnswer(db: Db, userId: string, questionId: string): KeptAnswer | undefined {
  const kept = keptAnswersOf(db);
  const answer = kept.get(userId);
  if (!answer || answer.read.question.id !== questionId) return undefined;
  kept.delete(userId);
  return answer;
}

/** How many ratings were written from a kept answer (the tests check that they were). */
export const keptRatings = { count: 0 };

/** PostgreSQL's text form of a text[] (`{"A","C"}`): option letters, sent as one parameter. */
const textArray = (values: readonly string[]) => `{${values.map((v) => `"${v}"`).join(",")}}`;

/** The question's JSON from a statement that read its changing parts fresh (WITH_FRESH_PARTS). */
function jsonWithFreshParts(
  question: StoredQuestion,
  viewerId: string,
  row: Record<string, unknown>,
): QuestionJson {
  const creator: CreatorInfo | null =
    row.creator_username == null
      ? null
      : {
          username: String(row.creator_username),
          publicProfile: Boolean(row.creator_public_profile),
        };
  return toQuestionJson(question, {
    viewerId,
    creator,
    studyState: stateRowOf(row),
    images: (row.images as string[] | null) ?? undefined,
    reported: (row.reported as ReportedNotice | null) ?? null,
  });
}

/** How many answers were written from the due page's read (the tests check that they were). */
export const pageReadAnswers = { count: 0 };

/**
 * recordAnswer's live path: the same checks and the same writes, or undefined for the locking
 * transaction (any refusal included, so its message and order stay that path's). It starts from the
 * due page's read of the question when this process served the user's page (decision 430), and from
 * its own read when there is none or the rows the page read have changed since.
 */
export async function answerLive(
  db: Db,
  opts: { userId: string; now: Date; input: TAnswerInput & { sessionId?: string } },
): Promise<AnswerResult | undefined> {
  const { userId, input } = opts;
  // Whatever happens to this answer, an older kept one of the user's is no longer the latest.
  keptAnswersOf(db).delete(userId);
  const page = takePageRead(db, userId, input.questionId);
  const fromPage = page && liveReadOf(page);
  if (fromPage) {
    const answered = await answerFrom(db, opts, fromPage, null);
    if (answered) {
      pageReadAnswers.count += 1;
      return answered;
    }
  }
  const read = await readLive(db, {
    userId,
    questionId: input.questionId,
    sessionId: input.sessionId,
  });
  if (!read) return undefined;
  if (input.sessionId && !read.ownSession) return undefined;
  return answerFrom(db, opts, read, read);
}

/**
 * The answer written from `read`: the live path's own (`own`, whose JSON it answers with), or the due
 * page's (null: the write checks the rows it read and the session, and reads the question's changing
 * parts fresh).
 */
async function answerFrom(
  db: Db,
  opts: { userId: string; now: Date; input: TAnswerInput & { sessionId?: string } },
  read: LiveRead,
  own: OwnLiveRead | null,
): Promise<AnswerResult | undefined> {
  const { userId, now, input } = opts;
  const question = read.question;
  if (question.questionType === FLASHCARD) return undefined;
  const key = answerKeyOf(question);
  if (key.length === 0) return undefined;
  const selected = normalizedSelection(question, input.selected);
  if (!selected) return undefined;
  const isCorrect = isCorrectSelection(selected, key);
  const settings = read.context.settings;
  const before = toState(read.state ?? undefined);
  const after = answerState(before, isCorrect, now, settings);

  const row = await writeAnswerRow(
    db,
    read,
    {
      userId,
      after,
      now,
      sessionId: input.sessionId,
      review: { isCorrect, selected: textArray(selected), timeSpentMs: input.timeSpentMs },
    },
    own === null,
  );
  const written = writtenOf(db, userId, read, row);
  if (!written) return undefined;
  keptAnswersOf(db).set(userId, { read, written, isCorrect });
  return answerResultOf(question, {
    isCorrect,
    selected,
    key,
    reviewId: written.state.pendingReviewId!,
    json: own ? own.json(written.state) : jsonWithFreshParts(question, userId, row!),
    before,
    now,
    settings,
  });
}

/**
 * The rating's state from the answer's scheduler settings and state: after a wrong answer the lapse
 * already scheduled the card and the rating only records its difficulty (decision 020).
 */
async function ratedState(
  db: Db,
  opts: { userId: string; now: Date; difficulty: Difficulty },
  read: LiveRead,
  state: StudyStateRow,
  pendingCorrect: boolean | null,
): Promise<StudyState> {
  const settings = read.context.settings;
  const current = toState(state);
  if (pendingCorrect === false) return current;
  const rated = rateState(current, opts.difficulty, opts.now, settings);
  return placeLive(db, opts.userId, read.question.id, current, rated, opts.now, settings);
}

/** A kept answer's rating in one statement, or undefined when a row it came from has changed. */
async function rateKept(
  db: Db,
  opts: { userId: string; now: Date; difficulty: Difficulty },
  kept: KeptAnswer,
): Promise<QuestionJson | undefined> {
  const { read, written } = kept;
  const next = await ratedState(db, opts, read, written.state, kept.isCorrect);
  const [row] = await run(db, "update", RATE_KEPT, [
    ...stateParams({ userId: opts.userId, questionId: read.question.id }, next),
    written.version,
    opts.difficulty,
    written.state.pendingReviewId,
    read.userVersion,
    read.questionVersion,
  ]);
  if (!row) return undefined;
  noteWrite(db, opts.userId, row, read.question, written.state);
  keptRatings.count += 1;
  return jsonWithFreshParts(read.question, opts.userId, row);
}

/** rateQuestion's live path for a studied question, or undefined for the locking transaction. */
export async function rateLive(
  db: Db,
  opts: { userId: string; now: Date; questionId: string; difficulty: Difficulty },
): Promise<QuestionJson | undefined> {
  const kept = takeKeptAnswer(db, opts.userId, opts.questionId);
  if (kept) {
    const rated = await rateKept(db, opts, kept);
    if (rated) return rated;
  }
  const read = await readLive(db, { userId: opts.userId, questionId: opts.questionId });
  if (!read || !read.state || read.question.questionType === FLASHCARD) return undefined;
  const pendingCorrect = read.state.pendingReviewId != null ? read.pendingCorrect : null;
  const next = await ratedState(db, opts, read, read.state, pendingCorrect);
  const state = await writeLiveRating(db, read, {
    userId: opts.userId,
    next,
    difficulty: opts.difficulty,
  });
  return state ? read.json(state) : undefined;
}
