import { describe, expect, it } from "vitest";
import {
  acceptPercentileInput,
  byYearAscending,
  changeClass,
  chartRows,
  formatChange,
  formatPercentile,
  type PriteScore,
} from "./score-format";

let n = 0;
function score(overrides: Partial<PriteScore>): PriteScore {
  n += 1;
  return {
    _id: `id${n}`,
    year: "2024",
    overallPercentile: 50,
    psychiatryPercentile: null,
    neurosciencePercentile: null,
    somaPercentile: null,
    growthPercentile: null,
    sections: [],
    notes: "",
    createdAt: new Date(2024, 0, n).toISOString(),
    updatedAt: new Date(2024, 0, n).toISOString(),
    ...overrides,
  };
}

describe("table and summary formatting (SPEC §2)", () => {
  it("shows percentages with a percent sign and '-' for missing or zero optional scores", () => {
    expect(formatPercentile(62)).toBe("62%");
    expect(formatPercentile(0)).toBe("0%");
    expect(formatPercentile(0, { optional: true })).toBe("-");
    expect(formatPercentile(null, { optional: true })).toBe("-");
    expect(formatPercentile(undefined)).toBe("-");
    expect(formatPercentile(7, { optional: true })).toBe("7%");
  });

  it("shows changes as +n, -n or N/A, green, red or grey", () => {
    expect([formatChange(12), formatChange(-4), formatChange(0), formatChange(null)]).toEqual([
      "+12",
      "-4",
      "0",
      "N/A",
    ]);
    expect(changeClass(3)).toBe("text-success");
    expect(changeClass(-3)).toBe("text-destructive");
    expect(changeClass(0)).toBe("text-muted-foreground");
    expect(changeClass(null)).toBe("text-muted-foreground");
  });
});

describe("percentile inputs (SPEC §5: integers 0-99, other input ignored)", () => {
  it.each([
    ["", "5", ""],
    ["7", "", "7"],
    ["99", "9", "99"],
    ["100", "10", "10"],
    ["4a", "4", "4"],
    ["-1", "", ""],
    ["2.5", "2", "2"],
    [" 42 ", "4", "42"],
    ["07", "0", "7"],
  ])("%j after %j gives %j", (next, previous, expected) => {
    expect(acceptPercentileInput(next, previous)).toBe(expected);
  });
});

describe("ordering and chart rows", () => {
  it("sorts by year, keeping the entry order within a year", () => {
    const a = score({ year: "2023" });
    const b = score({ year: "2021" });
    const c = score({ year: "2023" });
    expect(byYearAscending([a, b, c]).map((s) => s._id)).toEqual([b._id, a._id, c._id]);
  });

  it("draws one point per year (the latest entered) and leaves out missing or zero subjects", () => {
    const rows = chartRows([
      score({ year: "2024", overallPercentile: 70, psychiatryPercentile: 0, somaPercentile: 40 }),
      score({ year: "2022", overallPercentile: 30, growthPercentile: 25 }),
      score({ year: "2024", overallPercentile: 75, neurosciencePercentile: 60 }),
    ]);
    expect(rows).toEqual([
      { year: 2022, overall: 30, growth: 25 },
      { year: 2024, overall: 75, neuroscience: 60 },
    ]);
  });
});
