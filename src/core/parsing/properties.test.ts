import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { expectParsedQuestion, expectPrototypeUntouched } from "../import/shape.test-utils";
import { applyAnswerKey, parseAnswerKey } from "./answer-key";
import { parseQuestionsJson } from "./questions-json";
import { parseQuestionsText } from "./questions-text";

const RUNS = 10_000;
const ctx = { part: "2", year: 2020 } as const;

/** Pasted-text fragments: the markers the parsers react to, mixed with arbitrary text. */
const token = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      "\n",
      "\n\n",
      " ",
      "1.",
      "12 .",
      "3)",
      "Question 4",
      "Q5:",
      "A.",
      "B)",
      "(C)",
      "d.",
      "E.",
      "a) x b) y",
      "A. foo B. bar C. baz",
      "Answer: B",
      "Correct answer: (C)",
      "ANS: d",
      "Answer: 3",
      "Explanation:",
      "E1A01 (D)",
      "Which drug?",
      "Drop",
      "1-B",
      "A. 1",
      "Sr. No.\tQuestion ID\tCorrect Options/Answers",
      "\t",
      "|",
      "\u2019",
      "\uFEFF",
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 4 }) },
);
const pasted = fc.array(token, { maxLength: 40 }).map((parts) => parts.join(" "));
const anyText = fc.oneof(
  pasted,
  fc.string({ maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 200 }),
);

const nastyKey = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "question",
  "text",
  "options",
  "answer",
  "correctAnswer",
  "number",
  "A",
  "b",
  "optionC",
  "explanation",
  "category",
  "questions",
  "toString",
  "hasOwnProperty",
);
const jsonish: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
    ),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(nastyKey, tie("value"), { maxKeys: 5 }),
  ),
})).value;
const jsonText = fc.oneof(
  jsonish.map((v) => JSON.stringify(v) ?? ""),
  jsonish.map((v) => "```json\n" + (JSON.stringify(v) ?? "") + "\n```"),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  anyText,
);

afterAll(() => {
  expectPrototypeUntouched();
});

describe("parseQuestionsText properties", () => {
  it("never throws, yields valid drafts with text and options, and is deterministic", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const out = parseQuestionsText(text, ctx);
        for (const q of out) {
          expectParsedQuestion(q);
          if (q.text === "" || Object.values(q.options).every((o) => o === "")) {
            throw new Error(`kept a draft without text or options: ${JSON.stringify(q)}`);
          }
          if (q.part !== "2" || q.year !== 2020) throw new Error("context not applied");
        }
        if (JSON.stringify(parseQuestionsText(text, ctx)) !== JSON.stringify(out)) {
          throw new Error("not deterministic");
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe("parseQuestionsJson properties", () => {
  it("never throws; returns null or valid drafts; never pollutes a prototype", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const out = parseQuestionsJson(text, ctx);
        if (out === null) return;
        if (!Array.isArray(out)) throw new Error("not an array");
        for (const q of out) expectParsedQuestion(q);
      }),
      { numRuns: RUNS },
    );
    expectPrototypeUntouched();
  });

  it("survives prototype keys at every level", () => {
    const payloads = [
      '{"__proto__": {"polluted": true}}',
      '[{"constructor": {"prototype": {"polluted": true}}, "question": "q"}]',
      '{"questions": {"__proto__": [1]}, "question": "x"}',
      '[{"options": {"__proto__": {"A": "x", "polluted": 1}}, "answer": "__proto__"}]',
      '[{"options": [{"letter": "__proto__", "text": "x"}, {"__proto__": {"text": "y"}}]}]',
      '{"__proto__": {"__proto__": {"polluted": true}}, "text": "t", "A": "a", "number": "__proto__"}',
    ];
    for (const payload of payloads) {
      const out = parseQuestionsJson(payload, ctx);
      for (const q of out ?? []) expectParsedQuestion(q);
      expectPrototypeUntouched();
    }
  });
});

describe("parseAnswerKey properties", () => {
  it("never throws; numbers are positive integers and answers A-E", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const { answers, warnings, sections } = parseAnswerKey(text);
        if (Object.getPrototypeOf(answers) !== Object.prototype) throw new Error("prototype");
        for (const [key, letter] of Object.entries(answers)) {
          if (!/^[1-9]\d*$/.test(key) || !["A", "B", "C", "D", "E"].includes(letter)) {
            throw new Error(`bad entry ${key}: ${String(letter)}`);
          }
        }
        if (!warnings.every((w) => typeof w === "string" && w !== "")) throw new Error("warnings");
        if (
          sections.length > 0 &&
          JSON.stringify(sections[0]?.answers) !== JSON.stringify(answers)
        ) {
          throw new Error("answers are not the first section's");
        }
        const applied = applyAnswerKey([{ number: 1, correctAnswer: "" as const }], answers, {
          overwrite: true,
        });
        if (applied.applied > 1) throw new Error("applied");
      }),
      { numRuns: RUNS },
    );
  });
});

describe("linear time on adversarial input", () => {
  const cases: [string, string][] = [
    ["spaces after a label", "question" + " ".repeat(60_000) + "x"],
    ["spaces after Answer", "Answer" + " ".repeat(60_000) + "!"],
    ["letters and spaces", "1. " + "A ".repeat(30_000) + "!"],
    ["parenthesised letters", "1. " + "(A) ".repeat(20_000) + "?"],
    ["many markers", "A. x B. y ".repeat(10_000)],
    ["many numbers", "1. 2. 3. ".repeat(10_000)],
    ["blank paragraphs", "1. Q\nA. a\nAnswer: A\n" + "\n\nx".repeat(30_000)],
    ["explanation list", "1. Q\nA. a\nExplanation: e\n" + "1. item\n".repeat(30_000)],
    ["tabs", "1\t".repeat(50_000)],
    ["pipes", "| 1 | ".repeat(30_000)],
    ["fences", "```".repeat(30_000)],
    ["brackets", "[{".repeat(30_000)],
  ];

  it.each(cases)("%s", (_, text) => {
    const started = performance.now();
    parseQuestionsText(text, ctx);
    parseAnswerKey(text);
    parseQuestionsJson(text, ctx);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
