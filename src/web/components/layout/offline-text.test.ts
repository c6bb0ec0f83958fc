import { describe, expect, it } from "vitest";
import { offlineBannerText } from "./offline-text";

describe("the offline banner's words (issue 18)", () => {
  it("says only 'Offline' when nothing waits", () => {
    expect(offlineBannerText(0)).toBe("Offline");
  });
  it("counts what waits, singular and plural", () => {
    expect(offlineBannerText(1)).toBe("Offline — 1 answer waiting to sync");
    expect(offlineBannerText(12)).toBe("Offline — 12 answers waiting to sync");
  });
});
