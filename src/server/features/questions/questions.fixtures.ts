/**
 * Test data shared by the createCaller and REST suites of the question bank, so both surfaces are held
 * to exactly the same rules.
 */
import { count, eq } from "drizzle-orm";
import { LETTER_MESSAGE, PART_MESSAGE, QUESTION_MESSAGES } from "../../../core/schemas";
import { questions, users } from "../../db/schema";
import type { Harness, TestUser } from "../../test/harness";

export function validQuestion(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    text: "Which medication is first-line for bipolar maintenance?",
    options: { A: "Lithium", B: "Haloperidol", C: "Sertraline", D: "Diazepam", E: "Bupropion" },
    correctAnswer: "A",
    explanation: "Lithium reduces relapse and suicide.",
    category: "Bipolar Disorders",
    part: "1",
    year: 2024,
    number: 7,
    ...overrides,
  };
}

const nextYear = new Date().getFullYear() + 1;

/** Every rule in docs/product/validation.md 'Edit question' plus the limits: [name, payload overrides, message]. */
export const VALIDATION_CASES: [string, Record<string, unknown>, string][] = [
  ["empty text", { text: "" }, QUESTION_MESSAGES.TEXT_REQUIRED],
  ["blank text", { text: "   \n " }, QUESTION_MESSAGES.TEXT_REQUIRED],
  ["missing text", { text: undefined }, QUESTION_MESSAGES.TEXT_REQUIRED],
  ["only option A", { options: { A: "One" } }, QUESTION_MESSAGES.OPTIONS_REQUIRED],
  ["option B blank", { options: { A: "One", B: "  " } }, QUESTION_MESSAGES.OPTIONS_REQUIRED],
  ["no options", { options: {} }, QUESTION_MESSAGES.OPTIONS_REQUIRED],
  ["standard without answer", { correctAnswer: "" }, QUESTION_MESSAGES.ANSWER_REQUIRED],
  [
    "fourOptions without answer",
    { questionType: "fourOptions", correctAnswer: "" },
    QUESTION_MESSAGES.ANSWER_REQUIRED,
  ],
  [
    "multipleCorrect without answers",
    { questionType: "multipleCorrect", correctAnswer: "", correctAnswers: [] },
    QUESTION_MESSAGES.ANSWERS_REQUIRED,
  ],
  [
    "numCorrectAnswers 0",
    { questionType: "multipleCorrect", correctAnswers: ["A"], numCorrectAnswers: 0 },
    QUESTION_MESSAGES.NUM_CORRECT,
  ],
  [
    "numCorrectAnswers 16",
    { questionType: "multipleCorrect", correctAnswers: ["A"], numCorrectAnswers: 16 },
    QUESTION_MESSAGES.NUM_CORRECT,
  ],
  [
    "numCorrectAnswers 2.5",
    { questionType: "multipleCorrect", correctAnswers: ["A"], numCorrectAnswers: 2.5 },
    QUESTION_MESSAGES.NUM_CORRECT,
  ],
  ["answer letter P", { correctAnswer: "P" }, LETTER_MESSAGE],
  [
    "answers with letter Z",
    { questionType: "multipleCorrect", correctAnswers: ["A", "Z"] },
    LETTER_MESSAGE,
  ],
  ["option letter P", { options: { A: "a", B: "b", P: "p" } }, QUESTION_MESSAGES.OPTION_LETTERS],
  [
    "answer on an empty option",
    { correctAnswer: "E", options: { A: "a", B: "b" } },
    "Option E has no text, so it cannot be the correct answer",
  ],
  ["part 3", { part: "3" }, PART_MESSAGE],
  ["part missing", { part: undefined }, PART_MESSAGE],
  ["year 1999", { year: 1999 }, "Year must be 2000 or later"],
  ["year far ahead", { year: nextYear + 1 }, `Year must be between 2000 and ${nextYear}`],
  ["year not a number", { year: "soon" }, "Please enter a valid year"],
  ["question number 0", { number: 0 }, QUESTION_MESSAGES.NUMBER],
  [
    "unknown type",
    { questionType: "essay" },
    "Question type must be standard, fourOptions or multipleCorrect",
  ],
  ["text too long", { text: "x".repeat(10_001) }, "Question text must be at most 10000 characters"],
  [
    "option too long",
    { options: { A: "x".repeat(2_001), B: "b" } },
    "Option A must be at most 2000 characters",
  ],
  [
    "explanation too long",
    { explanation: "x".repeat(20_001) },
    "Explanation must be at most 20000 characters",
  ],
  [
    "instructions too long",
    { instructions: "x".repeat(1_001) },
    "Instructions must be at most 1000 characters",
  ],
  ["category too long", { category: "x".repeat(101) }, "Category must be at most 100 characters"],
  ["isPublic not boolean", { isPublic: "yes" }, "isPublic must be true or false"],
];

export async function questionCount(h: Harness): Promise<number> {
  const [row] = await h.db.db.select({ n: count() }).from(questions);
  return row?.n ?? 0;
}

export async function setPublicProfile(h: Harness, userId: string, on: boolean): Promise<void> {
  await h.db.db.update(users).set({ publicProfile: on }).where(eq(users.id, userId));
}

/** The first account is the admin (as in production); then two regular users. */
export async function adminAliceBob(
  h: Harness,
  prefix: string,
): Promise<{ admin: TestUser; alice: TestUser; bob: TestUser }> {
  const admin = await h.user({ username: `${prefix}_admin` });
  const alice = await h.user({ username: `${prefix}_alice` });
  const bob = await h.user({ username: `${prefix}_bob` });
  return { admin, alice, bob };
}
