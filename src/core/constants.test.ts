import { describe, expect, it } from "vitest";
import {
  CATEGORIES,
  OPTION_LETTERS,
  PGY_LEVELS,
  acceptedYearRange,
  optionLettersFor,
  pgyLabel,
  yearChoices,
  yearRangeError,
} from "./constants";

describe("constants", () => {
  it("has the 34 categories in docs/product/data.md, in order and unique", () => {
    expect(CATEGORIES).toHaveLength(34);
    expect(new Set(CATEGORIES).size).toBe(34);
    expect(CATEGORIES[0]).toBe("Neuroscience");
    expect(CATEGORIES[30]).toBe("Psychopharmacology");
    expect(CATEGORIES[33]).toBe("Other");
  });

  it("labels PGY levels", () => {
    expect(PGY_LEVELS.map((l) => l.label)).toEqual([
      "PGY-1",
      "PGY-2",
      "PGY-3",
      "PGY-4",
      "PGY-5",
      "PGY-6+",
      "Fellow",
      "Attending",
      "Other",
    ]);
    expect(pgyLabel("6+")).toBe("PGY-6+");
    expect(pgyLabel("")).toBe("Not specified");
    expect(pgyLabel(null)).toBe("Not specified");
  });

  it("shows 5, 4 and 15 option letters by type", () => {
    expect(optionLettersFor("standard")).toEqual(["A", "B", "C", "D", "E"]);
    expect(optionLettersFor("fourOptions")).toEqual(["A", "B", "C", "D"]);
    expect(optionLettersFor("multipleCorrect")).toEqual(OPTION_LETTERS);
    expect(OPTION_LETTERS.join("")).toBe("ABCDEFGHIJKLMNO");
  });
});

describe("years", () => {
  // Local-time constructor: the pickers read the runtime's calendar.
  const mid2026 = new Date(2026, 5, 15);

  it("offers the current year back to 2020, newest first", () => {
    expect(yearChoices(mid2026)).toEqual([2026, 2025, 2024, 2023, 2022, 2021, 2020]);
    expect(yearChoices(new Date(2020, 0, 1))).toEqual([2020]);
  });

  it("adds an edited question's own year in order, once", () => {
    expect(yearChoices(new Date(2022, 3, 1), 2017)).toEqual([2022, 2021, 2020, 2017]);
    expect(yearChoices(new Date(2022, 3, 1), 2021)).toEqual([2022, 2021, 2020]);
    expect(yearChoices(new Date(2022, 3, 1), null)).toEqual([2022, 2021, 2020]);
  });

  it("still offers 2020 when the clock is earlier", () => {
    expect(yearChoices(new Date(2019, 0, 1))).toEqual([2020]);
  });

  it("accepts 2000 to next year on the server", () => {
    expect(acceptedYearRange(mid2026)).toEqual({ min: 2000, max: 2027 });
    expect(yearRangeError(2027, mid2026)).toBeNull();
    expect(yearRangeError(2000, mid2026)).toBeNull();
    expect(yearRangeError(2028, mid2026)).toBe("Year must be between 2000 and 2027");
    expect(yearRangeError(1999, mid2026)).toBe("Year must be between 2000 and 2027");
  });
});
