import { and, eq, isNotNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { questionReports, questions, users } from "../../db/schema";

/** Who asks: the id, the name the audit log keeps, and whether the server's admin (decision 380). */
export interface Viewer {
  id: string;
  username: string;
  isAdmin: boolean;
}

/** The program the viewer directs, read in the statement it is used in (never from the session). */
function directedProgramSql(userId: string): SQL {
  return sql`(select ${users.programId} from ${users} where ${users.id} = ${userId} and ${users.programRole} = 'director')`;
}

/**
 * Who handles reports on a question (decision 380): its owner; the directors of its program while it
 * is a program question; the server's admins while it is public or taken down for copyright.
 */
export function handledBy(viewer: Viewer): SQL {
  const rules = [
    eq(questions.creatorId, viewer.id),
    sql`(not ${questions.isPublic} and ${questions.programId} = ${directedProgramSql(viewer.id)})`,
  ];
  if (viewer.isAdmin)
    rules.push(or(eq(questions.isPublic, true), isNotNull(questions.takenDownAt))!);
  return or(...rules)!;
}

/** A question's copyright takedown waits for an admin: taken down, with open copyright reports. */
export const takedownPendingSql = sql<boolean>`(${questions.takenDownAt} is not null and exists (
  select 1 from ${questionReports} cr where cr.question_id = ${questions.id}
    and cr.status = 'open' and cr.kind = 'copyright'))`;

/** Whether the viewer handles reports on the question `questionId`. */
export async function handlesQuestion(
  db: Db,
  viewer: Viewer,
  questionId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: questions.id })
    .from(questions)
    .where(and(eq(questions.id, questionId), handledBy(viewer)));
  return row !== undefined;
}
