import { describe, expect, it } from "vitest";
import { SEARCH_COUNT_CAP } from "../../../server/features/questions/questions.types";
import { RESULT_COUNT_CAP, resultCountText } from "./result-count";

describe("resultCountText", () => {
  it("counts exactly below the cap", () => {
    expect(resultCountText({ total: 0, totalCapped: false })).toBe("0 questions found");
    expect(resultCountText({ total: 1, totalCapped: false })).toBe("1 question found");
    expect(resultCountText({ total: 1200, totalCapped: false })).toBe("1,200 questions found");
  });

  it("groups digits as en-US does, without Intl (issue 20)", () => {
    for (const total of [2, 999, 1000, 12_345, 999_999, 1_234_567]) {
      expect(resultCountText({ total, totalCapped: false })).toBe(
        `${total.toLocaleString("en-US")} questions found`,
      );
    }
  });

  it("reads '500+' past the cap, whatever lower bound the server reached", () => {
    // Two branches of 501 matches each, or one page deep into a long list.
    for (const total of [501, 530, 1002, 1201]) {
      expect(resultCountText({ total, totalCapped: true })).toBe("500+ questions found");
    }
  });

  it("uses the server's cap", () => {
    expect(RESULT_COUNT_CAP).toBe(SEARCH_COUNT_CAP);
  });
});
