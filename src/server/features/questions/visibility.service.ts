/**
 * The write side of a question's visibility (docs/product/visibility.md, decisions 350-354): what a
 * create, an edit or an import stores for the level the user chose, and the product's message when the
 * level may not be chosen. The rules themselves are src/core/visibility.ts, shared with the web.
 */
import { eq } from "drizzle-orm";
import {
  decideVisibility,
  defaultVisibility,
  requestedVisibility,
  visibilityOf,
  type QuestionVisibility,
} from "../../../core/visibility";
import { REPORT_MESSAGES } from "../../../core/reports";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { badRequest } from "../../errors";

/** The writer's program (read now, never from the session) and the profile's default. */
export interface Writer {
  programId: string | null;
  publicProfile: boolean;
}

export async function writerOf(db: Db, userId: string): Promise<Writer> {
  const [row] = await db
    .select({
      programId: users.programId,
      role: users.programRole,
      publicProfile: users.publicProfile,
    })
    .from(users)
    .where(eq(users.id, userId));
  const member = row?.programId && (row.role === "director" || row.role === "resident");
  return { programId: member ? row.programId : null, publicProfile: row?.publicProfile ?? false };
}

/** The columns a question's visibility is stored in. */
export interface VisibilityWrite {
  isPublic: boolean;
  programId: string | null;
  shareStatement: string;
}

export interface VisibilityRequest {
  visibility?: QuestionVisibility;
  isPublic?: boolean;
  shareStatement?: string;
}

export const RESERVED_NOT_PUBLIC =
  "A question reserved for assessments cannot be made public until a director releases it";

/**
 * The columns for a new question: the level asked for, else program for a program's member, else the
 * profile's choice. `visibility: "public"` needs the statement; the original clients' `isPublic: true`
 * keeps working without one (decision 353).
 */
export function newQuestionVisibility(
  writer: Writer,
  req: VisibilityRequest,
  prefix = "",
): VisibilityWrite {
  const legacyPublic = req.visibility === undefined && req.isPublic === true;
  const level =
    requestedVisibility(req) ??
    defaultVisibility({
      inProgram: writer.programId !== null,
      publicByDefault: writer.publicProfile,
    });
  if (level === "public" && (legacyPublic || req.visibility === undefined)) {
    return { isPublic: true, programId: null, shareStatement: (req.shareStatement ?? "").trim() };
  }
  const decided = decideVisibility({
    visibility: level,
    programId: writer.programId,
    shareStatement: req.shareStatement,
  });
  if (!decided.ok) throw badRequest(prefix + decided.message);
  return {
    isPublic: decided.isPublic,
    programId: decided.programId,
    shareStatement: decided.shareStatement,
  };
}

/**
 * The columns an edit changes, or undefined when the visibility stays. The original clients send the
 * whole question back with `isPublic: false`: for a program question that means "not public", so it
 * stays in its program. Choosing program again keeps the question's program even after the writer left it.
 */
export function editedVisibility(
  writer: Writer,
  stored: {
    isPublic: boolean;
    programId: string | null;
    reserved: boolean;
    shareStatement: string;
    /** Issue 36, decision 382: taken down for copyright, it stays private until an admin restores it. */
    takenDownAt?: Date | null;
  },
  req: VisibilityRequest,
): VisibilityWrite | undefined {
  const current = visibilityOf(stored);
  let level = requestedVisibility(req);
  if (req.visibility === undefined && req.isPublic === false && current !== "public")
    level = undefined;
  if (level === undefined || level === current) {
    if (req.shareStatement && current === "public") {
      return { isPublic: true, programId: null, shareStatement: req.shareStatement.trim() };
    }
    return undefined;
  }
  if (level === "public" && stored.reserved) throw badRequest(RESERVED_NOT_PUBLIC);
  if (level === "public" && stored.takenDownAt) throw badRequest(REPORT_MESSAGES.TAKEN_DOWN_PUBLIC);
  if (level === "public" && req.visibility === undefined) {
    return { isPublic: true, programId: null, shareStatement: (req.shareStatement ?? "").trim() };
  }
  const decided = decideVisibility({
    visibility: level,
    programId: writer.programId,
    shareStatement: req.shareStatement,
    keptStatement: stored.shareStatement,
  });
  if (!decided.ok) throw badRequest(decided.message);
  return {
    isPublic: decided.isPublic,
    programId: decided.programId,
    shareStatement: decided.shareStatement,
  };
}
