// Tests run only in Node: the real-world fixture is read from disk.
/* eslint-disable no-restricted-imports */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
/* eslint-enable no-restricted-imports */
import { describe, expect, it } from "vitest";
import { parseQuestionsText } from "./questions-text";

const REAL = path.resolve(__dirname, "../../../fixtures/real");
if (!existsSync(REAL)) {
  throw new Error(`Real-world fixtures not found at ${REAL} (expected <project>/fixtures/real)`);
}

const ctx = { part: "2", year: 2022 } as const;
const parse = (text: string) => parseQuestionsText(text, ctx);

describe("parseQuestionsText: shapes of pasted text", () => {
  it("reads numbered questions with options on their own lines and an answer", () => {
    const text = [
      "1. Which drug is first line for acute mania?",
      "A. Lithium",
      "B. Sertraline",
      "C. Bupropion",
      "D. Trazodone",
      "E. Buspirone",
      "Answer: A",
      "",
      "2) What is the most common side effect?",
      "(A) Tremor",
      "(B) Rash",
      "Correct answer: (B)",
    ].join("\n");
    expect(parse(text)).toEqual([
      {
        number: 1,
        part: "2",
        year: 2022,
        text: "Which drug is first line for acute mania?",
        options: { A: "Lithium", B: "Sertraline", C: "Bupropion", D: "Trazodone", E: "Buspirone" },
        correctAnswer: "A",
        explanation: "",
        category: "",
      },
      {
        number: 2,
        part: "2",
        year: 2022,
        text: "What is the most common side effect?",
        options: { A: "Tremor", B: "Rash", C: "", D: "", E: "" },
        correctAnswer: "B",
        explanation: "",
        category: "",
      },
    ]);
  });

  it("accepts 'Question 1', 'Q2:' and '12 .' numbering, and lower-case options", () => {
    const text = [
      "Question 1",
      "Stem one?",
      "a. x",
      "b. y",
      "Q2: Stem two?",
      "a) x",
      "b) y",
      "ANS: b",
      "12 . Stem twelve?",
      "A) p",
      "B) q",
      "Answer: 3",
    ].join("\n");
    const qs = parse(text);
    expect(qs.map((q) => [q.number, q.text, q.correctAnswer])).toEqual([
      [1, "Stem one?", ""],
      [2, "Stem two?", "B"],
      [12, "Stem twelve?", "C"],
    ]);
    expect(qs[0]?.options).toEqual({ A: "x", B: "y", C: "", D: "", E: "" });
  });

  it("splits options written on one line, also after the stem", () => {
    const qs = parse(
      [
        "1. Which is an SSRI?",
        "A. Sertraline B. Bupropion C. Mirtazapine D. Trazodone",
        "2. Which is a mood stabiliser? (A) Lithium (B) Haloperidol",
        "3. Vitamin B. deficiency causes what? A) Pellagra B) Scurvy",
      ].join("\n"),
    );
    expect(qs.map((q) => [q.text, q.options])).toEqual([
      [
        "Which is an SSRI?",
        { A: "Sertraline", B: "Bupropion", C: "Mirtazapine", D: "Trazodone", E: "" },
      ],
      ["Which is a mood stabiliser?", { A: "Lithium", B: "Haloperidol", C: "", D: "", E: "" }],
      ["Vitamin B. deficiency causes what?", { A: "Pellagra", B: "Scurvy", C: "", D: "", E: "" }],
    ]);
  });

  it("joins wrapped stem lines, keeps paragraphs, and continues wrapped options", () => {
    const text = [
      "7. A 34-year-old woman presents with",
      "low mood for three weeks.",
      "",
      "Which is the best next step?",
      "A. Start an SSRI and",
      "follow up in two weeks",
      "B. Admit",
    ].join("\n");
    const [q] = parse(text);
    expect(q?.text).toBe(
      "A 34-year-old woman presents with low mood for three weeks.\n\nWhich is the best next step?",
    );
    expect(q?.options.A).toBe("Start an SSRI and follow up in two weeks");
  });

  it("reads an explanation, including lines that discuss options", () => {
    const text = [
      "1. Q?",
      "A. a",
      "B. b",
      "Answer: B. Because b is right.",
      "Explanation: Longer reasoning",
      "over two lines.",
      "A. is wrong because of x.",
      "1. a numbered point inside the explanation",
      "2. Next question?",
      "A. c",
      "B. d",
    ].join("\n");
    const qs = parse(text);
    expect(qs).toHaveLength(2);
    expect(qs[0]?.correctAnswer).toBe("B");
    expect(qs[0]?.explanation).toBe(
      "Because b is right.\n\nLonger reasoning over two lines. A. is wrong because of x. 1. a numbered point inside the explanation",
    );
    expect(qs[1]?.number).toBe(2);
  });

  it("moves an inline 'Answer:' off the last option", () => {
    const [q] = parse("1. Q?\nA. a\nB. b   Answer: A");
    expect(q?.options.B).toBe("b");
    expect(q?.correctAnswer).toBe("A");
  });

  it("keeps a stem starting 'C. difficile' and a numbered list inside a stem", () => {
    const text = [
      "5. Consider:",
      "1. fever",
      "2. rash",
      "C. difficile colitis is suspected. Which antibiotic?",
      "A. Vancomycin",
      "B. Ampicillin",
    ].join("\n");
    const qs = parse(text);
    expect(qs).toHaveLength(1);
    expect(qs[0]?.number).toBe(5);
    expect(qs[0]?.text).toBe(
      "Consider: 1. fever 2. rash C. difficile colitis is suspected. Which antibiotic?",
    );
  });

  it("starts a new question after a blank line following options, and drops headings", () => {
    const text = [
      "Section 3: Mood disorders",
      "",
      "Which is first line?",
      "A. a",
      "B. b",
      "",
      "Which is second line?",
      "A. c",
      "B. d",
      "",
      "Part 2: Psychosis",
      "",
      "E1A01 (B)",
      "Third?",
      "A. e",
      "B. f",
    ].join("\n");
    const qs = parse(text);
    expect(qs.map((q) => [q.text, q.correctAnswer])).toEqual([
      ["Section 3: Mood disorders\n\nWhich is first line?", ""],
      ["Which is second line?", ""],
      ["Third?", "B"],
    ]);
  });

  it("returns nothing for text without questions", () => {
    expect(parse("")).toEqual([]);
    expect(parse("   \n\n  ")).toEqual([]);
    expect(parse("Just a sentence.\nAnother one.")).toEqual([]);
    expect(parse("1. Stem without options")).toEqual([]);
  });
});

describe("parseQuestionsText: ncvec_extra_class_pool_2024.txt", () => {
  const text = readFileSync(path.join(REAL, "ncvec_extra_class_pool_2024.txt"), "utf8");
  const questions = parseQuestionsText(text, ctx);
  // The answers as the file states them, read independently of the parser.
  const headerAnswers = [...text.matchAll(/^E\d[A-Z]\d{2} \(([A-D])\)\s*$/gm)].map((m) => m[1]);

  it("has 601 questions: 598 under an ID header, 3 whose header was lost", () => {
    // SOURCES.md says 4 headers are missing. Counting blocks: 602 blank-line separated blocks,
    // 598 with a header, 3 without a header but with a stem and four options, and 1 that is the
    // section title 'E2D Operating methods: …' (no options), which is not a question.
    expect(headerAnswers).toHaveLength(598);
    expect(text.match(/^A\. /gm)).toHaveLength(601);
    expect(questions).toHaveLength(601);
  });

  it("gives every headed question its answer, in order, and the headerless ones none", () => {
    const answered = questions.filter((q) => q.correctAnswer !== "");
    expect(answered.map((q) => q.correctAnswer)).toEqual(headerAnswers);
    expect(questions.filter((q) => q.correctAnswer === "").map((q) => q.text)).toEqual([
      "Which of the following is an acceptable bandwidth for digital voice or slow-scan TV transmissions made on the HF amateur bands?",
      "What must the control operator of a repeater operating in the 70-centimeter band do if a radiolocation system experiences interference from that repeater?",
      "What is the primary function of an external earth connection or ground rod?",
    ]);
    expect(questions.some((q) => q.text.startsWith("E2D Operating methods"))).toBe(false);
  });

  it("reads four clean options per question", () => {
    for (const q of questions) {
      expect([q.options.A, q.options.B, q.options.C, q.options.D].every((o) => o !== "")).toBe(
        true,
      );
      expect(q.options.E).toBe("");
      for (const option of Object.values(q.options)) {
        expect(option).not.toMatch(/(^|\s)[A-D]\.\s/);
        expect(option).not.toMatch(/\n/);
      }
      expect(q.text).not.toMatch(/\n/);
      expect(q.number).toBeNull();
    }
    expect(questions[0]).toEqual({
      number: null,
      part: "2",
      year: 2022,
      text: "Why is it not legal to transmit a 3 kHz bandwidth USB signal with a carrier frequency of 14.348 MHz?",
      options: {
        A: "USB is not used on 20-meter phone",
        B: "The lower 1 kHz of the signal is outside the 20-meter band",
        C: "14.348 MHz is outside the 20-meter band",
        D: "The upper 1 kHz of the signal is outside the 20-meter band",
        E: "",
      },
      correctAnswer: "D",
      explanation: "",
      category: "",
    });
  });

  it("preserves curly quotes and apostrophes", () => {
    const last = questions[questions.length - 1];
    expect(last?.options.A).toBe("Above the climber\u2019s head level");
    expect(last?.correctAnswer).toBe("A");
    expect(
      questions.some((q) => q.text.includes("remotely controlled station\u2019s transmissions")),
    ).toBe(true);
    expect(
      questions.some((q) =>
        Object.values(q.options).some((o) => o.includes("\u201cthis is,\u201d")),
      ),
    ).toBe(true);
  });
});
