import { describe, expect, it } from "vitest";
import { emptyOptions, type ParsedQuestion } from "@/core/import/types";
import {
  buildCommitItems,
  chunk,
  defaultResolution,
  percentDone,
  resolutionFor,
  splitImportable,
  toImportItem,
  type DuplicateItem,
  type MatchView,
  type Resolution,
} from "./import-flow";

function question(text: string, extra: Partial<ParsedQuestion> = {}): ParsedQuestion {
  return {
    number: null,
    part: "1",
    year: 2024,
    text,
    options: { ...emptyOptions(), A: "yes", B: "no" },
    correctAnswer: "",
    explanation: "",
    category: "",
    sourceRow: 2,
    ...extra,
  };
}

function match(
  id: string,
  canMerge = true,
  mergeStrategy: "newer" | "metadata" = "newer",
): MatchView {
  return {
    question: {
      _id: id,
      text: "old",
      options: { A: "yes", B: "no" },
      correctAnswer: "A",
      category: "",
      part: "1",
      year: 2023,
      number: null,
      explanation: "",
      createdAt: "2024-01-01T00:00:00.000Z",
    },
    similarity: { score: 0.95, reasons: [], mergeStrategy },
    canMerge,
  };
}

describe("import flow", () => {
  it("sends only filled options and no source row", () => {
    const item = toImportItem(question("Q", { options: { ...emptyOptions(), A: "x", C: "  " } }));
    expect(item.options).toEqual({ A: "x" });
    expect(item).not.toHaveProperty("sourceRow");
  });

  it("chunks and reports progress that reaches 100 only at the end", () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(percentDone(0, 3)).toBe(0);
    expect(percentDone(299, 300)).toBe(99);
    expect(percentDone(300, 300)).toBe(100);
    expect(percentDone(0, 0)).toBe(100);
  });

  it("defaults to the suggested strategy, and to Keep Both for another user's question", () => {
    expect(defaultResolution(match("a", true, "metadata")).strategy).toBe("metadata");
    expect(defaultResolution(match("a", false)).strategy).toBe("keepBoth");
    expect(defaultResolution(undefined).strategy).toBe("keepBoth");
  });

  it("applies a chosen strategy to the remaining items only where merging is allowed", () => {
    const chosen: Resolution = { strategy: "manual", matchIndex: 1, fields: ["text"] };
    const mine: DuplicateItem = { index: 0, question: question("Q"), matches: [match("a")] };
    const theirs: DuplicateItem = {
      index: 1,
      question: question("Q"),
      matches: [match("b", false)],
    };
    expect(resolutionFor(mine, chosen)).toEqual({
      strategy: "manual",
      matchIndex: 0,
      fields: ["text"],
    });
    expect(resolutionFor(theirs, chosen).strategy).toBe("keepBoth");
  });

  it("builds one commit item per question, in order", () => {
    const questions = [question("one"), question("two"), question("three"), question("four")];
    const duplicates: DuplicateItem[] = [
      { index: 1, question: questions[1]!, matches: [match("m1")] },
      { index: 2, question: questions[2]!, matches: [match("m2"), match("m3")] },
      { index: 3, question: questions[3]!, matches: [match("m4", false)] },
    ];
    const resolutions = new Map<number, Resolution>([
      [1, { strategy: "newer", matchIndex: 0, fields: [] }],
      [2, { strategy: "manual", matchIndex: 1, fields: ["category", "optionA"] }],
      [3, { strategy: "newer", matchIndex: 0, fields: [] }],
    ]);
    const items = buildCommitItems(questions, duplicates, resolutions);
    expect(items.map((i) => i.action)).toEqual([
      "create",
      { merge: "newer", targetId: "m1" },
      { merge: "manual", targetId: "m3", fields: ["category", "optionA"] },
      "create",
    ]);
    expect(items.map((i) => i.hadDuplicate)).toEqual([undefined, true, true, true]);
    expect(items[0]?.question.text).toBe("one");
  });

  it("refuses to build items while a duplicate is unresolved", () => {
    const questions = [question("one")];
    const duplicates: DuplicateItem[] = [
      { index: 0, question: questions[0]!, matches: [match("m")] },
    ];
    expect(() => buildCommitItems(questions, duplicates, new Map())).toThrow(/no resolution/);
  });
});

describe("splitImportable", () => {
  it("moves questions the bank cannot store into row errors, in row order", () => {
    const ok = question("fine", { sourceRow: 4 });
    const noB = question("half", { sourceRow: 3, options: { ...emptyOptions(), A: "only" } });
    const result = splitImportable({
      questions: [noB, ok],
      errors: [{ row: 5, message: "Row 5: something" }],
      skipped: 1,
    });
    expect(result.questions).toEqual([ok]);
    expect(result.errors.map((e) => e.row)).toEqual([3, 5]);
    expect(result.errors[0]?.message).toBe("Row 3: at least options A and B are required");
    expect(result.skipped).toBe(1);
  });
});
