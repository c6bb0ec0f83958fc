import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { ReportKind, ReportStatus } from "../../../core/reports";
import { visibilityOf, type QuestionVisibility } from "../../../core/visibility";
import type { Db } from "../../db/client";
import { questionReports, questions } from "../../db/schema";
import { visibleTo } from "../questions/question-json";
import { handledBy, takedownPendingSql, type Viewer } from "./report-access";

/** The most reports one list answers. */
const LIST_MAX = 500;
/** How much of a question's text a report shows. */
const EXCERPT = 240;

/** A report as its reporter and its handlers read it. Reporters are never named (decision 380). */
export interface ReportJson {
  id: string;
  questionId: string;
  kind: ReportKind;
  comment: string;
  status: ReportStatus;
  /** The handler's answer or note, shown to the reporter. */
  response: string;
  createdAt: string;
  resolvedAt: string | null;
  /** Whether the caller filed it. */
  mine: boolean;
  question: {
    /** The start of its text; '' when the caller can no longer see the question. */
    excerpt: string;
    category: string;
    visibility: QuestionVisibility;
    /** Whether the caller owns it (and so may edit it). */
    own: boolean;
    takenDownAt: string | null;
    /** Taken down and waiting for an admin (decision 382). */
    takedownPending: boolean;
  };
}

function reportSelect(db: Db, viewerId: string) {
  return db
    .select({
      r: questionReports,
      creatorId: questions.creatorId,
      isPublic: questions.isPublic,
      programId: questions.programId,
      category: questions.category,
      takenDownAt: questions.takenDownAt,
      excerpt: sql<string>`case when ${visibleTo(viewerId)} then left(${questions.text}, ${EXCERPT}) else '' end`,
      pending: takedownPendingSql,
    })
    .from(questionReports)
    .innerJoin(questions, eq(questions.id, questionReports.questionId));
}

type Row = Awaited<ReturnType<ReturnType<typeof reportSelect>["execute"]>>[number];

function toJson(viewerId: string, row: Row): ReportJson {
  return {
    id: row.r.id,
    questionId: row.r.questionId,
    kind: row.r.kind as ReportKind,
    comment: row.r.comment,
    status: row.r.status as ReportStatus,
    response: row.r.response,
    createdAt: row.r.createdAt.toISOString(),
    resolvedAt: row.r.resolvedAt?.toISOString() ?? null,
    mine: row.r.reporterId === viewerId,
    question: {
      excerpt: row.excerpt ?? "",
      category: row.category,
      visibility: visibilityOf(row),
      own: row.creatorId === viewerId,
      takenDownAt: row.takenDownAt?.toISOString() ?? null,
      takedownPending: Boolean(row.pending),
    },
  };
}

/** The reports of the given ids, as the caller reads them, in the given order. */
export async function reportJson(db: Db, viewerId: string, ids: string[]): Promise<ReportJson[]> {
  if (ids.length === 0) return [];
  const rows = await reportSelect(db, viewerId).where(inArray(questionReports.id, ids));
  const byId = new Map(rows.map((r) => [r.r.id, toJson(viewerId, r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export interface ReportQueue {
  /** Open reports the caller handles. */
  openCount: number;
  /** The caller's reports (handled) — takedowns waiting for an admin first, then open oldest first. */
  reports: ReportJson[];
}

/**
 * The review queue (decision 380): reports on the questions the caller handles — their own, their
 * program's when they direct it, public and taken-down ones for admins. Takedowns waiting for an
 * admin come first, then open reports oldest first, then closed ones newest first.
 */
export async function listQueue(
  db: Db,
  viewer: Viewer,
  opts: { open: boolean },
): Promise<ReportQueue> {
  const where = and(handledBy(viewer), opts.open ? eq(questionReports.status, "open") : undefined);
  const rows = await reportSelect(db, viewer.id)
    .where(where)
    .orderBy(
      desc(
        sql`(${takedownPendingSql} and ${questionReports.kind} = 'copyright' and ${questionReports.status} = 'open')`,
      ),
      desc(sql`${questionReports.status} = 'open'`),
      sql`case when ${questionReports.status} = 'open' then ${questionReports.createdAt} end asc`,
      desc(questionReports.resolvedAt),
      asc(questionReports.id),
    )
    .limit(LIST_MAX);
  return { openCount: await openCount(db, viewer), reports: rows.map((r) => toJson(viewer.id, r)) };
}

/** Open reports the caller handles (the Reports entry's badge). */
export async function openCount(db: Db, viewer: Viewer): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(questionReports)
    .innerJoin(questions, eq(questions.id, questionReports.questionId))
    .where(and(eq(questionReports.status, "open"), handledBy(viewer)));
  return Number(row?.n ?? 0);
}

/** "My reports": what the caller reported, newest first, with the answers. */
export async function listMine(db: Db, viewerId: string): Promise<ReportJson[]> {
  const rows = await reportSelect(db, viewerId)
    .where(eq(questionReports.reporterId, viewerId))
    .orderBy(desc(questionReports.createdAt), asc(questionReports.id))
    .limit(LIST_MAX);
  return rows.map((r) => toJson(viewerId, r));
}
