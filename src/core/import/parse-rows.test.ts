import { describe, expect, it } from "vitest";
import {
  ImportError,
  NO_VALID_QUESTIONS_MESSAGE,
  QUESTION_COLUMN_REQUIRED_MESSAGE,
} from "./errors";
import {
  columnLabels,
  defaultImportSettings,
  detectColumns,
  detectHeaderRow,
  parseRows,
  previewRows,
  suggestImportSettings,
} from "./parse-rows";
import type { ImportSettings } from "./types";

const base = { part: "2", year: 2023 } as const;

function perRow(overrides: Partial<ImportSettings> = {}): ImportSettings {
  return defaultImportSettings({
    ...base,
    format: "questionPerRow",
    headerRow: 0,
    questionColumn: 0,
    optionAColumn: 1,
    optionBColumn: 2,
    optionCColumn: 3,
    optionDColumn: 4,
    optionEColumn: 5,
    answerColumn: 6,
    hasOptions: true,
    ...overrides,
  });
}

describe("messages", () => {
  it("uses the spec's words", () => {
    expect(NO_VALID_QUESTIONS_MESSAGE).toBe(
      "No valid questions found. Please check your file format and import settings.",
    );
    expect(QUESTION_COLUMN_REQUIRED_MESSAGE).toBe("Question column is required");
  });
});

describe("parseRows: standard", () => {
  const settings = defaultImportSettings({ ...base, headerRow: -1, questionColumn: 0 });

  it("starts questions at numbers, fills options at letters and appends other text", () => {
    const rows = [
      ["1. Which drug"],
      ["is first line for mania?"],
      ["A. Lithium"],
      ["B) Valproate"],
      ["2) Second question?"],
      ["A. yes"],
      ["3. No options here"],
      ["12 . Spaced number"],
      ["C. only C"],
    ];
    const { questions, errors, skipped } = parseRows(rows, settings);
    expect(errors).toEqual([]);
    expect(questions).toEqual([
      {
        number: 1,
        part: "2",
        year: 2023,
        text: "Which drug is first line for mania?",
        options: { A: "Lithium", B: "Valproate", C: "", D: "", E: "" },
        correctAnswer: "",
        explanation: "",
        category: "",
        sourceRow: 1,
      },
      expect.objectContaining({ number: 2, text: "Second question?", sourceRow: 5 }),
    ]);
    // Question 3 has no option; 12's only 'option' is out of order, so it stays text.
    expect(skipped).toBe(2);
  });

  it("does not mistake a stem starting 'C. difficile' for option C", () => {
    const rows = [["1."], ["C. difficile colitis follows which antibiotic?"], ["A. Clindamycin"]];
    const { questions } = parseRows(rows, settings);
    expect(questions[0]?.text).toBe("C. difficile colitis follows which antibiotic?");
    expect(questions[0]?.options.A).toBe("Clindamycin");
  });

  it("skips a lone word after the options (a 'Done' sentinel)", () => {
    const rows = [["1. Q?"], ["A. a"], ["B. b"], ["Done"]];
    const result = parseRows(rows, settings);
    expect(result.questions[0]?.text).toBe("Q?");
    expect(result.skipped).toBe(1);
  });

  it("reads only the question column when one is chosen, every cell otherwise", () => {
    const rows = [
      ["1. Q?", "note"],
      ["A. a", "B. b"],
    ];
    expect(parseRows(rows, settings).questions[0]?.options).toEqual({
      A: "a",
      B: "",
      C: "",
      D: "",
      E: "",
    });
    const all = parseRows(rows, { ...settings, questionColumn: null });
    expect(all.questions[0]?.text).toBe("Q? note");
    expect(all.questions[0]?.options.B).toBe("b");
  });

  it("skips the header row", () => {
    const rows = [["1. Header that looks like a question"], ["2. Q?"], ["A. a"]];
    const result = parseRows(rows, { ...settings, headerRow: 0 });
    expect(result.questions.map((q) => q.number)).toEqual([2]);
  });
});

describe("parseRows: question per row", () => {
  const header = ["Question", "A", "B", "C", "D", "E", "Answer", "Category", "Why"];

  it("requires a question column", () => {
    expect(() => parseRows([header], perRow({ questionColumn: null }))).toThrow(
      new ImportError(QUESTION_COLUMN_REQUIRED_MESSAGE),
    );
  });

  it("reads options, answer, category and explanation from their columns", () => {
    const rows = [header, ["Q1?", "a", "b", "c", "d", "e", "c", "Psychopharmacology", "because"]];
    const result = parseRows(
      rows,
      perRow({ categoryColumn: 7, hasCategory: true, explanationColumn: 8 }),
    );
    expect(result).toEqual({
      questions: [
        {
          number: null,
          part: "2",
          year: 2023,
          text: "Q1?",
          options: { A: "a", B: "b", C: "c", D: "d", E: "e" },
          correctAnswer: "C",
          explanation: "because",
          category: "Psychopharmacology",
          sourceRow: 2,
        },
      ],
      errors: [],
      warnings: [],
      skipped: 0,
    });
  });

  it("reads the category only when hasCategory is set and a column is chosen", () => {
    const rows = [header, ["Q?", "a", "b", "", "", "", "", "Genetics"]];
    expect(parseRows(rows, perRow({ categoryColumn: 7 })).questions[0]?.category).toBe("");
    expect(parseRows(rows, perRow({ hasCategory: true })).questions[0]?.category).toBe("");
    expect(
      parseRows(rows, perRow({ categoryColumn: 7, hasCategory: true })).questions[0]?.category,
    ).toBe("Genetics");
  });

  it("reads options only when hasOptions is set", () => {
    const rows = [header, ["Q?", "a", "b", "", "", "", "B"]];
    const q = parseRows(rows, perRow({ hasOptions: false })).questions[0];
    expect(q?.options).toEqual({ A: "", B: "", C: "", D: "", E: "" });
    expect(q?.correctAnswer).toBe("B");
  });

  it("skips rows without a question and blank rows; reports rows with fewer than 2 options", () => {
    const rows = [
      header,
      ["", "a", "b"],
      [],
      ["   ", ""],
      ["Q only A?", "a"],
      ["Q no A?", "", "b", "c"],
      ["Good?", "a", "b"],
    ];
    const result = parseRows(rows, perRow());
    expect(result.questions.map((q) => q.text)).toEqual(["Good?"]);
    expect(result.errors).toEqual([
      { row: 5, message: "Row 5: at least options A and B are required" },
      { row: 6, message: "Row 6: at least options A and B are required" },
    ]);
    expect(result.skipped).toBe(1);
  });

  it("understands letters, option numbers, labels and option text as answers", () => {
    const answers: [string, string][] = [
      ["b", "B"],
      ["(C)", "C"],
      ["D.", "D"],
      ["e) Fifth", "E"],
      ["Answer: C", "C"],
      ["1", "A"],
      ["3.0", "C"],
      ["5", "E"],
      ["second", "B"],
      ["", ""],
    ];
    for (const [cell, expected] of answers) {
      const rows = [header, ["Q?", "first", "second", "third", "fourth", "Fifth", cell]];
      const result = parseRows(rows, perRow());
      expect(result.questions[0]?.correctAnswer, cell).toBe(expected);
      expect(result.errors, cell).toEqual([]);
      expect(result.warnings, cell).toEqual([]);
    }
  });

  it("imports a question with a list-like or unreadable answer without one, and says so", () => {
    const rows = [
      header,
      ["Q1?", "a", "b", "c", "d", "", "1, 2, 3, 2"],
      ["Q2?", "a", "b", "c", "d", "", "A and C"],
      ["Q3?", "a", "b", "c", "d", "", "Both"],
      ["Q4?", "a", "b", "c", "d", "", "7"],
      ["Q5?", "a", "b", "", "", "", "D"],
    ];
    const result = parseRows(rows, perRow());
    expect(result.questions.map((q) => q.correctAnswer)).toEqual(["", "", "", "", ""]);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      {
        row: 2,
        message:
          "Row 2: the answer '1, 2, 3, 2' names several options; the question was imported without an answer",
      },
      {
        row: 3,
        message:
          "Row 3: the answer 'A and C' names several options; the question was imported without an answer",
      },
      {
        row: 4,
        message:
          "Row 4: the answer 'Both' is not a letter A-E or an option number 1-5; the question was imported without an answer",
      },
      {
        row: 5,
        message:
          "Row 5: the answer '7' is not a letter A-E or an option number 1-5; the question was imported without an answer",
      },
      {
        row: 6,
        message:
          "Row 6: the answer D is an empty option; the question was imported without an answer",
      },
    ]);
  });

  it("takes the answer from points columns when there is no answer", () => {
    const rows = [
      ["Q", "A", "B", "C", "Points A", "Points B", "Points C"],
      ["Q1?", "a", "b", "c", "0", "1.0", "0"],
      ["Q2?", "a", "b", "c", "0.5", "0", "1"],
      ["Q3?", "a", "b", "c", "1", "1", "0"],
      ["Q4?", "a", "b", "c", "0", "0", "0"],
    ];
    const settings = perRow({
      optionDColumn: null,
      optionEColumn: null,
      answerColumn: null,
      pointsColumns: { A: 4, B: 5, C: 6 },
    });
    const result = parseRows(rows, settings);
    expect(result.questions.map((q) => q.correctAnswer)).toEqual(["B", "C", "", ""]);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      {
        row: 4,
        message:
          "Row 4: several options share the highest points; the question was imported without an answer",
      },
    ]);
  });

  it("strips an option's own letter prefix, and only its own", () => {
    const rows = [header, ["Q?", "A. Natural", "B) Cyber", "B. Mislabelled", "(d) Fourth", "A"]];
    const q = parseRows(rows, perRow()).questions[0];
    expect(q?.options).toEqual({
      A: "Natural",
      B: "Cyber",
      C: "B. Mislabelled",
      D: "Fourth",
      E: "A",
    });
  });

  it("reads question numbers from a number column or a '12. ' prefix", () => {
    const rows = [
      ["No", "Question", "A", "B"],
      ["7.0", "Q7?", "a", "b"],
      ["", "12. Q12?", "a", "b"],
      ["x", "Q?", "a", "b"],
    ];
    const settings = perRow({
      numberColumn: 0,
      questionColumn: 1,
      optionAColumn: 2,
      optionBColumn: 3,
      optionCColumn: null,
      optionDColumn: null,
      optionEColumn: null,
      answerColumn: null,
    });
    const result = parseRows(rows, settings);
    expect(result.questions.map((q) => [q.number, q.text])).toEqual([
      [7, "Q7?"],
      [12, "Q12?"],
      [null, "Q?"],
    ]);
  });

  it("skips a lone-word sentinel row", () => {
    const rows = [header, ["Q?", "a", "b"], ["Done"]];
    const result = parseRows(rows, perRow());
    expect(result.questions).toHaveLength(1);
    expect(result.skipped).toBe(1);
    expect(result.errors).toEqual([]);
  });

  it("tolerates out-of-range columns and non-string cells", () => {
    const rows = [[], ["Q?", 1, true, null, undefined]] as unknown as string[][];
    const result = parseRows(rows, perRow({ optionCColumn: 99, optionDColumn: -3 }));
    expect(result.questions[0]?.options).toEqual({ A: "1", B: "true", C: "", D: "", E: "" });
  });
});

describe("parseRows: Q&A", () => {
  const settings = defaultImportSettings({
    ...base,
    format: "qa",
    headerRow: -1,
    questionColumn: 0,
  });

  it("splits options written after the question in its cell and pairs it with the answer row", () => {
    const rows = [
      ["Q: First-line for OCD? A. Sertraline B. Haloperidol C. Lithium"],
      ["A: A"],
      [],
      ["12. Which drug causes agranulocytosis?\nA) Clozapine\nB) Sertraline\nC) Bupropion"],
      ["Answer is Clozapine"],
      ["Third? (A) yes (B) no"],
      ["(b)"],
      ["Dangling question at the end? A. one B. two"],
    ];
    const result = parseRows(rows, settings);
    expect(result.questions.map((q) => [q.number, q.text, q.correctAnswer, q.sourceRow])).toEqual([
      [null, "First-line for OCD?", "A", 1],
      [12, "Which drug causes agranulocytosis?", "A", 4],
      [null, "Third?", "B", 6],
      [null, "Dangling question at the end?", "", 8],
    ]);
    expect(result.questions[0]?.options).toEqual({
      A: "Sertraline",
      B: "Haloperidol",
      C: "Lithium",
      D: "",
      E: "",
    });
    expect(result.questions[1]?.options).toEqual({
      A: "Clozapine",
      B: "Sertraline",
      C: "Bupropion",
      D: "",
      E: "",
    });
    for (const q of result.questions) expect(q.category).toBe("");
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      {
        row: 8,
        message: "Row 8: no answer row follows this question; it was imported without an answer",
      },
    ]);
  });

  it("turns a question without options into a row error with the reason, and keeps the pairing", () => {
    const rows = [
      ["Drug of choice for absence seizures?"],
      ["B"],
      ["Which is an SSRI? A. Fluoxetine B. Haloperidol"],
      ["A"],
    ];
    const result = parseRows(rows, settings);
    expect(result.questions.map((q) => [q.text, q.correctAnswer, q.sourceRow])).toEqual([
      ["Which is an SSRI?", "A", 3],
    ]);
    expect(result.errors).toEqual([
      {
        row: 1,
        message:
          "Row 1: no answer options found; in the Q&A format the options follow the question in its cell ('Which …? A. … B. …')",
      },
    ]);
    expect(result.warnings).toEqual([]);
  });

  it("warns when the answer row names no option, or an empty one", () => {
    const rows = [
      ["Which is an SSRI? A. Fluoxetine B. Haloperidol"],
      ["Both are fine"],
      ["Which is a stimulant? A. Methylphenidate B. Lithium"],
      ["Answer: D"],
    ];
    const result = parseRows(rows, settings);
    expect(result.questions.map((q) => q.correctAnswer)).toEqual(["", ""]);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      {
        row: 2,
        message:
          "Row 2: the answer 'Both are fine' is not a letter A-E, an option number 1-5 or an option's text; the question was imported without an answer",
      },
      {
        row: 4,
        message:
          "Row 4: the answer D is an empty option; the question was imported without an answer",
      },
    ]);
  });

  it("treats a trailing lone word as a sentinel", () => {
    const result = parseRows([["Q? A. yes B. no"], ["A"], ["Done"]], settings);
    expect(result.questions).toHaveLength(1);
    expect(result.errors).toEqual([]);
    expect(result.skipped).toBe(1);
  });
});

describe("detectColumns", () => {
  it("recognises the spec's labels, case-insensitively", () => {
    const { settings, labels } = detectColumns(
      ["Question", "a", "B", "Option C", "option d", "E", "Correct", "Topic", ""],
      { base },
    );
    expect(labels).toEqual([
      "Question",
      "a",
      "B",
      "Option C",
      "option d",
      "E",
      "Correct",
      "Topic",
      "Column 9",
    ]);
    expect(settings).toMatchObject({
      part: "2",
      year: 2023,
      format: "questionPerRow",
      hasOptions: true,
      questionColumn: 0,
      optionAColumn: 1,
      optionBColumn: 2,
      optionCColumn: 3,
      optionDColumn: 4,
      optionEColumn: 5,
      answerColumn: 6,
      categoryColumn: 7,
      hasCategory: true,
    });
  });

  it("keeps the standard format when no option A column exists", () => {
    const { settings } = detectColumns(["Questions", "Answer", "Category"]);
    expect(settings.format).toBe("standard");
    expect(settings.hasOptions).toBe(false);
    expect(settings.questionColumn).toBe(0);
    expect(settings.answerColumn).toBe(1);
  });

  it("reads 'Answer A' as an option, not the answer, and 'Points A' as a score", () => {
    const header = [
      "Question N°",
      "Question",
      "Answer A",
      "Answer B",
      "Points A",
      "Points B",
      "Tip",
    ];
    const { settings } = detectColumns(header);
    expect(settings).toMatchObject({
      questionColumn: 1,
      numberColumn: 0,
      optionAColumn: 2,
      optionBColumn: 3,
      answerColumn: null,
      pointsColumns: { A: 4, B: 5 },
    });
  });

  it("reads MedMCQA labels and prefers a category column that holds data", () => {
    const header = [
      "id",
      "question",
      "opa",
      "opb",
      "opc",
      "opd",
      "ope",
      "cop",
      "choice_type",
      "exp",
      "subject_name",
      "topic_name",
    ];
    const data = [["1", "q", "a", "b", "c", "d", "", "2", "single", "e", "Medicine", ""]];
    const { settings } = detectColumns(header, { dataRows: data });
    expect(settings).toMatchObject({
      questionColumn: 1,
      optionAColumn: 2,
      optionEColumn: 6,
      answerColumn: 7,
      explanationColumn: 9,
      categoryColumn: 10,
    });
    // With no data to look at, the stronger label still wins.
    expect(detectColumns(header).settings.categoryColumn).toBe(10);
    const emptySubject = [["1", "q", "a", "b", "c", "d", "", "2", "single", "e", "", "Mood"]];
    expect(detectColumns(header, { dataRows: emptySubject }).settings.categoryColumn).toBe(11);
  });

  it("reads numbered option columns and 'Correct'", () => {
    const header = ["Question", "1", "2", "3", "4", "Correct", "Hint", "Hint Image"];
    expect(detectColumns(header).settings).toMatchObject({
      questionColumn: 0,
      optionAColumn: 1,
      optionDColumn: 4,
      optionEColumn: null,
      answerColumn: 5,
    });
  });

  it("takes the column before option A as the question when no label says so", () => {
    expect(detectColumns(["Stem text", "A", "B"]).settings.questionColumn).toBe(0);
    expect(detectColumns(["Vignette", "A", "B"]).settings.questionColumn).toBe(0);
  });
});

describe("detectHeaderRow", () => {
  it("finds the header under a title row", () => {
    const rows = [
      ["PRITE 2019 Part 1"],
      [],
      ["Question", "A", "B", "Answer"],
      ["q", "a", "b", "A"],
    ];
    expect(detectHeaderRow(rows)).toBe(2);
  });

  it("returns -1 when the first row is a question", () => {
    const rows = [
      ["The energy for all forms of muscle contraction is provided by:", "ATP.", "ADP.", "A"],
    ];
    expect(detectHeaderRow(rows)).toBe(-1);
  });

  it("defaults to 0 when nothing tells", () => {
    expect(detectHeaderRow([])).toBe(0);
    expect(detectHeaderRow([["x", "y"]])).toBe(0);
  });

  it("does not take a data row full of short options for a header", () => {
    const rows = [
      ["How many attempts should you make before passing the job on?", "4", "3", "2", "1", "C"],
    ];
    expect(detectHeaderRow(rows)).toBe(-1);
  });
});

describe("suggestImportSettings", () => {
  it("infers columns from the data when there is no header", () => {
    const rows = [
      [
        "Which of the following is the first-line treatment?",
        "Lithium",
        "Valproate",
        "Lamotrigine",
        "B",
      ],
      ["Which receptor does clozapine block most?", "D2", "D4", "5-HT2A", "3"],
    ];
    const { settings, labels } = suggestImportSettings(rows, base);
    expect(labels).toEqual(["Column 1", "Column 2", "Column 3", "Column 4", "Column 5"]);
    expect(settings).toMatchObject({
      headerRow: -1,
      format: "questionPerRow",
      hasOptions: true,
      questionColumn: 0,
      optionAColumn: 1,
      optionCColumn: 3,
      optionDColumn: null,
      answerColumn: 4,
    });
    expect(parseRows(rows, settings).questions.map((q) => q.correctAnswer)).toEqual(["B", "C"]);
  });

  it("picks the standard format for numbered text in one column", () => {
    const rows = [["1. Which of these is an SSRI?"], ["A. Sertraline"], ["B. Bupropion"]];
    const { settings } = suggestImportSettings(rows, base);
    expect(settings).toMatchObject({ format: "standard", headerRow: -1, questionColumn: 0 });
    expect(parseRows(rows, settings).questions).toHaveLength(1);
  });
});

describe("previewRows and columnLabels", () => {
  it("shows the header and up to 5 non-blank data rows of the first 10 rows", () => {
    const rows = [
      ["Question", "", "A"],
      ["q1"],
      [],
      ["q2", "x", "y", "extra"],
      ["q3"],
      ["q4"],
      ["q5"],
      ["q6"],
    ];
    expect(previewRows(rows, 0)).toEqual({
      header: ["Question", "Column 2", "A", "Column 4"],
      rows: [
        ["q1", "", "", ""],
        ["q2", "x", "y", "extra"],
        ["q3", "", "", ""],
        ["q4", "", "", ""],
        ["q5", "", "", ""],
      ],
    });
  });

  it("labels every column 'Column N' without a header and reads only the first 10 rows", () => {
    const rows = Array.from({ length: 30 }, (_, k) => (k < 10 ? [] : [`r${k}`, "x"]));
    expect(previewRows(rows, -1)).toEqual({ header: [], rows: [] });
    expect(previewRows([["a", "b"]], -1)).toEqual({
      header: ["Column 1", "Column 2"],
      rows: [["a", "b"]],
    });
    expect(columnLabels(["", " x "], 3)).toEqual(["Column 1", "x", "Column 3"]);
  });
});
