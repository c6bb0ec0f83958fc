/**
 * When an answer is right: the one rule study sessions and exams share (docs/product/product-decisions.md: decided on the
 * server from the stored answers, never taken from the client).
 */

/** The answer key of a question: `correctAnswers` is the full set; older rows may hold only the letter. */
export function answerKeyOf(row: {
  correctAnswer: string;
  correctAnswers: readonly string[];
}): string[] {
  if (row.correctAnswers.length > 0) return [...new Set(row.correctAnswers)].sort();
  return row.correctAnswer ? [row.correctAnswer] : [];
}

/** Correct when the selected set equals the answer set exactly (multipleCorrect: every one, no extra). */
export function isCorrectSelection(selected: readonly string[], key: readonly string[]): boolean {
  if (key.length === 0) return false;
  const chosen = new Set(selected.map((l) => l.toUpperCase()));
  return chosen.size === key.length && key.every((l) => chosen.has(l));
}
