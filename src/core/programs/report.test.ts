import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../import/csv";
import {
  accuracyPercent,
  classPercentiles,
  comparePgy,
  DAY_MS,
  flagsFor,
  heatmapCell,
  heatmapCsv,
  meanAccuracy,
  orderCategories,
  rosterCsv,
} from "./report";

const now = new Date("2026-06-01T12:00:00Z");

describe("heatmap cells", () => {
  it("are empty under five answers and a percent from five on", () => {
    expect(heatmapCell(4, 4)).toEqual({ answered: 4, accuracy: null });
    expect(heatmapCell(5, 4)).toEqual({ answered: 5, accuracy: 80 });
    expect(heatmapCell(3, 1).accuracy).toBeNull();
    expect(heatmapCell(3, 2).accuracy).toBeNull();
    expect(heatmapCell(6, 1).accuracy).toBe(16.7);
  });

  it("stay between 0 and 100 (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 1 }), (n, f) => {
        const correct = Math.floor(n * f);
        const cell = heatmapCell(n, correct);
        if (n < 5) return cell.accuracy === null;
        return cell.accuracy !== null && cell.accuracy >= 0 && cell.accuracy <= 100;
      }),
    );
  });
});

describe("flags", () => {
  const base = {
    lastActive: now,
    joinedAt: new Date(now.getTime() - 100 * DAY_MS),
    answered: 100,
    correct: 80,
    now,
    inactiveDays: 14,
    accuracyFlag: 0.6,
  };

  it("flag inactivity from the threshold's day on, and from the join date without activity", () => {
    expect(flagsFor({ ...base, lastActive: new Date(now.getTime() - 13.9 * DAY_MS) })).toEqual([]);
    expect(flagsFor({ ...base, lastActive: new Date(now.getTime() - 14 * DAY_MS) })).toEqual([
      { kind: "inactive", days: 14 },
    ]);
    expect(flagsFor({ ...base, lastActive: null, answered: 0, correct: 0 })).toEqual([
      { kind: "inactive", days: 100 },
    ]);
    expect(flagsFor({ ...base, lastActive: null, joinedAt: now, answered: 0, correct: 0 })).toEqual(
      [],
    );
  });

  it("flag accuracy strictly below the threshold, only from five answers", () => {
    expect(flagsFor({ ...base, answered: 10, correct: 6 })).toEqual([]);
    expect(flagsFor({ ...base, answered: 10, correct: 5 })).toEqual([
      { kind: "accuracy", accuracy: 50, threshold: 60 },
    ]);
    expect(flagsFor({ ...base, answered: 4, correct: 0 })).toEqual([]);
  });

  it("never flag accuracy at or above the threshold (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 0, max: 500 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (answered, c, threshold) => {
          const correct = Math.min(c, answered);
          const flagged = flagsFor({ ...base, answered, correct, accuracyFlag: threshold }).some(
            (f) => f.kind === "accuracy",
          );
          return flagged === (answered >= 5 && correct / answered < threshold);
        },
      ),
    );
  });
});

describe("class means and percentiles", () => {
  it("average each member's accuracy, skipping members under five answers", () => {
    expect(
      meanAccuracy([
        { answered: 10, correct: 5 },
        { answered: 5, correct: 5 },
        { answered: 4, correct: 0 },
        undefined,
      ]),
    ).toEqual({ mean: 75, members: 2 });
    expect(meanAccuracy([])).toEqual({ mean: null, members: 0 });
  });

  const m = (answered: number, correct: number) => new Map([["Ethics", { answered, correct }]]);

  it("need a class of five, and four classmates with five answers in the category", () => {
    expect(classPercentiles(m(10, 5), [m(10, 1), m(10, 9), m(10, 5)], ["Ethics"])).toBeNull();
    const four = [m(10, 1), m(10, 2), m(10, 9), m(10, 10)];
    expect(classPercentiles(m(10, 5), four, ["Ethics"])).toEqual([
      { category: "Ethics", percentile: 50, classmates: 4 },
    ]);
    const oneShort = [m(10, 1), m(10, 2), m(10, 9), m(4, 4)];
    expect(classPercentiles(m(10, 5), oneShort, ["Ethics"])![0]!.percentile).toBeNull();
    expect(classPercentiles(m(3, 3), four, ["Ethics"])![0]!.percentile).toBeNull();
  });

  it("rise with the viewer's accuracy (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 4, maxLength: 30 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        (others, a, b) => {
          const mates = others.map((c) => m(20, c));
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const p = (c: number) => classPercentiles(m(20, c), mates, ["Ethics"])![0]!.percentile!;
          return p(lo) <= p(hi) && p(lo) >= 0 && p(hi) <= 100;
        },
      ),
    );
  });
});

describe("ordering", () => {
  it("puts the fixed categories first in their order, and PGY levels in training order", () => {
    expect(orderCategories(["Zeta", "Psychopharmacology", "Neuroscience", "Alpha"])).toEqual([
      "Neuroscience",
      "Psychopharmacology",
      "Alpha",
      "Zeta",
    ]);
    expect(["", "PGY-3", "PGY-1", "Fellow", "PGY-2"].sort(comparePgy)).toEqual([
      "PGY-1",
      "PGY-2",
      "PGY-3",
      "Fellow",
      "",
    ]);
  });
});

describe("CSV", () => {
  it("writes the roster with a header, quoting and no formulas", () => {
    const csv = rosterCsv([
      {
        username: "=cmd",
        displayName: 'Ann "A", MD',
        pgyLevel: "PGY-2",
        lastActive: "2026-05-30T10:00:00.000Z",
        answered7: 3,
        answered30: 40,
        answered: 400,
        accuracy: 55.5,
        dueBacklog: 12,
        assignmentsDone: 1,
        assignmentsTotal: 2,
        flags: [{ kind: "accuracy", accuracy: 55.5, threshold: 60 }],
      },
    ]);
    const rows = parseCsv(csv);
    expect(rows[0]![0]).toBe("username");
    expect(rows[1]).toEqual([
      "'=cmd",
      'Ann "A", MD',
      "PGY-2",
      "2026-05-30T10:00:00.000Z",
      "3",
      "40",
      "400",
      "55.5",
      "12",
      "1",
      "2",
      "accuracy 55.5% below 60%",
    ]);
  });

  it("writes the heatmap with two columns per category, empty under five answers", () => {
    const csv = heatmapCsv(
      ["Ethics", "Genetics"],
      [
        {
          username: "ann",
          pgyLevel: "PGY-1",
          cells: { Ethics: heatmapCell(10, 7), Genetics: heatmapCell(2, 2) },
        },
      ],
    );
    expect(parseCsv(csv)).toEqual([
      [
        "username",
        "pgy",
        "Ethics accuracy_percent",
        "Ethics answered",
        "Genetics accuracy_percent",
        "Genetics answered",
      ],
      ["ann", "PGY-1", "70", "10", "", "2"],
    ]);
  });

  it("rounds like the report", () => {
    expect(accuracyPercent(1, 3)).toBe(33.3);
    expect(accuracyPercent(0, 0)).toBeNull();
  });
});
