import { describe, expect, it } from "vitest";
import { firstIssueMessage } from "./common";
import { ZImportSettings, ZImportSettingsDraft } from "./importSettings";
import { ZAnswerInput, ZDifficulty, ZDueQuery, ZRateInput } from "./study";

describe("ZImportSettings", () => {
  it("fills defaults and coerces select values", () => {
    expect(
      ZImportSettings.parse({ part: "1", year: "2024", questionColumn: "0", answerColumn: "" }),
    ).toEqual({
      part: "1",
      year: 2024,
      format: "standard",
      headerRow: 0,
      questionColumn: 0,
      optionAColumn: null,
      optionBColumn: null,
      optionCColumn: null,
      optionDColumn: null,
      optionEColumn: null,
      answerColumn: null,
      categoryColumn: null,
      hasOptions: false,
      hasCategory: false,
    });
  });

  it("accepts -1 as 'no header row' and the three formats", () => {
    for (const format of ["standard", "questionPerRow", "qa"]) {
      const s = ZImportSettings.parse({
        part: 2,
        year: 2020,
        format,
        headerRow: -1,
        questionColumn: 3,
      });
      expect(s.headerRow).toBe(-1);
      expect(s.format).toBe(format);
    }
  });

  it.each([
    [{ questionColumn: null }, "Question column is required"],
    [{ headerRow: -2 }, "Header row must be -1 (no header) or a row number from 0"],
    [{ optionAColumn: -1 }, "Columns must be whole numbers from 0"],
    [{ format: "anki" }, "Format must be standard, questionPerRow or qa"],
    [{ hasOptions: "yes" }, "hasOptions must be true or false"],
  ])("rejects %o", (patch, message) => {
    const r = ZImportSettings.safeParse({ part: "1", year: 2024, questionColumn: 0, ...patch });
    expect(r.success).toBe(false);
    if (!r.success) expect(firstIssueMessage(r.error)).toBe(message);
  });

  it("lets a draft leave the question column empty", () => {
    expect(ZImportSettingsDraft.parse({ part: "1", year: 2024 }).questionColumn).toBeNull();
  });
});

describe("study schemas", () => {
  const id = "6a1f2a8e-3c1b-4f51-9a7e-0d6c1f2e3a4b";

  it("ZDifficulty accepts only 0, 1 and 2", () => {
    expect([0, 1, 2].map((d) => ZDifficulty.parse(d))).toEqual([0, 1, 2]);
    for (const bad of [3, -1, "1", 1.5, null])
      expect(ZDifficulty.safeParse(bad).success).toBe(false);
    expect(ZRateInput.parse({ questionId: id, difficulty: 2 })).toEqual({
      questionId: id,
      difficulty: 2,
    });
  });

  it("ZAnswerInput validates the selection and caps the time", () => {
    expect(
      ZAnswerInput.parse({ questionId: id, selected: ["b", "A"], timeSpentMs: 4_000_000 }),
    ).toEqual({
      questionId: id,
      selected: ["B", "A"],
      timeSpentMs: 3_600_000,
    });
    const bad = (v: object) => {
      const r = ZAnswerInput.safeParse({ questionId: id, selected: ["A"], timeSpentMs: 1, ...v });
      return r.success ? null : firstIssueMessage(r.error);
    };
    expect(bad({ selected: [] })).toBe("Please select an answer");
    expect(bad({ selected: ["A", "a"] })).toBe("Each answer can be selected only once");
    expect(bad({ selected: ["P"] })).toBe("Answer letters must be A to O");
    expect(bad({ timeSpentMs: -5 })).toBe(
      "Time spent must be a whole number of milliseconds from 0",
    );
    expect(bad({ questionId: "nope" })).toBe("Question id must be a valid id");
  });

  it("ZDueQuery pages by 50 by default and at most 500", () => {
    expect(ZDueQuery.parse({})).toEqual({ limit: 50, offset: 0 });
    expect(ZDueQuery.parse({ limit: "500", offset: "100" })).toEqual({ limit: 500, offset: 100 });
    expect(ZDueQuery.safeParse({ limit: 501 }).success).toBe(false);
  });
});
