import { describe, expect, it } from "vitest";
import { exportFileName, localDateStamp } from "./file-names";

describe("export file names (docs/product/rest-api.md)", () => {
  it("use the local calendar date, zero-padded", () => {
    expect(localDateStamp(new Date(2025, 2, 4, 23, 59))).toBe("2025-03-04");
    expect(localDateStamp(new Date(2025, 11, 31, 0, 0))).toBe("2025-12-31");
  });

  it("join the prefix, the date and .json", () => {
    const now = new Date(2026, 0, 9);
    expect(exportFileName("prite_study_data_", now)).toBe("prite_study_data_2026-01-09.json");
    expect(exportFileName("prite_questions_", now)).toBe("prite_questions_2026-01-09.json");
  });
});
