/**
 * Matches the server counts exactly per visibility branch (SEARCH_COUNT_CAP in
 * src/server/features/questions/questions.types.ts; result-count.test.ts keeps the two equal).
 */
export const RESULT_COUNT_CAP = 500;

/**
 * Browse's count line (decision 012): 'N questions found', '1 question found', and '500+ questions
 * found' once the server stopped counting — its total is then only a lower bound that depends on how
 * far the user paged, so it is not shown.
 */
export function resultCountText(page: { total: number; totalCapped: boolean }): string {
  if (page.totalCapped) return `${RESULT_COUNT_CAP.toLocaleString("en-US")}+ questions found`;
  const noun = page.total === 1 ? "question" : "questions";
  return `${page.total.toLocaleString("en-US")} ${noun} found`;
}
