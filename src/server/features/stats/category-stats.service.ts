import { count, eq, sql } from "drizzle-orm";
import { categoryLabel, percent } from "../../../core/stats";
import type { Db } from "../../db/client";
import { reviews } from "../../db/schema";
import { masteredCategoryCounts, visibleCategoryCounts } from "../questions/questions.service";
import type { CategoryStat } from "../questions/questions.types";
import { dueByCategory } from "../study/due-page.service";

/**
 * Per category, for the caller (docs/product/data.md): questions they may see, mastered (their ease above 2.5), due
 * (exactly the study pool's rule, docs/product/product-decisions.md and decision 021, shared with the Study screen) and their
 * accuracy from the review log (null before any answer). Empty categories read 'Uncategorized'.
 * Sorted by total, then name.
 */
export async function categoryStats(db: Db, userId: string, now: Date): Promise<CategoryStat[]> {
  const [totals, mastered, answers, due] = await Promise.all([
    visibleCategoryCounts(db, userId),
    masteredCategoryCounts(db, userId),
    db
      .select({
        category: reviews.category,
        answered: count(),
        correct: sql<number>`count(*) filter (where ${reviews.isCorrect})::int`,
      })
      .from(reviews)
      .where(eq(reviews.userId, userId))
      .groupBy(reviews.category),
    dueByCategory(db, { userId, now }),
  ]);

  const stats = new Map<string, CategoryStat & { correct: number }>();
  const entry = (raw: string) => {
    const category = categoryLabel(raw);
    let s = stats.get(category);
    if (!s) {
      s = { category, total: 0, mastered: 0, due: 0, accuracy: null, answered: 0, correct: 0 };
      stats.set(category, s);
    }
    return s;
  };
  for (const [category, n] of totals) entry(category).total += n;
  for (const [category, n] of mastered) entry(category).mastered += n;
  for (const [category, n] of due) entry(category).due += n;
  for (const a of answers) {
    const s = entry(a.category);
    s.answered += a.answered;
    s.correct += a.correct;
  }
  return [...stats.values()]
    .map(({ correct, ...s }) => ({
      ...s,
      accuracy: s.answered === 0 ? null : percent(correct, s.answered),
    }))
    .sort((a, b) => b.total - a.total || a.category.localeCompare(b.category));
}
