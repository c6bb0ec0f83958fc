/**
 * Program assignments (issue 32, docs/product/assignments.md): a director gives the program or one PGY
 * class a practice exam (a mock exam drawn once from the program's bank and public questions, the same
 * for every resident) or a study set (answers in Study in some categories), due by a date. Statuses
 * are computed when read (decision 356) from the exams and the progress rows the study writer keeps.
 */
import { and, asc, desc, eq, inArray, or } from "drizzle-orm";
import { drawBlueprint, EXAM_LIMITS, type ExamMode } from "../../../core/exams";
import {
  ASSIGNMENT_MESSAGES,
  assignmentStatus,
  dueInstant,
  type AssignmentKind,
  type AssignmentStatus,
  type TCreateAssignment,
  type TUpdateAssignment,
} from "../../../core/programs/assignments";
import type { Db } from "../../db/client";
import {
  exams,
  mockExams,
  programAssignmentProgress,
  programAssignments,
  questions,
  users,
  type ExamRow,
  type ProgramAssignmentRow,
} from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import { markEditor } from "../history/mark-editor";
import { eligiblePool, newSeed, settingsFilter } from "../exams/exam-create.service";
import type { ExamView } from "../exams/exams.service";
import { insertMockExam, joinMock } from "../exams/mock-exams.service";
import { requireSameProgram, type Membership } from "./program-access";

export const ASSIGNMENT_ERRORS = {
  NOT_FOUND: "Assignment not found",
  NO_QUESTIONS:
    "No questions of your program's bank or public ones match these settings, so there is nothing to assign.",
  NOT_AN_EXAM: "This assignment is a study set: answer its questions in Study.",
  NOT_FOR_YOU: "This assignment is for another PGY class.",
  NOT_IN_BANK:
    "Only questions of your program's own bank can be reserved or released (not public ones, not another program's).",
} as const;

/** One assignment as everyone in the program sees it. */
export interface AssignmentSummary {
  id: string;
  kind: AssignmentKind;
  title: string;
  /** The PGY class it is for, or null for the whole program. */
  pgyLevel: string | null;
  categories: string[];
  /** Exam: its number of questions; study set: answers that complete it. */
  questionCount: number;
  dueAt: string;
  closedAt: string | null;
  createdAt: string;
  /** Exams only. */
  mockExamId: string | null;
  mode: ExamMode | null;
  secondsPerQuestion: number | null;
}

/** One resident's standing on an assignment. */
export interface AssignmentProgress {
  status: AssignmentStatus;
  /** Study set: answers counted so far; exam: questions answered once submitted. */
  answered: number;
  correct: number;
  /** Percent right: of the exam once submitted, of the answers counted for a study set; else null. */
  scorePercent: number | null;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface ResidentRow extends AssignmentProgress {
  userId: string;
  username: string;
  displayName: string;
  pgyLevel: string;
}

export interface DirectorAssignment extends AssignmentSummary {
  /** The mock exam's join code, for its results (`prite exams results CODE`). */
  mockExamCode: string | null;
  residents: ResidentRow[];
  counts: Record<AssignmentStatus, number>;
}

export interface ResidentAssignment extends AssignmentSummary, AssignmentProgress {
  /** The resident's own exam of it, once begun. */
  examId: string | null;
}

export type AssignmentList =
  | { role: "director"; programId: string; assignments: DirectorAssignment[] }
  | { role: "resident"; programId: string; assignments: ResidentAssignment[] };

function summaryOf(
  row: ProgramAssignmentRow,
  mock: { mode: string; secondsPerQuestion: number } | null,
): AssignmentSummary {
  return {
    id: row.id,
    kind: row.kind as AssignmentKind,
    title: row.title,
    pgyLevel: row.pgyLevel,
    categories: row.categories,
    questionCount: row.questionCount,
    dueAt: row.dueAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    mockExamId: row.mockExamId,
    mode: (mock?.mode as ExamMode | undefined) ?? null,
    secondsPerQuestion: mock?.secondsPerQuestion ?? null,
  };
}

const percent = (part: number, whole: number) =>
  whole > 0 ? Math.round((part / whole) * 100) : null;

/** A resident's progress from their exam attempt (exam) or their progress row (study set). */
function progressOf(
  row: ProgramAssignmentRow,
  exam: ExamRow | undefined,
  progress: typeof programAssignmentProgress.$inferSelect | undefined,
  now: Date,
): AssignmentProgress {
  if (row.kind === "exam") {
    let finishedAt: Date | null = exam?.submittedAt ?? null;
    // A timed attempt past its deadline (and grace) is over even before the sweep submits it.
    if (
      exam &&
      !finishedAt &&
      exam.endsAt &&
      exam.endsAt.getTime() + EXAM_LIMITS.GRACE_MS < now.getTime()
    ) {
      finishedAt = exam.endsAt;
    }
    const correct = exam?.correctCount ?? 0;
    return {
      status: assignmentStatus({ started: !!exam, finishedAt, dueAt: row.dueAt, now }),
      answered: exam && exam.correctCount !== null ? exam.questionCount : 0,
      correct,
      scorePercent:
        exam && exam.correctCount !== null ? percent(exam.correctCount, exam.questionCount) : null,
      startedAt: exam?.startedAt.toISOString() ?? null,
      finishedAt: finishedAt?.toISOString() ?? null,
    };
  }
  const answered = progress?.answered ?? 0;
  return {
    status: assignmentStatus({
      started: answered > 0,
      finishedAt: progress?.completedAt ?? null,
      dueAt: row.dueAt,
      now,
    }),
    answered,
    correct: progress?.correct ?? 0,
    scorePercent: progress ? percent(progress.correct, progress.answered) : null,
    startedAt: progress?.startedAt.toISOString() ?? null,
    finishedAt: progress?.completedAt?.toISOString() ?? null,
  };
}

async function timeZoneOf(db: Db, userId: string): Promise<string> {
  const [row] = await db
    .select({ timeZone: users.timeZone })
    .from(users)
    .where(eq(users.id, userId));
  return row?.timeZone ?? "UTC";
}

async function futureDue(db: Db, userId: string, due: string, now: Date): Promise<Date> {
  const dueAt = dueInstant(due, await timeZoneOf(db, userId));
  if (dueAt.getTime() <= now.getTime()) throw badRequest(ASSIGNMENT_MESSAGES.DUE_PAST);
  return dueAt;
}

/** The program's bank (its questions that are not public, reserved ones included) and public questions. */
const programPool = (programId: string) =>
  or(
    eq(questions.isPublic, true),
    and(eq(questions.programId, programId), eq(questions.isPublic, false)),
  );

/** A director's new assignment: an exam drawn once for everyone, or a study set. */
export async function createAssignment(
  db: Db,
  opts: { membership: Membership; userId: string; now: Date; input: TCreateAssignment },
): Promise<{ assignment: AssignmentSummary; notice: string | null }> {
  const { membership, input, now } = opts;
  if (input.programId) requireSameProgram(membership, input.programId);
  const programId = membership.programId;
  const dueAt = await futureDue(db, opts.userId, input.due, now);
  const base = {
    programId,
    createdBy: opts.userId,
    kind: input.kind,
    title: input.title,
    pgyLevel: input.pgyLevel,
    categories: input.categories,
    dueAt,
    createdAt: now,
  };
  if (input.kind === "study") {
    const [row] = await db
      .insert(programAssignments)
      .values({ ...base, questionCount: input.count })
      .returning();
    return { assignment: summaryOf(row!, null), notice: null };
  }
  const pool = await eligiblePool(
    db,
    and(programPool(programId), settingsFilter({ part: input.part, categories: input.categories })),
  );
  const seed = newSeed();
  const drawn = drawBlueprint({ pool, size: input.size, seed });
  if (drawn.questionIds.length === 0) throw badRequest(ASSIGNMENT_ERRORS.NO_QUESTIONS);
  const mock = await insertMockExam(db, {
    values: {
      creatorId: opts.userId,
      mode: input.mode,
      part: input.part,
      categories: input.categories,
      secondsPerQuestion: input.secondsPerQuestion,
      seed,
      programId,
      createdAt: now,
    },
    questionIds: drawn.questionIds,
    then: async (tx, m) => {
      const [row] = await tx
        .insert(programAssignments)
        .values({ ...base, mockExamId: m.id, questionCount: drawn.questionIds.length })
        .returning();
      return row!;
    },
  });
  const got = drawn.questionIds.length;
  return {
    assignment: summaryOf(mock.extra!, mock),
    notice:
      got < input.size
        ? `Only ${got} question${got === 1 ? "" : "s"} match these settings, so this exam has ${got} instead of ${input.size}.`
        : null,
  };
}

async function assignmentIn(db: Db, programId: string, id: string): Promise<ProgramAssignmentRow> {
  const [row] = await db
    .select()
    .from(programAssignments)
    .where(and(eq(programAssignments.id, id), eq(programAssignments.programId, programId)));
  if (!row) throw notFound(ASSIGNMENT_ERRORS.NOT_FOUND);
  return row;
}

/** Whether an assignment is for a resident of this PGY level. */
const targets = (row: ProgramAssignmentRow, pgyLevel: string) =>
  row.pgyLevel === null || row.pgyLevel === pgyLevel;

/**
 * The program's assignments: a director sees every one with each targeted resident's status and
 * score; a resident sees those for them, with their own status.
 */
export async function listAssignments(
  db: Db,
  opts: { membership: Membership; userId: string; now: Date; programId?: string },
): Promise<AssignmentList> {
  const { membership, now } = opts;
  if (opts.programId) requireSameProgram(membership, opts.programId);
  const programId = membership.programId;
  const rows = await db
    .select({ a: programAssignments, mock: mockExams })
    .from(programAssignments)
    .leftJoin(mockExams, eq(mockExams.id, programAssignments.mockExamId))
    .where(eq(programAssignments.programId, programId))
    .orderBy(desc(programAssignments.dueAt), desc(programAssignments.createdAt));
  if (membership.role === "resident") {
    const [me] = await db
      .select({ pgyLevel: users.pgyLevel })
      .from(users)
      .where(eq(users.id, opts.userId));
    const mine = rows.filter(({ a }) => targets(a, me?.pgyLevel ?? ""));
    const { attempts, progress } = await workOf(db, mine, [opts.userId]);
    return {
      role: "resident",
      programId,
      assignments: mine.map(({ a, mock }) => {
        const exam = attempts.get(`${a.mockExamId}:${opts.userId}`);
        return {
          ...summaryOf(a, mock),
          ...progressOf(a, exam, progress.get(`${a.id}:${opts.userId}`), now),
          examId: exam?.id ?? null,
        };
      }),
    };
  }
  const residents = await db
    .select({
      userId: users.id,
      username: users.username,
      displayName: users.displayName,
      pgyLevel: users.pgyLevel,
    })
    .from(users)
    .where(and(eq(users.programId, programId), eq(users.programRole, "resident")))
    .orderBy(asc(users.pgyLevel), asc(users.username));
  const { attempts, progress } = await workOf(
    db,
    rows,
    residents.map((r) => r.userId),
  );
  return {
    role: "director",
    programId,
    assignments: rows.map(({ a, mock }) => {
      const list: ResidentRow[] = residents
        .filter((r) => targets(a, r.pgyLevel))
        .map((r) => ({
          ...r,
          ...progressOf(
            a,
            attempts.get(`${a.mockExamId}:${r.userId}`),
            progress.get(`${a.id}:${r.userId}`),
            now,
          ),
        }));
      const counts = { not_started: 0, in_progress: 0, done: 0, late: 0 };
      for (const r of list) counts[r.status] += 1;
      return { ...summaryOf(a, mock), mockExamCode: mock?.code ?? null, residents: list, counts };
    }),
  };
}

/** The residents' exam attempts and study-set progress for these assignments, keyed for lookup. */
async function workOf(
  db: Db,
  rows: { a: ProgramAssignmentRow }[],
  userIds: string[],
): Promise<{
  attempts: Map<string, ExamRow>;
  progress: Map<string, typeof programAssignmentProgress.$inferSelect>;
}> {
  const mockIds = rows.map((r) => r.a.mockExamId).filter((id): id is string => !!id);
  const studyIds = rows.filter((r) => r.a.kind === "study").map((r) => r.a.id);
  const attempts = new Map<string, ExamRow>();
  const progress = new Map<string, typeof programAssignmentProgress.$inferSelect>();
  if (userIds.length === 0) return { attempts, progress };
  if (mockIds.length > 0) {
    const found = await db
      .select()
      .from(exams)
      .where(and(inArray(exams.mockExamId, mockIds), inArray(exams.userId, userIds)));
    for (const e of found) attempts.set(`${e.mockExamId}:${e.userId}`, e);
  }
  if (studyIds.length > 0) {
    const found = await db
      .select()
      .from(programAssignmentProgress)
      .where(
        and(
          inArray(programAssignmentProgress.assignmentId, studyIds),
          inArray(programAssignmentProgress.userId, userIds),
        ),
      );
    for (const p of found) progress.set(`${p.assignmentId}:${p.userId}`, p);
  }
  return { attempts, progress };
}

/**
 * Closes an assignment, or gives it a new due date (which reopens a closed one). Closing stops it
 * taking new work (decision 356): study answers no longer count and nobody new may begin its exam;
 * an exam already begun runs to its end and counts, and what each resident did stays as it stood.
 */
export async function updateAssignment(
  db: Db,
  opts: { membership: Membership; userId: string; now: Date; input: TUpdateAssignment },
): Promise<AssignmentSummary> {
  const { membership, input, now } = opts;
  if (input.programId) requireSameProgram(membership, input.programId);
  const row = await assignmentIn(db, membership.programId, input.assignmentId);
  const change =
    input.due !== undefined
      ? { dueAt: await futureDue(db, opts.userId, input.due, now), closedAt: null }
      : { closedAt: row.closedAt ?? now };
  return db.transaction(async (tx) => {
    const [after] = await tx
      .update(programAssignments)
      .set(change)
      .where(eq(programAssignments.id, row.id))
      .returning();
    let mock: { mode: string; secondsPerQuestion: number } | undefined;
    if (row.mockExamId) {
      [mock] = await tx
        .update(mockExams)
        .set({ closed: change.closedAt !== null })
        .where(eq(mockExams.id, row.mockExamId))
        .returning({ mode: mockExams.mode, secondsPerQuestion: mockExams.secondsPerQuestion });
    }
    return summaryOf(after!, mock ?? null);
  });
}

/**
 * Begins (or resumes) the caller's attempt at an exam assignment: the mock exam's join, by id, for a
 * member of the program it targets. The exam runner takes it from there.
 */
export async function startAssignment(
  db: Db,
  opts: { membership: Membership; userId: string; now: Date; assignmentId: string },
): Promise<ExamView> {
  const row = await assignmentIn(db, opts.membership.programId, opts.assignmentId);
  if (row.kind !== "exam" || !row.mockExamId) throw badRequest(ASSIGNMENT_ERRORS.NOT_AN_EXAM);
  if (opts.membership.role === "resident") {
    const [me] = await db
      .select({ pgyLevel: users.pgyLevel })
      .from(users)
      .where(eq(users.id, opts.userId));
    if (!targets(row, me?.pgyLevel ?? "")) throw badRequest(ASSIGNMENT_ERRORS.NOT_FOR_YOU);
  }
  const [mock] = await db.select().from(mockExams).where(eq(mockExams.id, row.mockExamId));
  if (!mock) throw notFound(ASSIGNMENT_ERRORS.NOT_FOUND);
  return joinMock(db, mock, { userId: opts.userId, now: opts.now });
}

/**
 * The caller's open assignments not yet done (the Dashboard's card and the navigation's badge): none
 * for a user outside a program or a director. Late ones stay until done or closed.
 */
export async function openAssignments(
  db: Db,
  opts: { userId: string; now: Date },
): Promise<ResidentAssignment[]> {
  const [me] = await db
    .select({ programId: users.programId, role: users.programRole })
    .from(users)
    .where(eq(users.id, opts.userId));
  if (!me?.programId || me.role !== "resident") return [];
  const list = await listAssignments(db, {
    membership: { programId: me.programId, role: "resident", joinedAt: null },
    userId: opts.userId,
    now: opts.now,
  });
  return (list.assignments as ResidentAssignment[])
    .filter((a) => a.closedAt === null && a.finishedAt === null)
    .sort((x, y) => x.dueAt.localeCompare(y.dueAt));
}

/**
 * Marks program questions reserved for assessments, or releases them (decision 358): only questions of
 * the director's own program's bank; one outside it refuses the whole request, writing nothing.
 */
export async function reserveQuestions(
  db: Db,
  opts: {
    membership: Membership;
    questionIds: string[];
    reserved: boolean;
    /** The director, named in the versions the change records (decision 385). */
    userId?: string;
  },
): Promise<{ updated: number; reserved: boolean }> {
  const ids = [...new Set(opts.questionIds)];
  return db.transaction(async (tx) => {
    await markEditor(tx, opts.userId ?? null);
    const rows = await tx
      .update(questions)
      .set({ reserved: opts.reserved })
      .where(
        and(
          inArray(questions.id, ids),
          eq(questions.programId, opts.membership.programId),
          eq(questions.isPublic, false),
        ),
      )
      .returning({ id: questions.id });
    if (rows.length !== ids.length) throw notFound(ASSIGNMENT_ERRORS.NOT_IN_BANK);
    return { updated: rows.length, reserved: opts.reserved };
  });
}
