import { describe, expect, it } from "vitest";
import { formatInterval, intervalOf } from "./next-interval";

describe("next interval labels", () => {
  it("reads as days, months or years", () => {
    expect(formatInterval(1)).toBe("in 1 day");
    expect(formatInterval(6)).toBe("in 6 days");
    expect(formatInterval(61)).toBe("in 2 months");
    expect(formatInterval(730)).toBe("in 2 years");
  });
  it("picks the rating's interval", () => {
    expect(intervalOf({ hard: 1, good: 3, easy: 9 }, 2)).toBe(9);
  });
});
