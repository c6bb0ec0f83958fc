import { describe, expect, it } from "vitest";
import { firstIssueMessage } from "./common";
import { ZPriteScoreInput } from "./priteScore";

function firstMessage(input: unknown): string | null {
  const r = ZPriteScoreInput.safeParse(input);
  return r.success ? null : firstIssueMessage(r.error);
}

describe("ZPriteScoreInput", () => {
  it("normalises a form submission", () => {
    expect(
      ZPriteScoreInput.parse({
        year: 2024,
        overallPercentile: "72",
        psychiatryPercentile: 80,
        neurosciencePercentile: "",
        somaPercentile: null,
        sections: [
          { name: " Child ", percentile: "65" },
          { name: "   ", percentile: 50 },
          { name: "Addiction", percentile: "" },
          { name: "Sleep", percentile: 0 },
        ],
        notes: " studied a lot ",
      }),
    ).toEqual({
      year: "2024",
      overallPercentile: 72,
      psychiatryPercentile: 80,
      neurosciencePercentile: null,
      somaPercentile: null,
      growthPercentile: null,
      sections: [
        { name: "Child", percentile: 65 },
        { name: "Sleep", percentile: 0 },
      ],
      notes: "studied a lot",
    });
  });

  it("defaults sections and notes", () => {
    const s = ZPriteScoreInput.parse({ year: "2023", overallPercentile: 0 });
    expect(s.sections).toEqual([]);
    expect(s.notes).toBe("");
    expect(s.overallPercentile).toBe(0);
  });

  it.each([
    [{ overallPercentile: 50 }, "Year and Overall Percentile are required"],
    [{ year: "", overallPercentile: 50 }, "Year and Overall Percentile are required"],
    [{ year: "2024" }, "Year and Overall Percentile are required"],
    [{ year: "2024", overallPercentile: "" }, "Year and Overall Percentile are required"],
    [{ year: "2024", overallPercentile: 100 }, "Percentiles must be whole numbers from 0 to 99"],
    [{ year: "2024", overallPercentile: -1 }, "Percentiles must be whole numbers from 0 to 99"],
    [{ year: "2024", overallPercentile: 50.5 }, "Percentiles must be whole numbers from 0 to 99"],
    [{ year: "2024", overallPercentile: "7a" }, "Percentiles must be whole numbers from 0 to 99"],
    [
      { year: "2024", overallPercentile: 5, growthPercentile: 120 },
      "Percentiles must be whole numbers from 0 to 99",
    ],
    [
      { year: "2024", overallPercentile: 5, sections: [{ name: "X", percentile: 101 }] },
      "Percentiles must be whole numbers from 0 to 99",
    ],
    [{ year: "twenty", overallPercentile: 5 }, "Please enter a valid year"],
    [{ year: "2024.5", overallPercentile: 5 }, "Please enter a valid year"],
    [{ year: "1999", overallPercentile: 5 }, "Year must be 2000 or later"],
    [
      { year: "2024", overallPercentile: 5, notes: "n".repeat(5001) },
      "Notes must be at most 5000 characters",
    ],
  ])("rejects %o", (input, message) => {
    expect(firstMessage(input)).toBe(message);
  });

  it("stores a year typed with padding or a leading zero as its plain digits", () => {
    expect(ZPriteScoreInput.parse({ year: " 02022 ", overallPercentile: 1 }).year).toBe("2022");
  });
});
