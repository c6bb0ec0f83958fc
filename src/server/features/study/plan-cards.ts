/**
 * The forecast's studied cards (issue 34 item 7, decision 395): the user's study states in the plan's
 * categories, read as ONE row instead of one row per state. Per-row cost dominated `study.plan` for a
 * 10,000-question user (8,000 rows: ~65 ms on PGlite, whose driver decodes each row in JavaScript, and
 * ~10 ms of drizzle's row mapping on either database); aggregated, the read is ~15 ms on PGlite.
 *
 * The row holds the categories as a text array and every card's numbers as one string, both aggregated
 * over the same join in the same order, so card i of the string is the question of category i. The
 * order is the join's, as the per-row query returned it (the forecast's memoised FSRS steps are filled
 * by the first card of each grid cell, so the order is kept). Per card: `due,last,stability,difficulty`
 * and, only when the FSRS memory is missing, `,interval,ease` for `memoryFromSm2`. Times are epoch
 * milliseconds cut down to the millisecond (what `new Date` makes of the drivers' timestamps); the
 * doubles are PostgreSQL's shortest exact text, so `Number` gives back the same values.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { ForecastCard } from "../../../core/srs/forecast";
import { memoryFromSm2 } from "../../../core/srs/fsrs";
import type { Db } from "../../db/client";
import { questions, studyStates } from "../../db/schema";

const epochMs = (column: typeof studyStates.dueAt | typeof studyStates.lastReviewedAt) =>
  sql`floor(extract(epoch from ${column}) * 1000)::int8`;

/** The user's studied cards in the plan's categories (all when none are picked), memory resolved. */
export async function studiedCards(
  db: Db,
  userId: string,
  categories: readonly string[],
): Promise<ForecastCard[]> {
  const missing = sql`(${studyStates.stability} is null or ${studyStates.fsrsDifficulty} is null)`;
  const [row] = await db
    .select({
      categories: sql<string[] | null>`array_agg(${questions.category})`,
      numbers: sql<string | null>`string_agg(concat(${epochMs(studyStates.dueAt)}, ',', ${epochMs(
        studyStates.lastReviewedAt,
      )}, ',', ${studyStates.stability}, ',', ${studyStates.fsrsDifficulty}, case when ${missing} then concat(',', ${
        studyStates.intervalDays
      }, ',', ${studyStates.easeFactor}) end), ';')`,
    })
    .from(studyStates)
    .innerJoin(questions, eq(questions.id, studyStates.questionId))
    .where(
      and(
        eq(studyStates.userId, userId),
        categories.length > 0 ? inArray(questions.category, [...categories]) : undefined,
      ),
    );
  return decodeCards(row?.categories ?? null, row?.numbers ?? null);
}

const num = (text: string | undefined): number | null =>
  text === undefined || text === "" ? null : Number(text);

/** The aggregated row back into cards (exported for its test). */
export function decodeCards(
  categories: readonly string[] | null,
  numbers: string | null,
): ForecastCard[] {
  if (!categories || categories.length === 0 || numbers === null) return [];
  const records = numbers.split(";");
  if (records.length !== categories.length) {
    throw new Error(`study plan: ${categories.length} categories but ${records.length} cards`);
  }
  const cards: ForecastCard[] = new Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const f = records[i]!.split(",");
    const dueAt = num(f[0]);
    const lastReviewedAt = num(f[1]);
    let stability = num(f[2]);
    let difficulty = num(f[3]);
    if (stability === null || difficulty === null) {
      const memory = memoryFromSm2({
        easeFactor: Number(f[5]),
        intervalDays: Number(f[4]),
        repetitions: 0,
        lapses: 0,
        dueAt: dueAt === null ? null : new Date(dueAt),
        lastReviewedAt: lastReviewedAt === null ? null : new Date(lastReviewedAt),
      });
      stability = memory.stability;
      difficulty = memory.difficulty;
    }
    cards[i] = { category: categories[i]!, dueAt, lastReviewedAt, stability, difficulty };
  }
  return cards;
}
