import { describe, expect, it } from "vitest";
import { returnToFor, safeReturnTo } from "./return-to";

describe("safeReturnTo", () => {
  it("keeps paths of this site", () => {
    expect(safeReturnTo("/join/K7PQ2MZX")).toBe("/join/K7PQ2MZX");
    expect(safeReturnTo("/settings?tab=account#x")).toBe("/settings?tab=account#x");
  });

  it("refuses anything that could leave the site", () => {
    for (const bad of [
      "//evil.example/join",
      "/\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "join/ABC",
      "",
      "/join/\nX",
      `/${"a".repeat(600)}`,
      42,
      undefined,
    ]) {
      expect([bad, safeReturnTo(bad)]).toEqual([bad, undefined]);
    }
  });

  it("comes back only to join links", () => {
    expect(returnToFor("/join/K7PQ2MZX")).toBe("/join/K7PQ2MZX");
    expect(returnToFor("/study")).toBeUndefined();
  });
});
