import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EMPTY_SUMS,
  formatDiscrimination,
  formatShare,
  ITEM_STATS_MIN_EXAMS,
  itemStatsView,
  pearson,
  pointBiserialFromSums,
  restScore,
} from "./item-stats";

function sumsOf(pairs: { x: number; y: number }[]) {
  return {
    n: pairs.length,
    sx: pairs.reduce((a, p) => a + p.x, 0),
    sy: pairs.reduce((a, p) => a + p.y, 0),
    syy: pairs.reduce((a, p) => a + p.y * p.y, 0),
    sxy: pairs.reduce((a, p) => a + p.x * p.y, 0),
  };
}

/** A rest score as the server makes them: k right of m other questions. */
const pair = fc
  .tuple(fc.integer({ min: 1, max: 60 }), fc.nat(), fc.boolean())
  .map(([m, k, right]) => ({ x: right ? 1 : 0, y: (k % (m + 1)) / m }));

describe("point-biserial discrimination from kept sums", () => {
  it("equals a direct Pearson correlation on random attempts", () => {
    fc.assert(
      fc.property(fc.array(pair, { minLength: 0, maxLength: 300 }), (pairs) => {
        const fromSums = pointBiserialFromSums(sumsOf(pairs));
        const direct = pearson(pairs);
        if (direct === null || fromSums === null) {
          // Both undefined, or a variance within rounding of 0 on one side only.
          expect(fromSums === null || Math.abs(fromSums) <= 1).toBe(true);
          return;
        }
        // To 1e-6: the sums' cancellation grows as the rest scores' variance nears the cut-off.
        expect(fromSums).toBeCloseTo(direct, 6);
      }),
      { numRuns: 500 },
    );
  });

  it("is undefined without variance and at most 1 in size", () => {
    expect(pointBiserialFromSums(sumsOf([]))).toBeNull();
    expect(
      pointBiserialFromSums(
        sumsOf([
          { x: 1, y: 0.5 },
          { x: 1, y: 0.2 },
        ]),
      ),
    ).toBeNull();
    expect(
      pointBiserialFromSums(
        sumsOf([
          { x: 1, y: 0.5 },
          { x: 0, y: 0.5 },
        ]),
      ),
    ).toBeNull();
    const perfect = sumsOf([
      { x: 1, y: 0.9 },
      { x: 0, y: 0.1 },
      { x: 1, y: 0.9 },
    ]);
    expect(pointBiserialFromSums(perfect)).toBeCloseTo(1, 12);
    const reversed = sumsOf([
      { x: 0, y: 0.9 },
      { x: 1, y: 0.1 },
    ]);
    expect(pointBiserialFromSums(reversed)).toBeCloseTo(-1, 12);
  });

  it("the rest score leaves the question out", () => {
    expect(restScore(7, 10, 1)).toBeCloseTo(6 / 9, 12);
    expect(restScore(7, 10, 0)).toBeCloseTo(7 / 9, 12);
    expect(restScore(1, 1, 1)).toBeNull();
  });
});

describe("the panel's figures", () => {
  it("shares, mean time and options in letter order", () => {
    const view = itemStatsView(
      { ...EMPTY_SUMS, answered: 4, correct: 1, timeMsSum: 10_000, picks: { A: 1, C: 3, F: 1 } },
      ["a", "B", "C"],
      2,
    );
    expect(view.shareCorrect).toBe(0.25);
    expect(view.meanTimeMs).toBe(2500);
    expect(view.options).toEqual([
      { letter: "A", picks: 1, share: 0.25 },
      { letter: "B", picks: 0, share: 0 },
      { letter: "C", picks: 3, share: 0.75 },
      { letter: "F", picks: 1, share: 0.25 },
    ]);
    expect(view.leeches).toBe(2);
    expect(view.discrimination).toBeNull();
  });

  it("nothing answered: no shares", () => {
    const view = itemStatsView(EMPTY_SUMS, ["A", "B"], 0);
    expect(view.shareCorrect).toBeNull();
    expect(view.meanTimeMs).toBeNull();
    expect(view.options.map((o) => o.share)).toEqual([null, null]);
    expect(formatShare(view.shareCorrect)).toBe("—");
  });

  it(`discrimination from ${ITEM_STATS_MIN_EXAMS} attempts on`, () => {
    const pairs = [
      { x: 1, y: 0.9 },
      { x: 0, y: 0.2 },
      { x: 1, y: 0.7 },
      { x: 0, y: 0.4 },
      { x: 1, y: 0.3 },
    ];
    const s = sumsOf(pairs);
    const sums = {
      ...EMPTY_SUMS,
      examN: s.n,
      examSx: s.sx,
      examSy: s.sy,
      examSyy: s.syy,
      examSxy: s.sxy,
    };
    expect(itemStatsView(sums, [], 0).discrimination).toBeCloseTo(pearson(pairs)!, 12);
    const fewer = { ...sums, examN: ITEM_STATS_MIN_EXAMS - 1 };
    expect(itemStatsView(fewer, [], 0).discrimination).toBeNull();
    expect(formatDiscrimination(0.4567)).toBe("0.46");
    expect(formatDiscrimination(null)).toBe("—");
    expect(formatShare(0.666)).toBe("67%");
  });
});
