import { describe, expect, it } from "vitest";
import { paragraphs } from "../explanations/paragraphs";
import {
  checkLabel,
  jumpButtons,
  requiredCount,
  shuffle,
  toggleSelection,
  visibleOptions,
} from "./selection";

describe("multiple-correct selection (docs/product/states.md)", () => {
  it("adds and removes letters, dropping the oldest past the required count", () => {
    let s: string[] = [];
    for (const l of ["A", "C", "D"]) s = toggleSelection(s, l, 3);
    expect(s).toEqual(["A", "C", "D"]);
    s = toggleSelection(s, "E", 3);
    expect(s).toEqual(["C", "D", "E"]);
    s = toggleSelection(s, "D", 3);
    expect(s).toEqual(["C", "E"]);
    s = toggleSelection(s, "A", 3);
    expect(s).toEqual(["C", "E", "A"]);
  });

  it("replaces the choice of a single-answer question and can clear it", () => {
    expect(toggleSelection(["A"], "B", 1)).toEqual(["B"]);
    expect(toggleSelection(["B"], "B", 1)).toEqual([]);
  });

  it("needs the declared count (default 3) and labels Check Answer accordingly", () => {
    const q = { questionType: "multipleCorrect", numCorrectAnswers: 0, options: {} };
    expect(requiredCount(q)).toBe(3);
    expect(requiredCount({ ...q, numCorrectAnswers: 2 })).toBe(2);
    expect(requiredCount({ ...q, questionType: "fourOptions", numCorrectAnswers: 3 })).toBe(1);
    expect(checkLabel(0, 1)).toBe("Select an Answer");
    expect(checkLabel(1, 1)).toBe("Check Answer");
    expect(checkLabel(2, 3)).toBe("Select 3 Answers");
    expect(checkLabel(3, 3)).toBe("Check Answer");
  });
});

describe("study helpers", () => {
  it("shows only options with text, in letter order", () => {
    expect(visibleOptions({ C: "c", A: "a", B: "  ", O: "o" })).toEqual([
      ["A", "a"],
      ["C", "c"],
      ["O", "o"],
    ]);
  });

  it("shuffles without losing or duplicating questions", () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    const out = shuffle(items, () => 0.3);
    expect([...out].sort((a, b) => a - b)).toEqual(items);
    expect(out).not.toEqual(items);
  });

  it("shows the first 10 jump buttons, then an ellipsis", () => {
    expect(jumpButtons(3)).toEqual({ numbers: [0, 1, 2], more: false });
    const many = jumpButtons(25);
    expect(many.numbers).toHaveLength(10);
    expect(many.more).toBe(true);
  });

  it("splits explanations into paragraphs on blank lines", () => {
    expect(paragraphs("One.\r\n\r\n  Two\nstill two.\n \n\nThree.")).toEqual([
      "One.",
      "Two\nstill two.",
      "Three.",
    ]);
    expect(paragraphs("   ")).toEqual([]);
  });
});
