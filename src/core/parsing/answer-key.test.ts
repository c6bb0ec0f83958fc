// Tests run only in Node: the real-world fixture is read from disk.
/* eslint-disable no-restricted-imports */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
/* eslint-enable no-restricted-imports */
import { describe, expect, it } from "vitest";
import type { ParsedQuestion } from "../import/types";
import { applyAnswerKey, parseAnswerKey } from "./answer-key";

const REAL = path.resolve(__dirname, "../../../fixtures/real");
if (!existsSync(REAL)) {
  throw new Error(`Real-world fixtures not found at ${REAL} (expected <project>/fixtures/real)`);
}

const NUMBERS_NOTE =
  "Answers given as numbers were read as letters: 1 = A, 2 = B, 3 = C, 4 = D, 5 = E.";

describe("parseAnswerKey: formats", () => {
  it.each([
    ["1. B 2. D 3. A", { 1: "B", 2: "D", 3: "A" }],
    ["1) (C)\n2) (a)", { 1: "C", 2: "A" }],
    ["1-B\n2 - c\n3–D", { 1: "B", 2: "C", 3: "D" }],
    ["1: b  2: e", { 1: "B", 2: "E" }],
    ["Q1. A Q2. B", { 1: "A", 2: "B" }],
    ["A. 1\nB. 2\nC) 3", { 1: "A", 2: "B", 3: "C" }],
    ["A: 1, 4, 7\nB: 2, 3", { 1: "A", 2: "B", 3: "B", 4: "A", 7: "A" }],
    ["1\tB\n2\tc", { 1: "B", 2: "C" }],
    ["1 B 2 C 3 d", { 1: "B", 2: "C", 3: "D" }],
    ["1. A (B) C D\n2. (A) B C D", { 1: "B", 2: "A" }],
    ["Sr.No\tQuestion ID\tAnswer\n1\t6270011\tC\n2\t6270012\tD", { 1: "C", 2: "D" }],
    ["| No. | Answer |\n|---|---|\n| 1 | B |\n| 2 | A |", { 1: "B", 2: "A" }],
  ])("%j", (text, answers) => {
    const result = parseAnswerKey(text);
    expect(result.answers).toEqual(answers);
    expect(result.warnings).toEqual([]);
  });

  it("reads numeric answers 1-5 as A-E and says so", () => {
    expect(parseAnswerKey("1. 3 2. 5 3. 1\n4\t2")).toEqual({
      answers: { 1: "C", 2: "E", 3: "A", 4: "B" },
      warnings: [NUMBERS_NOTE],
      sections: [
        {
          title: "Section 1",
          answers: { 1: "C", 2: "E", 3: "A", 4: "B" },
          warnings: [NUMBERS_NOTE],
        },
      ],
    });
  });

  it("skips dropped, invalid and multiple answers with warnings", () => {
    const result = parseAnswerKey("1. Drop\n2. B\n3. A, C\nSr. No.\tKey\n4.\tF\n5.\tBonus");
    expect(result.answers).toEqual({ 2: "B" });
    expect(result.warnings).toEqual([
      "Question 1 was dropped from the key; no answer was recorded.",
      "Question 3: 'A, C' names several answers; it was skipped.",
      "Question 4: 'F' is not an answer from A to E (or 1 to 5); it was skipped.",
      "Question 5 was dropped from the key; no answer was recorded.",
    ]);
  });

  it("keeps the later answer of a repeated number, with a warning", () => {
    expect(parseAnswerKey("1. A 2. B 3. C 2. D")).toMatchObject({
      answers: { 1: "A", 2: "D", 3: "C" },
      warnings: ["Question 2 appears twice; the later answer D was kept."],
    });
  });

  it("ignores text without answers", () => {
    expect(parseAnswerKey("")).toEqual({ answers: {}, warnings: [], sections: [] });
    expect(parseAnswerKey("PRITE 2023 Part 1 answer key\nGood luck!").answers).toEqual({});
    expect(parseAnswerKey("Subject 1: Anatomy (301)\nBusiness 2: Studies").answers).toEqual({});
  });

  it("takes the first of sections whose numbering restarts", () => {
    const result = parseAnswerKey("Part 1\n1. A 2. B\nPart 2\n1. C 2. D 3. E");
    expect(result.answers).toEqual({ 1: "A", 2: "B" });
    expect(result.warnings).toEqual([
      "The key has 2 sections whose numbering restarts. Only the first, 'Part 1' (2 answers), was taken; paste the others separately: 'Part 2' (3 answers).",
    ]);
    expect(result.sections.map((s) => [s.title, s.answers])).toEqual([
      ["Part 1", { 1: "A", 2: "B" }],
      ["Part 2", { 1: "C", 2: "D", 3: "E" }],
    ]);
  });
});

describe("parseAnswerKey: cuet_2024_answerkey.txt", () => {
  const text = readFileSync(path.join(REAL, "cuet_2024_answerkey.txt"), "utf8");
  const result = parseAnswerKey(text);
  // Section 1's 'Correct Options/Answers' column, 1-4, in order, as the file has it.
  const firstSection = "22441322341314112321424323132131212123411133431222";

  it("returns the first section's 50 answers, numbers read as letters", () => {
    const expected: Record<number, string> = {};
    [...firstSection].forEach((digit, k) => {
      expected[k + 1] = "ABCDE"[Number(digit) - 1] ?? "?";
    });
    expect(result.answers).toEqual(expected);
    expect(Object.keys(result.answers)).toHaveLength(50);
  });

  it("warns that only the first of 6 sections was taken, naming the others", () => {
    expect(result.warnings).toEqual([
      "The key has 6 sections whose numbering restarts. Only the first, 'Subject 1: Accountancy/Book Keeping (301)' (50 answers), was taken; paste the others separately: 'Subject 2: Business Studies (305)' (49 answers), 'Subject 3: Economics/Business Economics (309)' (50 answers), 'Subject 4: English (101)' (50 answers), 'Subject 5: General Test (501)' (60 answers), 'Subject 6: Mathematics / Applied Mathematics (319)' (85 answers).",
      NUMBERS_NOTE,
    ]);
  });

  it("keeps every section, skipping the dropped question and reading the stray 'D'", () => {
    expect(result.sections.map((s) => [s.title, Object.keys(s.answers).length])).toEqual([
      ["Subject 1: Accountancy/Book Keeping (301)", 50],
      ["Subject 2: Business Studies (305)", 49],
      ["Subject 3: Economics/Business Economics (309)", 50],
      ["Subject 4: English (101)", 50],
      ["Subject 5: General Test (501)", 60],
      ["Subject 6: Mathematics / Applied Mathematics (319)", 85],
    ]);
    const business = result.sections[1];
    expect(business?.answers[5]).toBeUndefined();
    expect(business?.answers[4]).toBe("C");
    expect(business?.answers[6]).toBe("A");
    expect(business?.warnings).toEqual([
      NUMBERS_NOTE,
      "Question 5 was dropped from the key; no answer was recorded.",
    ]);
    const english = result.sections[3];
    expect(english?.answers[47]).toBe("D");
    expect(english?.warnings).toEqual([
      NUMBERS_NOTE,
      "Question 47: the answer is a letter while the rest of the key uses numbers; it was read as D.",
    ]);
    // The 'Options/Answer for Challenge' column ('1 2 3 4 None of these') is never read.
    expect(result.sections[4]?.answers[60]).toBeDefined();
  });
});

describe("applyAnswerKey", () => {
  const q = (number: number | null, correctAnswer: ParsedQuestion["correctAnswer"]) => ({
    number,
    correctAnswer,
    text: `Q${number}`,
  });

  it("fills answers by number, keeping existing ones unless asked", () => {
    const questions = [q(1, ""), q(2, "A"), q(3, ""), q(null, ""), q(4, "C")];
    const answers = { 1: "B", 2: "D", 4: "C", 9: "A" } as const;
    const kept = applyAnswerKey(questions, answers, { overwrite: false });
    expect(kept.questions.map((x) => x.correctAnswer)).toEqual(["B", "A", "", "", "C"]);
    expect(kept.applied).toBe(1);
    const replaced = applyAnswerKey(questions, answers, { overwrite: true });
    expect(replaced.questions.map((x) => x.correctAnswer)).toEqual(["B", "D", "", "", "C"]);
    expect(replaced.applied).toBe(2);
    expect(questions[0]?.correctAnswer).toBe(""); // the input is not changed
    expect(replaced.questions[2]).toBe(questions[2]);
  });

  it("ignores letters outside A-E and inherited keys", () => {
    const answers = Object.assign(Object.create({ 1: "A" }) as Record<number, string>, { 2: "Z" });
    const result = applyAnswerKey([q(1, ""), q(2, "")], answers, { overwrite: true });
    expect(result.applied).toBe(0);
  });
});
