import { expect } from "vitest";
import { LETTERS } from "./types";

const QUESTION_KEYS = [
  "category",
  "correctAnswer",
  "explanation",
  "number",
  "options",
  "part",
  "text",
  "year",
].join(",");
const ANSWERS = new Set(["", ...LETTERS]);

/**
 * What is wrong with a value that should be a ParsedQuestion (missing, extra or mistyped fields,
 * a prototype other than Object.prototype), or null. Plain checks rather than expect(): property
 * tests call this hundreds of thousands of times.
 */
export function parsedQuestionProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null) return "not an object";
  const q = value as Record<string, unknown>;
  if (Object.getPrototypeOf(q) !== Object.prototype) return "prototype is not Object.prototype";
  const keys = Object.keys(q)
    .filter((k) => k !== "sourceRow")
    .sort()
    .join(",");
  if (keys !== QUESTION_KEYS) return `keys are ${keys}`;
  if ("sourceRow" in q && !(Number.isInteger(q.sourceRow) && (q.sourceRow as number) >= 1)) {
    return `sourceRow ${String(q.sourceRow)}`;
  }
  if (!(q.number === null || (Number.isInteger(q.number) && (q.number as number) >= 0))) {
    return `number ${String(q.number)}`;
  }
  if (q.part !== "1" && q.part !== "2") return `part ${String(q.part)}`;
  if (typeof q.year !== "number") return "year is not a number";
  for (const key of ["text", "explanation", "category"]) {
    if (typeof q[key] !== "string") return `${key} is not a string`;
  }
  if (!ANSWERS.has(q.correctAnswer as string)) return `correctAnswer ${String(q.correctAnswer)}`;
  const options = q.options;
  if (typeof options !== "object" || options === null) return "options is not an object";
  if (Object.getPrototypeOf(options) !== Object.prototype) return "options prototype";
  if (Object.keys(options).sort().join("") !== "ABCDE") return "options keys";
  for (const letter of LETTERS) {
    if (typeof (options as Record<string, unknown>)[letter] !== "string") return `option ${letter}`;
  }
  return null;
}

export function expectParsedQuestion(value: unknown): void {
  const problem = parsedQuestionProblem(value);
  if (problem) throw new Error(`Not a ParsedQuestion (${problem}): ${JSON.stringify(value)}`);
}

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

/** Object.prototype has exactly its built-in members and nothing was added through it. */
export function expectPrototypeUntouched(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
  const probe: Record<string, unknown> = {};
  for (const name of ["polluted", "isAdmin", "A", "question", "0"]) {
    expect(probe[name]).toBeUndefined();
  }
}
