import { and, asc, count, desc, eq, ne, sql } from "drizzle-orm";
import { answerKeyOf } from "../../../core/correctness";
import {
  analyseItems,
  drawBlueprint,
  scoreSpread,
  toCsv,
  type ExamMode,
  type ExamPart,
  type ItemStatistics,
  type ScoreSpread,
} from "../../../core/exams";
import { randomJoinCode } from "../../../core/join-code";
import { categoryLabel } from "../../../core/stats";
import type { Db } from "../../db/client";
import {
  examAnswers,
  exams,
  mockExamQuestions,
  mockExams,
  questions,
  users,
  type MockExamRow,
  type UserRow,
} from "../../db/schema";
import { badRequest, forbidden, isUniqueViolation, notFound } from "../../errors";
import { examView } from "./exam-answers.service";
import {
  eligiblePool,
  insertExam,
  newSeed,
  settingsFilter,
  smallerExamNotice,
} from "./exam-create.service";
import { loadOwnExam, type ExamView } from "./exams.service";

export const MOCK_ERRORS = {
  UNKNOWN_CODE: "No mock exam has this join code. Check the code and try again.",
  CLOSED: "This mock exam is closed to new takers.",
  NOT_CREATOR: "Only the mock exam's creator and admins can see its results.",
  NOT_CREATOR_CLOSE: "Only the mock exam's creator can close it.",
  NO_PUBLIC_QUESTIONS:
    "No public questions match these settings, so there is nothing every taker could see.",
} as const;

export interface MockExamSummary {
  id: string;
  code: string;
  mode: ExamMode;
  part: ExamPart;
  categories: string[];
  secondsPerQuestion: number;
  questionCount: number;
  closed: boolean;
  createdAt: string;
  creator: string;
  /** Takers who have finished; in progress ones are counted apart. */
  takers: number;
  inProgress: number;
  /** Mean percent right of the finished takers; null before any. */
  meanPercent: number | null;
}

/**
 * Turns one of the caller's exams' settings into a shared mock exam: a fresh draw of the same size,
 * part and categories from public questions only, so every taker may see each one (issue 16 item 6).
 */
export async function shareExam(
  db: Db,
  opts: { userId: string; examId: string; now: Date },
): Promise<{ mockExam: MockExamSummary; questionIds: string[]; notice: string | null }> {
  const exam = await loadOwnExam(db, opts);
  const settings = {
    part: exam.part as ExamPart,
    categories: exam.categories,
  };
  const pool = await eligiblePool(db, and(eq(questions.isPublic, true), settingsFilter(settings)));
  const seed = newSeed();
  const drawn = drawBlueprint({ pool, size: exam.requestedSize, seed });
  if (drawn.questionIds.length === 0) throw badRequest(MOCK_ERRORS.NO_PUBLIC_QUESTIONS);
  const row = await insertMockExam(db, {
    values: {
      creatorId: opts.userId,
      mode: exam.mode,
      part: exam.part,
      categories: exam.categories,
      secondsPerQuestion: exam.secondsPerQuestion,
      seed,
      createdAt: opts.now,
    },
    questionIds: drawn.questionIds,
  });
  return {
    mockExam: (await mockSummaries(db, { id: row.id }))[0]!,
    questionIds: drawn.questionIds,
    notice: smallerExamNotice(exam.requestedSize, drawn.questionIds.length),
  };
}

/**
 * Writes a mock exam under a fresh join code with its questions in order, and `then` in the same
 * transaction (a program assignment's row, issue 32). A code already in use fails the insert; another
 * is drawn (31^8 codes make that rare).
 */
export async function insertMockExam<T = undefined>(
  db: Db,
  opts: {
    values: Omit<typeof mockExams.$inferInsert, "code">;
    questionIds: string[];
    then?: (tx: Db, mock: MockExamRow) => Promise<T>;
  },
): Promise<MockExamRow & { extra: T | undefined }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        const [mock] = await tx
          .insert(mockExams)
          .values({ ...opts.values, code: randomJoinCode() })
          .returning();
        await tx.insert(mockExamQuestions).values(
          opts.questionIds.map((questionId, i) => ({
            mockExamId: mock!.id,
            position: i + 1,
            questionId,
          })),
        );
        const extra = opts.then ? await opts.then(tx, mock!) : undefined;
        return { ...mock!, extra };
      });
    } catch (err) {
      if (attempt < 4 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

async function mockByCode(db: Db, code: string): Promise<MockExamRow> {
  const [row] = await db.select().from(mockExams).where(eq(mockExams.code, code));
  if (!row) throw notFound(MOCK_ERRORS.UNKNOWN_CODE);
  return row;
}

/**
 * Joins a mock exam by its code: the taker's own exam of its questions and settings, begun now. A
 * taker who joined before gets that attempt back (one attempt each), even once the exam is closed.
 * A program's mock exam (an assignment, issue 32) is for its members only: to anyone else its code
 * is unknown.
 */
export async function joinMockExam(
  db: Db,
  opts: { userId: string; code: string; now: Date },
): Promise<ExamView> {
  const mock = await mockByCode(db, opts.code);
  if (mock.programId) {
    const [me] = await db
      .select({ programId: users.programId })
      .from(users)
      .where(eq(users.id, opts.userId));
    if (me?.programId !== mock.programId) throw notFound(MOCK_ERRORS.UNKNOWN_CODE);
  }
  return joinMock(db, mock, opts);
}

/** The join itself, for a mock exam already found and allowed (by code above, or an assignment's). */
export async function joinMock(
  db: Db,
  mock: MockExamRow,
  opts: { userId: string; now: Date },
): Promise<ExamView> {
  const [mine] = await db
    .select({ id: exams.id })
    .from(exams)
    .where(and(eq(exams.mockExamId, mock.id), eq(exams.userId, opts.userId)));
  if (mine) {
    const row = await loadOwnExam(db, { userId: opts.userId, examId: mine.id, now: opts.now });
    return examView(db, row, opts.now);
  }
  if (mock.closed) throw badRequest(MOCK_ERRORS.CLOSED);
  const ids = await db
    .select({ id: mockExamQuestions.questionId })
    .from(mockExamQuestions)
    .where(eq(mockExamQuestions.mockExamId, mock.id))
    .orderBy(asc(mockExamQuestions.position));
  if (ids.length === 0) throw badRequest(MOCK_ERRORS.NO_PUBLIC_QUESTIONS);
  const row = await db.transaction((tx) =>
    insertExam(tx, {
      userId: opts.userId,
      mockExamId: mock.id,
      settings: {
        size: ids.length,
        part: mock.part as ExamPart,
        categories: mock.categories,
        pool: "all",
        mode: mock.mode as ExamMode,
        secondsPerQuestion: mock.secondsPerQuestion,
      },
      seed: mock.seed,
      questionIds: ids.map((r) => r.id),
      now: opts.now,
    }),
  );
  return examView(db, row, opts.now);
}

/** Summaries of mock exams: one by id, a creator's, or all of them (the admin page). */
export async function mockSummaries(
  db: Db,
  where: { id?: string; creatorId?: string },
): Promise<MockExamSummary[]> {
  const questionCount = db
    .select({ mockExamId: mockExamQuestions.mockExamId, n: count().as("n") })
    .from(mockExamQuestions)
    .groupBy(mockExamQuestions.mockExamId)
    .as("question_counts");
  const rows = await db
    .select({
      mock: mockExams,
      creator: users.username,
      questionCount: sql<number>`coalesce(${questionCount.n}, 0)::int`,
      takers: sql<number>`(select count(*)::int from ${exams} where ${exams.mockExamId} = ${mockExams.id} and ${exams.status} <> 'in_progress')`,
      inProgress: sql<number>`(select count(*)::int from ${exams} where ${exams.mockExamId} = ${mockExams.id} and ${exams.status} = 'in_progress')`,
      meanPercent: sql<
        number | null
      >`(select round(avg(100.0 * ${exams.correctCount} / nullif(${exams.questionCount}, 0)))::int from ${exams} where ${exams.mockExamId} = ${mockExams.id} and ${exams.status} <> 'in_progress')`,
    })
    .from(mockExams)
    .innerJoin(users, eq(users.id, mockExams.creatorId))
    .leftJoin(questionCount, eq(questionCount.mockExamId, mockExams.id))
    .where(
      and(
        where.id ? eq(mockExams.id, where.id) : undefined,
        where.creatorId ? eq(mockExams.creatorId, where.creatorId) : undefined,
      ),
    )
    .orderBy(desc(mockExams.createdAt), desc(mockExams.id));
  return rows.map((r) => ({
    id: r.mock.id,
    code: r.mock.code,
    mode: r.mock.mode as ExamMode,
    part: r.mock.part as ExamPart,
    categories: r.mock.categories,
    secondsPerQuestion: r.mock.secondsPerQuestion,
    questionCount: Number(r.questionCount),
    closed: r.mock.closed,
    createdAt: r.mock.createdAt.toISOString(),
    creator: r.creator,
    takers: Number(r.takers),
    inProgress: Number(r.inProgress),
    meanPercent: r.meanPercent === null ? null : Number(r.meanPercent),
  }));
}

export interface MockTaker {
  username: string;
  status: string;
  correct: number;
  total: number;
  percent: number;
  timeUsedMs: number;
  startedAt: string;
  submittedAt: string | null;
}

export interface MockItem extends ItemStatistics {
  position: number;
  text: string;
  category: string;
  correctAnswers: string[];
}

export interface MockResults {
  mockExam: MockExamSummary;
  takers: MockTaker[];
  /** Of the finished takers' percent right. */
  spread: ScoreSpread;
  items: MockItem[];
  /** Takers, then the item analysis, as CSV (a blank line between the two tables). */
  csv: string;
}

const round3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

function resultsCsv(takers: MockTaker[], items: MockItem[]): string {
  const letters = [...new Set(items.flatMap((i) => Object.keys(i.optionShares)))].sort();
  const takerTable = toCsv([
    ["username", "status", "correct", "total", "percent", "time_used_seconds", "submitted_at"],
    ...takers.map((t) => [
      t.username,
      t.status,
      t.correct,
      t.total,
      t.percent,
      Math.round(t.timeUsedMs / 1000),
      t.submittedAt,
    ]),
  ]);
  const itemTable = toCsv([
    [
      "position",
      "question_id",
      "category",
      "correct_answers",
      "p_value",
      "discrimination",
      "unanswered",
      ...letters.map((l) => `chose_${l}`),
    ],
    ...items.map((i) => [
      i.position,
      i.questionId,
      i.category,
      i.correctAnswers.join(""),
      round3(i.pValue),
      round3(i.discrimination),
      round3(i.unansweredShare),
      ...letters.map((l) => (l in i.optionShares ? round3(i.optionShares[l]!) : null)),
    ]),
  ]);
  return `${takerTable}\r\n${itemTable}`;
}

/**
 * A mock exam's results for its creator and admins: each finished taker's score and time (username as
 * admins see it), the mean and spread, and the item analysis of every question.
 */
export async function mockResults(
  db: Db,
  opts: { viewer: Pick<UserRow, "id" | "isAdmin">; code: string },
): Promise<MockResults> {
  const mock = await mockByCode(db, opts.code);
  if (mock.creatorId !== opts.viewer.id && !opts.viewer.isAdmin) {
    throw forbidden(MOCK_ERRORS.NOT_CREATOR);
  }
  const attempts = await db
    .select({ exam: exams, username: users.username })
    .from(exams)
    .innerJoin(users, eq(users.id, exams.userId))
    .where(and(eq(exams.mockExamId, mock.id), ne(exams.status, "in_progress")))
    .orderBy(desc(exams.correctCount), asc(users.username));
  const takers: MockTaker[] = attempts.map(({ exam, username }) => ({
    username,
    status: exam.status,
    correct: exam.correctCount ?? 0,
    total: exam.questionCount,
    percent:
      exam.questionCount > 0
        ? Math.round(((exam.correctCount ?? 0) / exam.questionCount) * 100)
        : 0,
    timeUsedMs: exam.submittedAt ? exam.submittedAt.getTime() - exam.startedAt.getTime() : 0,
    startedAt: exam.startedAt.toISOString(),
    submittedAt: exam.submittedAt?.toISOString() ?? null,
  }));
  const mockQuestions = await db
    .select({ position: mockExamQuestions.position, question: questions })
    .from(mockExamQuestions)
    .innerJoin(questions, eq(questions.id, mockExamQuestions.questionId))
    .where(eq(mockExamQuestions.mockExamId, mock.id))
    .orderBy(asc(mockExamQuestions.position));
  const answers = attempts.length
    ? await db
        .select({
          examId: examAnswers.examId,
          questionId: examAnswers.questionId,
          selected: examAnswers.selected,
        })
        .from(examAnswers)
        .innerJoin(exams, eq(exams.id, examAnswers.examId))
        .where(and(eq(exams.mockExamId, mock.id), ne(exams.status, "in_progress")))
    : [];
  const byExam = new Map<string, Map<string, string[]>>();
  for (const a of answers) {
    const map = byExam.get(a.examId) ?? new Map<string, string[]>();
    map.set(a.questionId, a.selected);
    byExam.set(a.examId, map);
  }
  const analysis = analyseItems(
    mockQuestions.map(({ question }) => ({
      questionId: question.id,
      key: answerKeyOf(question),
      options: Object.keys(question.options).sort(),
    })),
    attempts.map(({ exam }) => ({ answers: byExam.get(exam.id) ?? new Map() })),
  );
  const items: MockItem[] = analysis.items.map((stats, i) => {
    const { position, question } = mockQuestions[i]!;
    return {
      ...stats,
      position,
      text: question.text,
      category: categoryLabel(question.category),
      correctAnswers: answerKeyOf(question),
    };
  });
  return {
    mockExam: (await mockSummaries(db, { id: mock.id }))[0]!,
    takers,
    spread: scoreSpread(takers.map((t) => t.percent)),
    items,
    csv: resultsCsv(takers, items),
  };
}

/** Closes a mock exam to new takers (those who joined may still finish). Creator only; idempotent. */
export async function closeMockExam(
  db: Db,
  opts: { userId: string; code: string },
): Promise<MockExamSummary> {
  const mock = await mockByCode(db, opts.code);
  if (mock.creatorId !== opts.userId) throw forbidden(MOCK_ERRORS.NOT_CREATOR_CLOSE);
  await db.update(mockExams).set({ closed: true }).where(eq(mockExams.id, mock.id));
  return (await mockSummaries(db, { id: mock.id }))[0]!;
}
