// Tests run only in Node: the real-world fixtures are read from disk.
/* eslint-disable no-restricted-imports */
import { readFileSync } from "node:fs";
import path from "node:path";
/* eslint-enable no-restricted-imports */
import { describe, expect, it } from "vitest";
import { DUPLICATE_DETECTION } from "@/core/constants";
import {
  defaultImportSettings,
  parseRows,
  QA_NO_OPTIONS_REASON,
  suggestImportSettings,
} from "@/core/import/parse-rows";
import { emptyOptions, type ParsedQuestion } from "@/core/import/types";
import { readSpreadsheet } from "@/core/import/workbook";
import {
  buildCommitItems,
  chunk,
  defaultResolution,
  importProblem,
  percentDone,
  previewText,
  resolutionFor,
  splitImportable,
  toImportItem,
  type DuplicateItem,
  type MatchView,
  type Resolution,
} from "@/core/import/plan";

const REAL = path.resolve(__dirname, "../../../fixtures/real");

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
  const now = new Date("2025-06-01T12:00:00Z");

  it("moves questions the bank cannot store into row errors, in row order", () => {
    const ok = question("fine", { sourceRow: 4 });
    const noB = question("half", { sourceRow: 3, options: { ...emptyOptions(), A: "only" } });
    const result = splitImportable(
      {
        questions: [noB, ok],
        errors: [{ row: 5, message: "Row 5: something" }],
        warnings: [{ row: 4, message: "Row 4: a note" }],
        skipped: 1,
      },
      now,
    );
    expect(result.questions).toEqual([ok]);
    expect(result.errors.map((e) => e.row)).toEqual([3, 5]);
    expect(result.errors[0]?.message).toBe("Row 3: at least options A and B are required");
    expect(result.warnings).toEqual([{ row: 4, message: "Row 4: a note" }]);
    expect(result.skipped).toBe(1);
  });

  it("turns what the save would refuse into row errors by file row, so the rest still imports", () => {
    const fine = question("Which drug is first-line for panic disorder?", { sourceRow: 2 });
    // A wrong column chosen as the category: the server allows 100 characters.
    const longCategory = question("Which lobe holds the primary visual cortex?", {
      sourceRow: 7,
      category: "x".repeat(101),
    });
    const answerOnEmpty = question("Which neurotransmitter is low in Parkinson disease?", {
      sourceRow: 9,
      correctAnswer: "D",
    });
    const futureYear = question("Which scale rates tardive dyskinesia?", {
      sourceRow: 12,
      year: 2031,
    });
    const longOption = question("Which drug causes agranulocytosis?", {
      sourceRow: 15,
      options: { ...emptyOptions(), A: "Clozapine", B: "y".repeat(2001) },
    });
    const result = splitImportable(
      {
        questions: [fine, longCategory, answerOnEmpty, futureYear, longOption],
        errors: [],
        warnings: [],
        skipped: 0,
      },
      now,
    );
    expect(result.questions).toEqual([fine]);
    expect(result.errors).toEqual([
      { row: 7, message: "Row 7: Category must be at most 100 characters" },
      { row: 9, message: "Row 9: Option D has no text, so it cannot be the correct answer" },
      { row: 12, message: "Row 12: Year must be between 2000 and 2026" },
      { row: 15, message: "Row 15: Option B must be at most 2000 characters" },
    ]);
    // Each rejected question is exactly one the server's commit would have refused.
    for (const q of [longCategory, answerOnEmpty, futureYear, longOption]) {
      expect(importProblem(q, now)).not.toBeNull();
    }
    expect(importProblem(fine, now)).toBeNull();
  });

  it("counts as errors only the rows of the 'Cyber Security' sheet that could not become questions", async () => {
    const file = "quizserver_multisheet_data.xlsx";
    const bytes = new Uint8Array(readFileSync(path.join(REAL, file)));
    const sheet = await readSpreadsheet(file, bytes, { sheet: "Cyber Security" });
    const { settings } = suggestImportSettings(sheet.rows, { part: "1", year: 2024 });
    const result = splitImportable(parseRows(sheet.rows, settings), now);
    // Total 7, Imported 7, Errors 0: the three list-like answers are notes on imported questions.
    expect(result.questions).toHaveLength(7);
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => w.row)).toEqual([6, 7, 8]);
    expect(result.warnings[0]?.message).toBe(
      "Row 6: the answer '1, 2, 3, 2' names several options; the question was imported without an answer",
    );
    expect(result.questions.filter((q) => q.correctAnswer === "").map((q) => q.sourceRow)).toEqual([
      6, 7, 8,
    ]);
  });

  it("imports a Q&A file whose question cells carry their options; the others are errors with the reason", () => {
    const rows = [
      ["Question", "Answer"],
      ["Which drug is an SSRI? A. Sertraline B. Haloperidol C. Lithium"],
      ["A"],
      ["Which drug causes agranulocytosis?"],
      ["C"],
      ["Which lobe holds the visual cortex?\nA. Frontal\nB. Occipital\nC. Temporal"],
      ["Answer: B"],
    ];
    const settings = defaultImportSettings({ format: "qa", headerRow: 0, questionColumn: 0 });
    const result = splitImportable(parseRows(rows, settings), now);
    expect(result.questions.map((q) => [q.text, q.correctAnswer, q.sourceRow])).toEqual([
      ["Which drug is an SSRI?", "A", 2],
      ["Which lobe holds the visual cortex?", "B", 6],
    ]);
    expect(result.errors).toEqual([{ row: 4, message: `Row 4: ${QA_NO_OPTIONS_REASON}` }]);
  });
});

describe("previewText", () => {
  it("shows the first 50 characters of the matched question, whitespace collapsed", () => {
    const text = `A 34-year-old woman   presents\nwith   three weeks of low mood and anhedonia. What next?`;
    const preview = previewText(text);
    expect(preview).toBe("A 34-year-old woman presents with three weeks of l…");
    expect([...preview.slice(0, -1)]).toHaveLength(DUPLICATE_DETECTION.PREVIEW_CHARS);
    expect(previewText("Short question?")).toBe("Short question?");
    expect(previewText("x".repeat(50))).toBe("x".repeat(50));
  });
});
