/**
 * Blueprint balancing (issue 16): an exam draws from each category in proportion to that category's
 * share of the eligible pool, as the PRITE's own blueprint weights its sections.
 */
import { sampleWithoutRepeats, seededRng } from "../random";

export interface CategoryAllocation {
  category: string;
  /** Eligible questions in the category. */
  available: number;
  /** Questions the exam takes from it. */
  count: number;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Per-category counts by the largest remainder method: each category first gets the whole part of
 * its exact quota (size × its share of the pool), then the seats left go to the largest fractional
 * parts. Ties go to the larger category, then to the category named first, so the result never depends
 * on the order the pool arrived in. The size is capped at the pool; each count is within one of the
 * exact quota and never more than the category holds.
 */
export function allocateByShare(
  available: ReadonlyMap<string, number>,
  size: number,
): CategoryAllocation[] {
  const categories = [...available].filter(([, n]) => n > 0).sort(([a], [b]) => compareText(a, b));
  const total = categories.reduce((sum, [, n]) => sum + n, 0);
  const seats = Math.max(0, Math.min(Math.floor(size), total));
  if (seats === 0) return categories.map(([category, n]) => ({ category, available: n, count: 0 }));
  // Integer arithmetic: quota = seats·n/total, its whole part and the remainder's numerator exactly.
  const rows = categories.map(([category, n]) => ({
    category,
    available: n,
    count: Math.floor((seats * n) / total),
    remainder: (seats * n) % total,
  }));
  let left = seats - rows.reduce((sum, r) => sum + r.count, 0);
  const byRemainder = [...rows].sort(
    (a, b) =>
      b.remainder - a.remainder || b.available - a.available || compareText(a.category, b.category),
  );
  for (const row of byRemainder) {
    if (left === 0) break;
    // A category with a remainder has count < quota ≤ available, so the extra seat always fits.
    row.count += 1;
    left -= 1;
  }
  return rows.map(({ category, available: n, count }) => ({ category, available: n, count }));
}

/** Sorted by code units; a list that arrives sorted (the server sends it so) is only checked. */
function sortedText(list: string[]): string[] {
  for (let i = 1; i < list.length; i++) {
    if (list[i - 1]! > list[i]!) return list.sort(compareText);
  }
  return list;
}

export interface Blueprint {
  /** The exam's questions in the order they are asked. */
  questionIds: string[];
  allocation: CategoryAllocation[];
  /** The size asked for; `questionIds.length` is smaller when the pool is. */
  requested: number;
}

/**
 * The questions of an exam: counts by `allocateByShare`, then a seeded draw without repeats in each
 * category, then one seeded shuffle of the whole so categories interleave as on the real exam. Ids are
 * sorted before drawing, so the same seed over the same pool gives the same exam whatever order the
 * database returned it in. An id listed under two categories is drawn at most once.
 */
export function drawBlueprint(opts: {
  pool: ReadonlyMap<string, readonly string[]>;
  size: number;
  seed: number;
}): Blueprint {
  const seen = new Set<string>();
  const byCategory = new Map<string, string[]>();
  for (const [category, ids] of [...opts.pool].sort(([a], [b]) => compareText(a, b))) {
    const unique = sortedText([...new Set(ids)].filter((id) => !seen.has(id)));
    for (const id of unique) seen.add(id);
    byCategory.set(category, unique);
  }
  const allocation = allocateByShare(
    new Map([...byCategory].map(([category, ids]) => [category, ids.length])),
    opts.size,
  );
  const rng = seededRng(opts.seed);
  const drawn: string[] = [];
  for (const { category, count } of allocation) {
    drawn.push(...sampleWithoutRepeats(byCategory.get(category) ?? [], count, rng));
  }
  return {
    questionIds: sampleWithoutRepeats(drawn, drawn.length, rng),
    allocation,
    requested: opts.size,
  };
}
