import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  questions,
  studyStates,
  users,
  type QuestionRow,
  type StudyStateRow,
} from "../../db/schema";
import { notFound } from "../../errors";
import {
  imagesByQuestion,
  toQuestionJson,
  visibleTo,
  type CreatorInfo,
  type QuestionJson,
  type StoredQuestion,
} from "../questions/question-json";

export const QUESTION_NOT_FOUND = "Question not found";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from URLs and bodies: anything that is not a uuid simply names no question. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * The question if the user may see it (own or public), else null. Another user's private question is
 * indistinguishable from a missing one (DESIGN §7: 404).
 */
export async function findVisibleQuestion(
  db: Db,
  userId: string,
  questionId: string,
): Promise<QuestionRow | null> {
  if (!isUuid(questionId)) return null;
  const [row] = await db
    .select()
    .from(questions)
    .where(and(eq(questions.id, questionId), visibleTo(userId)));
  return row ?? null;
}

export async function requireVisibleQuestion(
  db: Db,
  userId: string,
  questionId: string,
): Promise<QuestionRow> {
  const row = await findVisibleQuestion(db, userId, questionId);
  if (!row) throw notFound(QUESTION_NOT_FOUND);
  return row;
}

/** Question JSON for a viewer: contributor name and only the viewer's own study entry. */
export async function questionJsonFor(
  db: Db,
  viewerId: string,
  rows: StoredQuestion[],
  statesByQuestion?: Map<string, StudyStateRow>,
  knownCreators?: Map<string, CreatorInfo>,
): Promise<QuestionJson[]> {
  if (rows.length === 0) return [];
  const byId = new Map(knownCreators);
  const missing = [...new Set(rows.map((r) => r.creatorId))].filter((id) => !byId.has(id));
  if (missing.length > 0) {
    const creators = await db
      .select({ id: users.id, username: users.username, publicProfile: users.publicProfile })
      .from(users)
      .where(inArray(users.id, missing));
    for (const c of creators) byId.set(c.id, c);
  }
  let states = statesByQuestion;
  if (!states) {
    const found = await db
      .select()
      .from(studyStates)
      .where(
        and(
          eq(studyStates.userId, viewerId),
          inArray(
            studyStates.questionId,
            rows.map((r) => r.id),
          ),
        ),
      );
    states = new Map(found.map((s) => [s.questionId, s]));
  }
  const images = await imagesByQuestion(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) =>
    toQuestionJson(row, {
      viewerId,
      creator: byId.get(row.creatorId) ?? null,
      studyState: states.get(row.id) ?? null,
      images: images.get(row.id),
    }),
  );
}
