import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import {
  acceptPercentileInput,
  byYearAscending,
  byYearNewestFirst,
  SCORE_CALL_DEFAULTS,
  scoreFailureText,
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

describe("table and summary formatting (docs/product/screens.md)", () => {
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

describe("percentile inputs (docs/product/validation.md: integers 0-99, other input ignored)", () => {
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

  it("lists newest year first with one year's records as entered, like the server", () => {
    const a = score({ year: "2023" });
    const b = score({ year: "2021" });
    const c = score({ year: "2023" });
    const d = score({ year: "2024" });
    expect(byYearNewestFirst([c, b, d, a]).map((s) => s._id)).toEqual([d._id, a._id, c._id, b._id]);
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

describe("failure texts (docs/product/errors.md, decision 077)", () => {
  const answered = (message: string, code: string, httpStatus: number) =>
    TRPCClientError.from({ error: { message, code: -32000, data: { code, httpStatus } } });

  it("shows the server's message when it gave one", () => {
    const error = answered("PRITE score not found", "NOT_FOUND", 404);
    expect(scoreFailureText(error, SCORE_CALL_DEFAULTS.UPDATE, "Failed to save PRITE scores")).toBe(
      "PRITE score not found",
    );
  });

  it("falls back to the call's default without one, and to the screen's text outside a call", () => {
    const crashed = answered("Internal server error", "INTERNAL_SERVER_ERROR", 500);
    expect(
      scoreFailureText(crashed, SCORE_CALL_DEFAULTS.CREATE, "Failed to save PRITE scores"),
    ).toBe("Failed to create PRITE score");
    const offline = TRPCClientError.from(new Error("Failed to fetch"));
    expect(
      scoreFailureText(offline, SCORE_CALL_DEFAULTS.DELETE, "Failed to delete score record"),
    ).toBe("Failed to delete PRITE score");
    expect(
      scoreFailureText(
        new Error("render"),
        SCORE_CALL_DEFAULTS.DELETE,
        "Failed to delete score record",
      ),
    ).toBe("Failed to delete score record");
  });
});
