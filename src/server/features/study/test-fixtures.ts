import type { Db } from "../../db/client";
import { questions, type NewQuestionRow, type QuestionRow } from "../../db/schema";

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
