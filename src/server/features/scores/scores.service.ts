import { and, asc, desc, eq } from "drizzle-orm";
import { isUuid, type TPriteScoreInput } from "../../../core/schemas";
import { yearRangeError } from "../../../core/constants";
import type { Db } from "../../db/client";
import { priteScores } from "../../db/schema";
import { AppError } from "../../errors";
import { toPriteScoreJson, type PriteScoreJson } from "./score-json";
import { SCORE_MESSAGES } from "./scores.types";

const notFound = () => new AppError("NOT_FOUND", SCORE_MESSAGES.NOT_FOUND);

/** Owner-only: another user's id, a deleted id and a malformed id all answer 404 alike. */
function ownScore(userId: string, id: string) {
  if (!isUuid(id)) throw notFound();
  return and(eq(priteScores.id, id), eq(priteScores.userId, userId))!;
}

function checkYear(input: TPriteScoreInput, now: Date): void {
  const problem = yearRangeError(Number(input.year), now);
  if (problem) throw new AppError("BAD_REQUEST", problem);
}

/** Newest exam first; records of one year by when they were entered. */
export async function listScores(db: Db, userId: string): Promise<PriteScoreJson[]> {
  const rows = await db
    .select()
    .from(priteScores)
    .where(eq(priteScores.userId, userId))
    .orderBy(desc(priteScores.year), asc(priteScores.createdAt), asc(priteScores.id));
  return rows.map(toPriteScoreJson);
}

export async function getScore(db: Db, userId: string, id: string): Promise<PriteScoreJson> {
  const [row] = await db.select().from(priteScores).where(ownScore(userId, id)).limit(1);
  if (!row) throw notFound();
  return toPriteScoreJson(row);
}

export async function createScore(
  db: Db,
  userId: string,
  input: TPriteScoreInput,
  now: Date,
): Promise<PriteScoreJson> {
  checkYear(input, now);
  const [row] = await db
    .insert(priteScores)
    .values({ ...input, userId, createdAt: now, updatedAt: now })
    .returning();
  return toPriteScoreJson(row!);
}

export async function updateScore(
  db: Db,
  userId: string,
  id: string,
  input: TPriteScoreInput,
  now: Date,
): Promise<PriteScoreJson> {
  const where = ownScore(userId, id);
  checkYear(input, now);
  const [row] = await db
    .update(priteScores)
    .set({ ...input, updatedAt: now })
    .where(where)
    .returning();
  if (!row) throw notFound();
  return toPriteScoreJson(row);
}

export async function deleteScore(db: Db, userId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(priteScores)
    .where(ownScore(userId, id))
    .returning({ id: priteScores.id });
  if (deleted.length === 0) throw notFound();
}
