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
  if (page.totalCapped) return `${withCommas(RESULT_COUNT_CAP)}+ questions found`;
  const noun = page.total === 1 ? "question" : "questions";
  return `${withCommas(page.total)} ${noun} found`;
}

/**
 * 12345 → "12,345", as `toLocaleString("en-US")` writes it, without building an Intl.NumberFormat:
 * that cost ~45 ms on a throttled first load of Browse (issue 20).
 */
function withCommas(n: number): string {
  const digits = String(Math.trunc(Math.abs(n)));
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
    out += digits[i];
  }
  return n < 0 ? `-${out}` : out;
}
