import { describe, expect, it } from "vitest";
import { parseQuestionsJson } from "./questions-json";

const ctx = { part: "1", year: 2021 } as const;
const parse = (text: string) => parseQuestionsJson(text, ctx);

const empty = { A: "", B: "", C: "", D: "", E: "" };

describe("parseQuestionsJson", () => {
  it("reads an array in a ```json fence", () => {
    const text = [
      "```json",
      JSON.stringify([
        {
          number: 3,
          question: "Which is an SSRI?",
          options: { A: "Sertraline", B: "Bupropion", C: "Mirtazapine", D: "Trazodone", E: "" },
          correctAnswer: "A",
          explanation: "Sertraline inhibits serotonin reuptake.",
          category: "Psychopharmacology",
        },
      ]),
      "```",
    ].join("\n");
    expect(parse(text)).toEqual([
      {
        number: 3,
        part: "1",
        year: 2021,
        text: "Which is an SSRI?",
        options: { A: "Sertraline", B: "Bupropion", C: "Mirtazapine", D: "Trazodone", E: "" },
        correctAnswer: "A",
        explanation: "Sertraline inhibits serotonin reuptake.",
        category: "Psychopharmacology",
      },
    ]);
  });

  it("accepts a single object, a {questions} wrapper and prose around the JSON", () => {
    expect(parse('{"text": "Q?"}')).toEqual([
      {
        number: null,
        part: "1",
        year: 2021,
        text: "Q?",
        options: empty,
        correctAnswer: "",
        explanation: "",
        category: "",
      },
    ]);
    expect(
      parse('{"questions": [{"question": "A?"}, {"question": "B?"}]}')?.map((q) => q.text),
    ).toEqual(["A?", "B?"]);
    expect(parse('Here you go:\n[{"question": "Q?"}]\nHope this helps.')?.[0]?.text).toBe("Q?");
    expect(parse("```\n[]\n```")).toEqual([]);
  });

  it("fills the spec's defaults for missing fields", () => {
    expect(parse("[{}]")).toEqual([
      {
        number: null,
        part: "1",
        year: 2021,
        text: "",
        options: empty,
        correctAnswer: "",
        explanation: "",
        category: "",
      },
    ]);
  });

  it("reads options given as arrays, keyed objects or flat fields", () => {
    const items = [
      { question: "1", options: ["A. One", "B) Two", "Three"] },
      {
        question: "2",
        options: [
          { letter: "B", text: "bee" },
          { label: "d", value: "dee" },
        ],
      },
      { question: "3", options: { a: "x", option_b: "y", "C.": "z" } },
      { question: "4", A: "p", optionB: "q" },
    ];
    const qs = parse(JSON.stringify(items));
    expect(qs?.map((q) => q.options)).toEqual([
      { A: "One", B: "Two", C: "Three", D: "", E: "" },
      { A: "", B: "bee", C: "", D: "dee", E: "" },
      { A: "x", B: "y", C: "z", D: "", E: "" },
      { A: "p", B: "q", C: "", D: "", E: "" },
    ]);
  });

  it("reads answers as letters, option numbers, labels or option text", () => {
    const options = { A: "Lithium", B: "Valproate", C: "Lamotrigine" };
    const cases: [unknown, string][] = [
      ["b", "B"],
      [3, "C"],
      ["Answer: A", "A"],
      ["(C)", "C"],
      ["Valproate", "B"],
      ["A, B", ""],
      ["F", ""],
      [null, ""],
      [{ letter: "A" }, ""],
    ];
    for (const [answer, expected] of cases) {
      const qs = parse(JSON.stringify({ question: "Q?", options, answer }));
      expect(qs?.[0]?.correctAnswer, JSON.stringify(answer)).toBe(expected);
    }
    expect(parse(JSON.stringify({ question: "Q?", correct_answer: "B" }))?.[0]?.correctAnswer).toBe(
      "B",
    );
  });

  it("reads numbers given as numbers or numeric text", () => {
    const qs = parse(
      '[{"number": "12"}, {"questionNumber": 4}, {"number": "twelve"}, {"number": 1.5}]',
    );
    expect(qs?.map((q) => q.number)).toEqual([12, 4, null, null]);
  });

  it("returns null for text that is not JSON questions, so the caller parses it as text", () => {
    expect(parse("")).toBeNull();
    expect(parse("1. What is this?\nA. Text\nB. Not JSON")).toBeNull();
    expect(parse("[1, 2")).toBeNull();
    expect(parse("42")).toBeNull();
    expect(parse('"a string"')).toBeNull();
    expect(parse("null")).toBeNull();
    expect(parse("```json\n{broken\n```")).toBeNull();
  });

  it("skips array items that are not objects", () => {
    expect(parse('[1, "x", null, [], {"question": "Q?"}]')?.map((q) => q.text)).toEqual(["Q?"]);
  });

  it("never lets '__proto__' or 'constructor' keys reach a prototype", () => {
    const text =
      '[{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, ' +
      '"question": "Q?", "options": {"__proto__": {"A": "evil"}, "A": "good", "B": "fine"}, ' +
      '"answer": {"__proto__": "A"}}]';
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const qs = parse(text);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(qs).toHaveLength(1);
    const q = qs?.[0];
    expect(Object.getPrototypeOf(q)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(q?.options)).toBe(Object.prototype);
    expect(Object.keys(q ?? {}).sort()).toEqual(
      [
        "category",
        "correctAnswer",
        "explanation",
        "number",
        "options",
        "part",
        "text",
        "year",
      ].sort(),
    );
    expect(q?.options).toEqual({ A: "good", B: "fine", C: "", D: "", E: "" });
    expect((q as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });
});
