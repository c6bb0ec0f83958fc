/**
 * Whether an answer is right: one rule for the server, which decides it for every stored review, and
 * the browser, which decides it while offline (issue 18) and must show the same verdict the server
 * will record when the answer syncs.
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
