import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  questions,
  studyStates,
  type NewQuestionRow,
  type QuestionRow,
  type StudyStateRow,
} from "../../db/schema";

let seq = 0;

/** Inserts a question straight into the database (tests of the study area only). */
export async function addQuestion(
  db: Db,
  creatorId: string,
  overrides: Partial<NewQuestionRow> = {},
): Promise<QuestionRow> {
  seq += 1;
  const multiple = overrides.questionType === "multipleCorrect";
  const [row] = await db
    .insert(questions)
    .values({
      creatorId,
      text: `Question ${seq}: which is right?`,
      options: multiple
        ? { A: "one", B: "two", C: "three", D: "four", E: "five", F: "six" }
        : { A: "alpha", B: "beta", C: "gamma", D: "delta", E: "epsilon" },
      correctAnswer: multiple ? "" : "B",
      correctAnswers: multiple ? ["A", "C", "E"] : ["B"],
      numCorrectAnswers: multiple ? 3 : 1,
      questionType: "standard",
      category: "Neuroscience",
      part: "1",
      year: 2024,
      number: seq,
      ...overrides,
    })
    .returning();
  return row!;
}

/** Inserts a flashcard (issue 17): a front and a back, no options and no answer key. */
export async function addFlashcard(
  db: Db,
  creatorId: string,
  overrides: Partial<NewQuestionRow> = {},
): Promise<QuestionRow> {
  return addQuestion(db, creatorId, {
    questionType: "flashcard",
    text: `<p>Front ${seq + 1}: what does lithium need monitored?</p>`,
    back: "<p>Serum levels, thyroid and kidney function</p>",
    options: {},
    correctAnswer: "",
    correctAnswers: [],
    numCorrectAnswers: 1,
    ...overrides,
  });
}

/** The user's stored study state of a question, if any. */
export async function studyStateOf(
  db: Db,
  userId: string,
  questionId: string,
): Promise<StudyStateRow | undefined> {
  const [row] = await db
    .select()
    .from(studyStates)
    .where(and(eq(studyStates.userId, userId), eq(studyStates.questionId, questionId)));
  return row;
}
