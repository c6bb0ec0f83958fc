import { describe, expect, it } from "vitest";
import { isUuid } from "./common";

describe("isUuid", () => {
  it("takes every id PostgreSQL's uuid type stores, in either case", () => {
    expect(isUuid("0b3c1e52-6f2a-4d0e-9a53-0f7c2d9e8b11")).toBe(true);
    expect(isUuid("0B3C1E52-6F2A-4D0E-9A53-0F7C2D9E8B11")).toBe(true);
    // No version or variant bits: still a uuid to PostgreSQL.
    expect(isUuid("00000000-0000-0000-0000-000000000000")).toBe(true);
  });

  it("refuses anything else, which would fail the database's cast", () => {
    for (const value of [
      "",
      "1",
      "0b3c1e52-6f2a-4d0e-9a53-0f7c2d9e8b1",
      "0b3c1e52-6f2a-4d0e-9a53-0f7c2d9e8b111",
      "0b3c1e526f2a4d0e9a530f7c2d9e8b11",
      "0b3c1e52-6f2a-4d0e-9a53-0f7c2d9e8b1g",
      " 0b3c1e52-6f2a-4d0e-9a53-0f7c2d9e8b11",
      "0b3c1e52-6f2a-4d0e-9a53-0f7c2d9e8b11\n",
    ]) {
      expect(isUuid(value), JSON.stringify(value)).toBe(false);
    }
  });
});
