import { describe, expect, it } from "vitest";
import { optimizeOutcome, parametersInUse } from "./optimize-text";

const REASON =
  "Kept the default parameters: FSRS fits to questions answered again on a later day, and needs at least 20 that began alike (the same first rating, and 6 or more with the same wait in days). You have 5 such questions, at most 5 with the same first rating. Keep studying and optimize again later.";

describe("Settings › Study: the FSRS parameters (issue 31)", () => {
  it("says which parameters are in use, the defaults included", () => {
    expect(parametersInUse(false)).toBe("The default parameters are in use.");
    expect(parametersInUse(true)).toBe("Your fitted parameters are in use.");
  });

  it("an Optimize run that kept the defaults says so and why, with no Before/After figures", () => {
    expect(optimizeOutcome({ keptDefaults: REASON })).toEqual({
      banner: null,
      keptDefaults: REASON,
    });
  });

  it("a real fit says it was fitted and compares", () => {
    expect(optimizeOutcome({ keptDefaults: null })).toEqual({
      banner: "Your parameters were fitted to your reviews",
      keptDefaults: null,
    });
  });
});
