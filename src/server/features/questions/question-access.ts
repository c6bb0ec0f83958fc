import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  questions,
  studyStates,
  users,
  type QuestionRow,
  type StudyStateRow,
} from "../../db/schema";
import { isUuid } from "../../../core/schemas";
import { notFound } from "../../errors";
import {
  imagesByQuestion,
  questionColumns,
  reportedNotices,
  toQuestionJson,
  visibleTo,
  type CreatorInfo,
  type QuestionJson,
  type ReportedNotice,
  type StoredQuestion,
} from "./question-json";

export const QUESTION_NOT_FOUND = "Question not found";

/**
 * The question if the user may see it (own or public), else null. Another user's private question is
 * indistinguishable from a missing one (docs/product/product-decisions.md: 404).
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
  const ids = rows.map((r) => r.id);
  const [images, notices] = await Promise.all([
    imagesByQuestion(db, ids),
    reportedNotices(db, ids),
  ]);
  return rows.map((row) =>
    toQuestionJson(row, {
      viewerId,
      creator: byId.get(row.creatorId) ?? null,
      studyState: states.get(row.id) ?? null,
      images: images.get(row.id),
      reported: notices.get(row.id),
    }),
  );
}

// The generated search column is never sent back: it repeats the text, options and explanation.

/** Question rows with what their JSON needs: the creator's name and profile flag, the viewer's state. */
function selectQuestionJson(db: Db, viewerId: string) {
  return db
    .select({
      q: questionColumns,
      creator: { username: users.username, publicProfile: users.publicProfile },
      state: studyStates,
    })
    .from(questions)
    .innerJoin(users, eq(users.id, questions.creatorId))
    .leftJoin(
      studyStates,
      and(eq(studyStates.questionId, questions.id), eq(studyStates.userId, viewerId)),
    );
}

type JoinedRow = Awaited<ReturnType<ReturnType<typeof selectQuestionJson>["execute"]>>[number];

function toJson(
  viewerId: string,
  row: JoinedRow,
  images?: string[],
  reported?: ReportedNotice,
): QuestionJson {
  return toQuestionJson(row.q, {
    viewerId,
    creator: row.creator,
    studyState: row.state,
    images,
    reported,
  });
}

/** Question JSON for the given ids in the given order (ids the viewer may not see are left out). */
export async function loadQuestionsJson(
  db: Db,
  viewerId: string,
  ids: string[],
): Promise<QuestionJson[]> {
  if (ids.length === 0) return [];
  const rows = await selectQuestionJson(db, viewerId).where(
    and(inArray(questions.id, ids), visibleTo(viewerId)),
  );
  const found = rows.map((r) => r.q.id);
  const [images, notices] = await Promise.all([
    imagesByQuestion(db, found),
    reportedNotices(db, found),
  ]);
  const byId = new Map(
    rows.map((r) => [r.q.id, toJson(viewerId, r, images.get(r.q.id), notices.get(r.q.id))]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Question JSON for the ids, keyed by id (ids the viewer may not see are left out), read 5,000 ids at
 * a time: an import's thousands of ids stay below PostgreSQL's limit on parameters.
 */
export async function questionJsonById(
  db: Db,
  viewerId: string,
  ids: string[],
): Promise<Map<string, QuestionJson>> {
  const out = new Map<string, QuestionJson>();
  for (let start = 0; start < ids.length; start += 5000) {
    const rows = await db
      .select(questionColumns)
      .from(questions)
      .where(and(inArray(questions.id, ids.slice(start, start + 5000)), visibleTo(viewerId)));
    for (const json of await questionJsonFor(db, viewerId, rows)) {
      out.set(json._id, json);
    }
  }
  return out;
}
