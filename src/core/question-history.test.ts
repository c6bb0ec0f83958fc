import { describe, expect, it } from "vitest";
import {
  answerKeyOf,
  diffSnapshots,
  restoreChangesSomething,
  versionChanges,
  type QuestionSnapshot,
} from "./question-history";

const base: QuestionSnapshot = {
  text: "Which is right?",
  back: "",
  options: { A: "alpha", B: "beta", C: "gamma" },
  correctAnswer: "B",
  correctAnswers: ["B"],
  numCorrectAnswers: 1,
  questionType: "standard",
  instructions: "",
  explanation: "",
  generatedExplanation: "",
  category: "Neuroscience",
  part: "1",
  year: 2024,
  number: 12,
  source: "",
  isPublic: false,
  programId: null,
  shareStatement: "",
  reserved: false,
};

describe("diffSnapshots", () => {
  it("finds nothing between equal versions, whatever the order of the options' keys", () => {
    expect(
      diffSnapshots(base, { ...base, options: { C: "gamma", B: "beta", A: "alpha" } }),
    ).toEqual([]);
  });

  it("shows the key once, as letters, not its two stored columns", () => {
    expect(diffSnapshots(base, { ...base, correctAnswer: "C", correctAnswers: ["C"] })).toEqual([
      { field: "key", label: "Answer key", before: "B", after: "C" },
    ]);
    expect(answerKeyOf({ correctAnswer: "", correctAnswers: ["E", "A"] })).toBe("A, E");
    expect(answerKeyOf({ correctAnswer: "", correctAnswers: [] })).toBe("(none)");
  });

  it("shows options letter by letter, added and removed ones as empty", () => {
    const after = { ...base, options: { A: "alpha", B: "beta 2", D: "delta" } };
    expect(diffSnapshots(base, after).map((c) => [c.label, c.before, c.after])).toEqual([
      ["Option B", "beta", "beta 2"],
      ["Option C", "gamma", "(empty)"],
      ["Option D", "(empty)", "delta"],
    ]);
  });

  it("shows visibility as the level, not the program's id", () => {
    const inProgram = { ...base, programId: "p1" };
    expect(diffSnapshots(base, inProgram)).toEqual([
      { field: "visibility", label: "Visibility", before: "Private", after: "Program" },
    ]);
    expect(diffSnapshots(inProgram, { ...base, programId: "p2" })).toEqual([]);
    expect(diffSnapshots(base, { ...base, isPublic: true }).map((c) => c.after)).toEqual([
      "Public",
    ]);
  });

  it("names a flashcard's text its front", () => {
    const card = { ...base, questionType: "flashcard", options: {} };
    expect(diffSnapshots(card, { ...card, text: "New front" })[0]!.label).toBe("Front");
  });

  it("lists every field that changed, in the dialog's order", () => {
    const after: QuestionSnapshot = {
      ...base,
      text: "New",
      explanation: "Why",
      category: "Child",
      year: 2023,
      number: null,
      reserved: true,
    };
    expect(diffSnapshots(base, after).map((c) => c.label)).toEqual([
      "Question",
      "Explanation",
      "Category",
      "Year",
      "Question number",
      "Reserved for assessments",
    ]);
  });
});

describe("versionChanges", () => {
  it("diffs each version against the one before it, oldest first, the first against nothing", () => {
    const list = versionChanges([
      { version: 3, snapshot: { ...base, text: "Three" } },
      { version: 1, snapshot: base },
      { version: 2, snapshot: { ...base, text: "Two" } },
    ]);
    expect(list.map((v) => [v.version, v.changes.map((c) => c.after)])).toEqual([
      [1, []],
      [2, ["Two"]],
      [3, ["Three"]],
    ]);
  });
});

describe("restoreChangesSomething", () => {
  it("ignores visibility, which a restore keeps, and options' key order", () => {
    expect(restoreChangesSomething(base, { ...base, isPublic: true, shareStatement: "x" })).toBe(
      false,
    );
    expect(
      restoreChangesSomething(base, { ...base, options: { C: "gamma", A: "alpha", B: "beta" } }),
    ).toBe(false);
    expect(restoreChangesSomething(base, { ...base, correctAnswer: "A" })).toBe(true);
  });
});
