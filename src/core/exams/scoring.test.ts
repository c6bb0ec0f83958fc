import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyseItems, pointBiserial, scoreSpread } from "./item-analysis";
import { isItemCorrect, scoreExam, type ScoredItem } from "./scoring";
import { joinCodeFrom, normalizeJoinCode, pastDeadline, remainingMs, toCsv } from "./settings";

const item = (over: Partial<ScoredItem>): ScoredItem => ({
  questionId: "q",
  category: "Neuroscience",
  answered: true,
  isCorrect: true,
  timeSpentMs: 1000,
  ...over,
});

describe("isItemCorrect: the study rule", () => {
  it("needs every answer of a multiple-correct question and no extra", () => {
    expect(isItemCorrect(["A", "C", "E"], ["A", "C", "E"])).toBe(true);
    expect(isItemCorrect(["e", "a", "c"], ["A", "C", "E"])).toBe(true);
    expect(isItemCorrect(["A", "C"], ["A", "C", "E"])).toBe(false);
    expect(isItemCorrect(["A", "B", "C", "E"], ["A", "C", "E"])).toBe(false);
    expect(isItemCorrect(null, ["B"])).toBe(false);
    expect(isItemCorrect([], ["B"])).toBe(false);
  });
});

describe("scoreExam", () => {
  it("scores, times and names the slowest and most-missed categories", () => {
    const score = scoreExam([
      item({ questionId: "1", category: "Neuroscience", timeSpentMs: 10_000 }),
      item({ questionId: "2", category: "Neuroscience", isCorrect: false, timeSpentMs: 20_000 }),
      item({ questionId: "3", category: "Ethics", timeSpentMs: 60_000 }),
      item({ questionId: "4", category: "", answered: false, isCorrect: false, timeSpentMs: 0 }),
    ]);
    expect(score).toMatchObject({
      total: 4,
      answered: 3,
      correct: 2,
      percent: 50,
      timeSpentMs: 90_000,
      averageMsPerQuestion: 22_500,
      slowestCategory: "Ethics",
    });
    expect(score.categories).toEqual([
      {
        category: "Ethics",
        total: 1,
        correct: 1,
        answered: 1,
        percent: 100,
        timeSpentMs: 60_000,
        averageMs: 60_000,
      },
      {
        category: "Neuroscience",
        total: 2,
        correct: 1,
        answered: 2,
        percent: 50,
        timeSpentMs: 30_000,
        averageMs: 15_000,
      },
      {
        category: "Uncategorized",
        total: 1,
        correct: 0,
        answered: 0,
        percent: 0,
        timeSpentMs: 0,
        averageMs: 0,
      },
    ]);
    // Neuroscience and Uncategorized each miss one; Uncategorized has the lower percent.
    expect(score.mostMissedCategory).toBe("Uncategorized");
  });

  it("answers an empty or perfect exam without inventing categories", () => {
    expect(scoreExam([])).toMatchObject({
      total: 0,
      percent: 0,
      averageMsPerQuestion: 0,
      slowestCategory: null,
      mostMissedCategory: null,
    });
    expect(scoreExam([item({})]).mostMissedCategory).toBeNull();
  });

  it("counts an unanswered question as neither answered nor right, whatever its flag says", () => {
    expect(scoreExam([item({ answered: false, isCorrect: true })]).correct).toBe(0);
  });
});

describe("item analysis", () => {
  const questions = [
    { questionId: "q1", key: ["A"], options: ["A", "B", "C"] },
    { questionId: "q2", key: ["B"], options: ["A", "B", "C"] },
  ];
  const taker = (q1: string[] | null, q2: string[] | null) => ({
    answers: new Map([
      ["q1", q1],
      ["q2", q2],
    ]),
  });

  it("gives p-values, option shares and point-biserial discrimination", () => {
    const result = analyseItems(questions, [
      taker(["A"], ["B"]),
      taker(["A"], ["C"]),
      taker(["B"], ["C"]),
      taker(null, ["A"]),
    ]);
    expect(result.totals).toEqual([2, 1, 0, 0]);
    const [q1, q2] = result.items;
    expect(q1!.pValue).toBe(0.5);
    expect(q1!.optionShares).toEqual({ A: 0.5, B: 0.25, C: 0 });
    expect(q1!.unansweredShare).toBe(0.25);
    // Those right on q1 scored 2 and 1, the others 0 and 0: a strongly discriminating item.
    expect(q1!.discrimination).toBeCloseTo(0.9045, 3);
    expect(q2!.pValue).toBe(0.25);
    expect(q2!.discrimination).toBeCloseTo(0.8704, 3);
  });

  it("answers null discrimination when it is undefined: one taker, all right, all wrong, no spread", () => {
    expect(analyseItems(questions, [taker(["A"], ["B"])]).items[0]!.discrimination).toBeNull();
    expect(
      analyseItems(questions, [taker(["A"], ["B"]), taker(["A"], ["A"])]).items[0]!.discrimination,
    ).toBeNull();
    expect(pointBiserial([true, false], [3, 3])).toBeNull();
    expect(analyseItems(questions, []).items[0]).toMatchObject({
      pValue: null,
      discrimination: null,
      optionShares: { A: 0, B: 0, C: 0 },
    });
  });

  it("keeps discrimination within [-1, 1] and finite, and p-values within [0, 1]", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.constantFrom("A", "B", "C", null), fc.constantFrom("A", "B", "C", null)),
          {
            maxLength: 40,
          },
        ),
        (answers) => {
          const result = analyseItems(
            questions,
            answers.map(([a, b]) => taker(a ? [a] : null, b ? [b] : null)),
          );
          for (const it of result.items) {
            if (it.discrimination !== null) {
              expect(Number.isFinite(it.discrimination)).toBe(true);
              expect(Math.abs(it.discrimination)).toBeLessThanOrEqual(1);
            }
            if (it.pValue !== null) expect(it.pValue).toBeGreaterThanOrEqual(0);
          }
        },
      ),
    );
  });

  it("summarises the spread of scores", () => {
    expect(scoreSpread([])).toMatchObject({ count: 0, mean: null, standardDeviation: null });
    expect(scoreSpread([2, 4, 4, 4, 5, 5, 7, 9])).toEqual({
      count: 8,
      mean: 5,
      standardDeviation: 2,
      min: 2,
      max: 9,
      median: 4.5,
    });
  });
});

describe("deadline and join codes", () => {
  it("counts the remaining time down to zero and allows the grace after the deadline", () => {
    const endsAt = new Date("2026-01-01T10:00:00Z");
    expect(remainingMs(endsAt, new Date("2026-01-01T09:59:00Z"))).toBe(60_000);
    expect(remainingMs(endsAt, new Date("2026-01-01T10:01:00Z"))).toBe(0);
    expect(remainingMs(null, new Date())).toBeNull();
    expect(pastDeadline(endsAt, new Date("2026-01-01T10:00:04Z"))).toBe(false);
    expect(pastDeadline(endsAt, new Date("2026-01-01T10:00:06Z"))).toBe(true);
    expect(pastDeadline(null, new Date())).toBe(false);
  });

  it("makes 8-character codes from the unambiguous alphabet and reads typed ones leniently", () => {
    const code = joinCodeFrom([0, 1, 2, 3, 4, 5, 6, 1000]);
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    expect(normalizeJoinCode(" abcd-efgh ")).toBe("ABCDEFGH");
  });

  it("writes CSV that spreadsheets read as data", () => {
    expect(
      toCsv([
        ["name", "score"],
        ['a "b", c', 3],
        ["=cmd()", null],
      ]),
    ).toBe('name,score\r\n"a ""b"", c",3\r\n\'=cmd(),\r\n');
  });
});
