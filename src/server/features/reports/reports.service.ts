import { and, eq, ne, sql } from "drizzle-orm";
import {
  REPORT_MESSAGES,
  TAKEDOWN_REPORTERS,
  type TCreateReport,
  type TResolveReport,
  type TTakedownDecision,
} from "../../../core/reports";
import type { Db } from "../../db/client";
import { questionReports, questions, users } from "../../db/schema";
import { AppError, isUniqueViolation, notFound } from "../../errors";
import { recordAudit, type AuditMeta } from "../audit/audit.service";
import { markEditor } from "../history/mark-editor";
import { requireVisibleQuestion } from "../questions/question-access";
import { handlesQuestion, type Viewer } from "./report-access";
import { reportJson, type ReportJson } from "./reports-queue.service";

/**
 * Reports on questions (issue 36, docs/product/reports.md, decisions 380-384): a reader reports a
 * question they can see; its handlers close the report as answered, fixed or dismissed; copyright
 * reports from three readers take a public question down until an admin decides.
 */

export interface CreatedReport {
  report: ReportJson;
  /** True when this report was the one that took the question down (decision 382). */
  takenDown: boolean;
}

/** Files a report. One open report per reader and question (a partial unique index holds it). */
export async function createReport(
  db: Db,
  viewer: Viewer,
  input: TCreateReport,
  meta: AuditMeta,
): Promise<CreatedReport> {
  try {
    return await db.transaction(async (tx) => {
      const question = await requireVisibleQuestion(tx, viewer.id, input.questionId);
      if (input.kind === "copyright") {
        // Copyright reports on one question are counted one writer at a time, so the third
        // distinct reporter always sees the two before them.
        await tx.execute(
          sql`select 1 from ${questions} where ${questions.id} = ${question.id} for update`,
        );
      }
      const [open] = await tx
        .select({ id: questionReports.id })
        .from(questionReports)
        .where(
          and(
            eq(questionReports.questionId, question.id),
            eq(questionReports.reporterId, viewer.id),
            eq(questionReports.status, "open"),
          ),
        );
      if (open) throw new AppError("CONFLICT", REPORT_MESSAGES.ALREADY_OPEN);
      const [row] = await tx
        .insert(questionReports)
        .values({
          questionId: question.id,
          reporterId: viewer.id,
          kind: input.kind,
          comment: input.comment,
          createdAt: meta.at,
        })
        .returning({ id: questionReports.id });
      let takenDown = false;
      if (input.kind === "copyright" && question.isPublic) {
        takenDown = await takeDownWhenReported(tx, question.id, question.creatorId, viewer, meta);
      }
      const [json] = await reportJson(tx, viewer.id, [row!.id]);
      return { report: json!, takenDown };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("CONFLICT", REPORT_MESSAGES.ALREADY_OPEN);
    throw err;
  }
}

/**
 * The third distinct reader with an open copyright report takes a public question out of public view
 * at once (decision 382): private to its owner, marked taken down, until an admin decides. The owner's
 * own report does not count. isPublic turning false moves study_states.available, the public category
 * counts and the due page's versions through the triggers of questions (0012, 0014, 0023, 0032).
 */
async function takeDownWhenReported(
  tx: Db,
  questionId: string,
  ownerId: string,
  reporter: Viewer,
  meta: AuditMeta,
): Promise<boolean> {
  const [count] = await tx
    .select({ n: sql<number>`count(distinct ${questionReports.reporterId})::int` })
    .from(questionReports)
    .where(
      and(
        eq(questionReports.questionId, questionId),
        eq(questionReports.kind, "copyright"),
        eq(questionReports.status, "open"),
        ne(questionReports.reporterId, ownerId),
      ),
    );
  if (Number(count?.n ?? 0) < TAKEDOWN_REPORTERS) return false;
  const taken = await tx
    .update(questions)
    .set({ isPublic: false, takenDownAt: meta.at })
    .where(and(eq(questions.id, questionId), eq(questions.isPublic, true)))
    .returning({ id: questions.id });
  if (taken.length === 0) return false;
  await recordAudit(tx, {
    kind: "question.taken_down",
    actor: { id: reporter.id, username: reporter.username },
    target: await ownerOf(tx, ownerId),
    detail: { questionId, reporters: Number(count!.n) },
    origin: meta.origin,
    at: meta.at,
  });
  return true;
}

async function ownerOf(tx: Db, ownerId: string) {
  const [owner] = await tx
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(users.id, ownerId));
  return owner ?? null;
}

/**
 * Closes an open report as answered, fixed or dismissed, with the note its reporter reads. A report the
 * caller neither handles nor filed reads as missing; its reporter is refused. Copyright reports on a
 * public or taken-down question are closed by admins only (decision 382): an owner cannot clear the
 * reports that would take their question down.
 */
export async function resolveReport(
  db: Db,
  viewer: Viewer,
  input: TResolveReport,
  at: Date,
): Promise<ReportJson> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({
        status: questionReports.status,
        kind: questionReports.kind,
        reporterId: questionReports.reporterId,
        questionId: questionReports.questionId,
        isPublic: questions.isPublic,
        takenDownAt: questions.takenDownAt,
      })
      .from(questionReports)
      .innerJoin(questions, eq(questions.id, questionReports.questionId))
      .where(eq(questionReports.id, input.id))
      .for("update", { of: questionReports });
    const handles = found ? await handlesQuestion(tx, viewer, found.questionId) : false;
    if (!found || (!handles && found.reporterId !== viewer.id)) {
      throw notFound(REPORT_MESSAGES.NOT_FOUND);
    }
    if (!handles) throw new AppError("FORBIDDEN", REPORT_MESSAGES.NOT_HANDLER);
    if (found.status !== "open") throw new AppError("CONFLICT", REPORT_MESSAGES.CLOSED);
    const guarded = found.kind === "copyright" && (found.isPublic || found.takenDownAt !== null);
    if (guarded && !viewer.isAdmin) {
      throw new AppError("FORBIDDEN", REPORT_MESSAGES.COPYRIGHT_ADMINS_ONLY);
    }
    await tx
      .update(questionReports)
      .set({
        status: input.outcome,
        response: input.note,
        resolvedById: viewer.id,
        resolvedAt: at,
      })
      .where(eq(questionReports.id, input.id));
    const [json] = await reportJson(tx, viewer.id, [input.id]);
    return json!;
  });
}

const DECISION_NOTES = {
  restore: "An admin reviewed the copyright reports and restored the question to public view.",
  keep: "An admin reviewed the copyright reports and kept the question out of public view.",
} as const;

/**
 * An admin's decision on a question taken down for copyright (decision 382): restore makes it public
 * again and dismisses the copyright reports; keep leaves it private to its owner, marked taken down so
 * they cannot make it public again, and closes the reports as fixed. Both are in the audit log.
 */
export async function decideTakedown(
  db: Db,
  viewer: Viewer,
  input: TTakedownDecision,
  meta: AuditMeta,
): Promise<{ questionId: string; decision: "restore" | "keep"; closedReports: number }> {
  if (!viewer.isAdmin) throw new AppError("FORBIDDEN", REPORT_MESSAGES.ADMINS_ONLY);
  return db.transaction(async (tx) => {
    const [question] = await tx
      .select({
        id: questions.id,
        creatorId: questions.creatorId,
        takenDownAt: questions.takenDownAt,
      })
      .from(questions)
      .where(eq(questions.id, input.questionId))
      .for("update");
    const open = and(
      eq(questionReports.questionId, input.questionId),
      eq(questionReports.kind, "copyright"),
      eq(questionReports.status, "open"),
    );
    const pending =
      question?.takenDownAt != null &&
      (await tx.select({ id: questionReports.id }).from(questionReports).where(open).limit(1))
        .length > 0;
    if (!question || !pending) throw new AppError("NOT_FOUND", REPORT_MESSAGES.NOT_TAKEN_DOWN);
    const note = input.note || DECISION_NOTES[input.decision];
    const closed = await tx
      .update(questionReports)
      .set({
        status: input.decision === "restore" ? "dismissed" : "fixed",
        response: note,
        resolvedById: viewer.id,
        resolvedAt: meta.at,
      })
      .where(open)
      .returning({ id: questionReports.id });
    if (input.decision === "restore") {
      // The question's history names the admin who put it back (decision 385).
      await markEditor(tx, viewer.id, { at: meta.at });
      await tx
        .update(questions)
        .set({ isPublic: true, programId: null, takenDownAt: null })
        .where(eq(questions.id, question.id));
    }
    await recordAudit(tx, {
      kind: "question.takedown_decided",
      actor: { id: viewer.id, username: viewer.username },
      target: await ownerOf(tx, question.creatorId),
      detail: { questionId: question.id, decision: input.decision, note },
      origin: meta.origin,
      at: meta.at,
    });
    return { questionId: question.id, decision: input.decision, closedReports: closed.length };
  });
}

/** What a leech's report says when the resident wrote no note. */
export const LEECH_REPORT_COMMENT =
  "I keep getting this one wrong (a leech): it may be unclear, or its key may be wrong.";

/**
 * A leech's "Report as a bad question" (issue 34, decision 372) files a real report (decision 383), of
 * kind other with the resident's note, unless they already have one open on the question.
 */
export async function fileLeechReport(
  tx: Db,
  userId: string,
  questionId: string,
  note: string,
  at: Date,
): Promise<void> {
  const [open] = await tx
    .select({ id: questionReports.id })
    .from(questionReports)
    .where(
      and(
        eq(questionReports.questionId, questionId),
        eq(questionReports.reporterId, userId),
        eq(questionReports.status, "open"),
      ),
    );
  if (open) return;
  await tx.insert(questionReports).values({
    questionId,
    reporterId: userId,
    kind: "other",
    comment: note || LEECH_REPORT_COMMENT,
    createdAt: at,
  });
}
