import { describe, expect, it } from "vitest";
import { firstIssueMessage } from "./common";
import {
  ZBulkQuestionItem,
  ZBulkQuestionsInput,
  ZQuestionInput,
  correctAnswerCountWarning,
  normalizeQuestionInput,
} from "./question";

const valid = {
  text: "  Which drug is first-line for X?  ",
  options: { A: "Lithium", B: " Valproate ", C: "", d: "Quetiapine" },
  correctAnswer: "b",
  correctAnswers: [],
  questionType: "standard",
  instructions: "",
  explanation: "Because.",
  category: "Bipolar Disorders",
  part: 1,
  year: "2023",
  number: "12",
  isPublic: true,
};

function messages(input: unknown): string[] {
  const r = ZQuestionInput.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

describe("ZQuestionInput", () => {
  it("normalises a valid standard question", () => {
    expect(ZQuestionInput.parse(valid)).toEqual({
      text: "Which drug is first-line for X?",
      options: { A: "Lithium", B: "Valproate", D: "Quetiapine" },
      correctAnswer: "B",
      correctAnswers: ["B"],
      numCorrectAnswers: 1,
      questionType: "standard",
      instructions: "",
      explanation: "Because.",
      category: "Bipolar Disorders",
      part: "1",
      year: 2023,
      number: 12,
      isPublic: true,
    });
  });

  it("fills defaults: standard type, empty texts, no number, no isPublic", () => {
    const q = ZQuestionInput.parse({
      text: "Q?",
      options: { A: "a", B: "b" },
      correctAnswer: "A",
      part: "2",
      year: 2024,
    });
    expect(q).toEqual({
      text: "Q?",
      options: { A: "a", B: "b" },
      correctAnswer: "A",
      correctAnswers: ["A"],
      numCorrectAnswers: 1,
      questionType: "standard",
      instructions: "",
      explanation: "",
      category: "",
      part: "2",
      year: 2024,
      number: null,
    });
    expect("isPublic" in q).toBe(false);
  });

  it("maps '' and null number to null", () => {
    expect(ZQuestionInput.parse({ ...valid, number: "" }).number).toBeNull();
    expect(ZQuestionInput.parse({ ...valid, number: null }).number).toBeNull();
  });

  it.each([
    [{ text: "   " }, "Question text is required"],
    [{ text: undefined }, "Question text is required"],
    [{ options: { A: "x", B: "  " } }, "At least options A and B are required"],
    [{ options: { B: "x", C: "y" }, correctAnswer: "B" }, "At least options A and B are required"],
    [{ correctAnswer: "" }, "Please select a correct answer"],
    [{ questionType: "fourOptions", correctAnswer: "" }, "Please select a correct answer"],
    [
      { questionType: "multipleCorrect", correctAnswers: [] },
      "Please select at least one correct answer",
    ],
    [{ correctAnswer: "C" }, "Option C has no text, so it cannot be the correct answer"],
    [{ correctAnswer: "Z" }, "Answer letters must be A to O"],
    [{ options: { A: "a", B: "b", P: "p" } }, "Option letters must be A to O"],
    [{ numCorrectAnswers: 0 }, "The number of correct answers must be between 1 and 15"],
    [{ numCorrectAnswers: 16 }, "The number of correct answers must be between 1 and 15"],
    [{ numCorrectAnswers: 2.5 }, "The number of correct answers must be between 1 and 15"],
    [{ part: 3 }, "Part must be 1 or 2"],
    [{ part: undefined }, "Part must be 1 or 2"],
    [{ year: "abc" }, "Please enter a valid year"],
    [{ year: 1999 }, "Year must be 2000 or later"],
    [{ number: 0 }, "Question number must be a positive whole number"],
    [{ number: "1.5" }, "Question number must be a positive whole number"],
    [{ questionType: "essay" }, "Question type must be standard, fourOptions or multipleCorrect"],
  ])("rejects %o with %s", (patch, message) => {
    expect(messages({ ...valid, ...patch })[0]).toBe(message);
  });

  it("reports text, options and answer problems together, in form order", () => {
    expect(messages({ ...valid, text: "", options: {}, correctAnswer: "" })).toEqual([
      "Question text is required",
      "At least options A and B are required",
      "Please select a correct answer",
    ]);
  });

  it.each([
    ["text", { text: "x".repeat(10_001) }, "Question text must be at most 10000 characters"],
    [
      "option",
      { options: { A: "x".repeat(2001), B: "b" } },
      "Option A must be at most 2000 characters",
    ],
    [
      "explanation",
      { explanation: "x".repeat(20_001) },
      "Explanation must be at most 20000 characters",
    ],
    [
      "instructions",
      { instructions: "x".repeat(1001) },
      "Instructions must be at most 1000 characters",
    ],
    ["category", { category: "x".repeat(101) }, "Category must be at most 100 characters"],
  ])("limits the %s length", (_name, patch, message) => {
    expect(messages({ ...valid, ...patch })).toEqual([message]);
  });

  it("accepts texts exactly at the limit", () => {
    expect(messages({ ...valid, text: "x".repeat(10_000), category: "c".repeat(100) })).toEqual([]);
  });

  it("keeps only the letters of the type: fourOptions drops E, so E cannot be the answer", () => {
    const opts = { A: "a", B: "b", C: "c", D: "d", E: "e" };
    expect(
      ZQuestionInput.parse({ ...valid, questionType: "fourOptions", options: opts }).options,
    ).toEqual({ A: "a", B: "b", C: "c", D: "d" });
    expect(
      messages({ ...valid, questionType: "fourOptions", options: opts, correctAnswer: "E" }),
    ).toEqual(["Option E has no text, so it cannot be the correct answer"]);
  });

  it("normalises multipleCorrect answers: sorted, unique, correctAnswer empty, default count 3", () => {
    const q = ZQuestionInput.parse({
      ...valid,
      questionType: "multipleCorrect",
      options: { A: "a", B: "b", C: "c", D: "d", K: "k" },
      correctAnswer: "A",
      correctAnswers: ["k", "B", "B", "a"],
    });
    expect(q.correctAnswers).toEqual(["A", "B", "K"]);
    expect(q.correctAnswer).toBe("");
    expect(q.numCorrectAnswers).toBe(3);
    expect(q.options).toEqual({ A: "a", B: "b", C: "c", D: "d", K: "k" });
  });

  it("keeps a declared multipleCorrect count and forces 1 for single-answer types", () => {
    const multi = {
      ...valid,
      questionType: "multipleCorrect",
      correctAnswers: ["A"],
      numCorrectAnswers: "2",
    };
    expect(ZQuestionInput.parse(multi).numCorrectAnswers).toBe(2);
    expect(ZQuestionInput.parse({ ...valid, numCorrectAnswers: 4 }).numCorrectAnswers).toBe(1);
  });

  it("rejects a multipleCorrect answer whose option is empty", () => {
    expect(
      messages({ ...valid, questionType: "multipleCorrect", correctAnswers: ["A", "C"] }),
    ).toEqual(["Option C has no text, so it cannot be the correct answer"]);
  });

  it("takes a single listed answer when correctAnswer is missing", () => {
    const q = ZQuestionInput.parse({ ...valid, correctAnswer: "", correctAnswers: ["D"] });
    expect(q.correctAnswer).toBe("D");
    expect(q.correctAnswers).toEqual(["D"]);
  });

  it("rejects non-text options and non-object options", () => {
    expect(messages({ ...valid, options: { A: 1, B: "b" } })[0]).toBe("Options must be text");
    expect(messages({ ...valid, options: "A) x" })[0]).toBe("Options must be text");
  });
});

describe("normalizeQuestionInput", () => {
  it("returns the stored shape without rejecting a draft", () => {
    const draft = {
      text: " t ",
      options: { A: "a", b: "b", F: "f" },
      correctAnswer: "",
      correctAnswers: ["B", "A", "A"],
      numCorrectAnswers: undefined,
      questionType: "multipleCorrect" as const,
      instructions: "",
      explanation: "",
      category: "",
      part: "1" as const,
      year: 2022,
      number: null,
    };
    expect(normalizeQuestionInput(draft)).toMatchObject({
      text: "t",
      options: { A: "a", B: "b", F: "f" },
      correctAnswers: ["A", "B"],
      numCorrectAnswers: 3,
    });
    expect(normalizeQuestionInput({ ...draft, questionType: "standard" }).options).toEqual({
      A: "a",
      B: "b",
    });
  });
});

describe("correctAnswerCountWarning", () => {
  it("warns when the selection differs from the declared count", () => {
    expect(
      correctAnswerCountWarning({
        questionType: "multipleCorrect",
        correctAnswers: ["A", "B"],
        numCorrectAnswers: 3,
      }),
    ).toBe("You've selected 2 answers, but specified 3 correct answers");
  });
  it("is silent when counts match, for no selection, and for single-answer types", () => {
    const base = { questionType: "multipleCorrect" as const, numCorrectAnswers: 3 };
    expect(correctAnswerCountWarning({ ...base, correctAnswers: ["A", "B", "C"] })).toBeNull();
    expect(correctAnswerCountWarning({ ...base, correctAnswers: [] })).toBeNull();
    expect(
      correctAnswerCountWarning({
        questionType: "standard",
        correctAnswers: ["A", "B"],
        numCorrectAnswers: 1,
      }),
    ).toBeNull();
  });
  it("counts repeated letters once", () => {
    expect(
      correctAnswerCountWarning({
        questionType: "multipleCorrect",
        correctAnswers: ["A", "A", "B", "C"],
        numCorrectAnswers: 2,
      }),
    ).toBe("You've selected 3 answers, but specified 2 correct answers");
  });
});

describe("ZBulkQuestionItem", () => {
  const item = {
    text: "Imported question",
    options: { A: "one", B: "two", C: "", D: null, E: "five" },
    correctAnswer: "",
    category: "",
    part: "2",
    year: 2021,
  };

  it("allows a missing correct answer and fills defaults", () => {
    expect(ZBulkQuestionItem.parse(item)).toEqual({
      text: "Imported question",
      options: { A: "one", B: "two", E: "five" },
      correctAnswer: "",
      category: "",
      part: "2",
      year: 2021,
      number: null,
      explanation: "",
    });
  });

  it("keeps the id of an existing question being merged into", () => {
    const id = "0b6f0a4e-9f7e-4c5b-8a35-2f6f1c2d3e4f";
    expect(
      ZBulkQuestionItem.parse({ ...item, _id: id, number: 7, correctAnswer: "e" }),
    ).toMatchObject({ _id: id, number: 7, correctAnswer: "E" });
    expect(ZBulkQuestionItem.safeParse({ ...item, _id: "abc" }).success).toBe(false);
  });

  it.each([
    [{ text: "" }, "Question text is required"],
    [{ options: { A: "one" } }, "At least options A and B are required"],
    [{ options: { A: "a", B: "b", F: "f" } }, "Imported options must be A to E"],
    [{ correctAnswer: "F" }, "The correct answer must be a letter from A to E"],
    [{ correctAnswer: "C" }, "Option C has no text, so it cannot be the correct answer"],
  ])("rejects %o", (patch, message) => {
    const r = ZBulkQuestionItem.safeParse({ ...item, ...patch });
    expect(r.success).toBe(false);
    if (!r.success) expect(firstIssueMessage(r.error)).toBe(message);
  });

  it("points at the failing item in a bulk payload", () => {
    const r = ZBulkQuestionsInput.safeParse({ questions: [item, { ...item, text: "" }] });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues[0]?.path).toEqual(["questions", 1, "text"]);
    expect(firstIssueMessage(ZBulkQuestionsInput.safeParse({ questions: [] }).error!)).toBe(
      "No questions to import",
    );
  });
});
