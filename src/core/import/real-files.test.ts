// Tests run only in Node: the real-world fixtures are read from disk.
/* eslint-disable no-restricted-imports */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
/* eslint-enable no-restricted-imports */
import { describe, expect, it } from "vitest";
import { parseAnswerKey } from "../parsing/answer-key";
import { parseQuestionsJson } from "../parsing/questions-json";
import { parseQuestionsText } from "../parsing/questions-text";
import { ImportError } from "./errors";
import { parseRows, suggestImportSettings } from "./parse-rows";
import type { ParsedQuestion } from "./types";
import { readSpreadsheet } from "./workbook";

const REAL = path.resolve(__dirname, "../../../fixtures/real");

// A missing folder must fail the suite, never skip it: these files are the evidence that the
// importer works on data nobody wrote for it.
if (!existsSync(REAL)) {
  throw new Error(`Real-world fixtures not found at ${REAL} (expected <project>/fixtures/real)`);
}

const ctx = { part: "1", year: 2024 } as const;

function bytesOf(file: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(REAL, file)));
}

async function importFile(file: string, sheet?: string) {
  const spreadsheet = await readSpreadsheet(file, bytesOf(file), sheet ? { sheet } : {});
  const { settings, labels } = suggestImportSettings(spreadsheet.rows, ctx);
  return { spreadsheet, settings, labels, ...parseRows(spreadsheet.rows, settings) };
}

const options = (q: ParsedQuestion | undefined) =>
  q && [q.options.A, q.options.B, q.options.C, q.options.D, q.options.E];

describe("mmlu_clinical_knowledge_dev.csv (no header)", () => {
  it("gives 5 four-option questions with the file's answers, settings detected", async () => {
    const result = await importFile("mmlu_clinical_knowledge_dev.csv");
    expect(result.settings).toMatchObject({
      format: "questionPerRow",
      headerRow: -1,
      questionColumn: 0,
      optionAColumn: 1,
      optionDColumn: 4,
      optionEColumn: null,
      answerColumn: 5,
      hasOptions: true,
    });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.skipped).toBe(0);
    expect(result.questions).toHaveLength(5);
    expect(result.questions.map((q) => q.correctAnswer)).toEqual(["A", "B", "B", "C", "C"]);
    for (const q of result.questions) {
      expect(q.options.E).toBe("");
      expect([q.options.A, q.options.B, q.options.C, q.options.D].every((o) => o !== "")).toBe(
        true,
      );
    }
    expect(result.questions[0]).toEqual({
      number: null,
      part: "1",
      year: 2024,
      text: "The energy for all forms of muscle contraction is provided by:",
      options: {
        A: "ATP.",
        B: "ADP.",
        C: "phosphocreatine.",
        D: "oxidative phosphorylation.",
        E: "",
      },
      correctAnswer: "A",
      explanation: "",
      category: "",
      sourceRow: 1,
    });
    expect(options(result.questions[3])).toEqual(["4", "3", "2", "1", ""]);
  });
});

describe("mir_medmcqa_style_test-en.csv (MedMCQA header, CRLF)", () => {
  it("gives 508 questions with answers from the 1-based cop, categories and explanations", async () => {
    const result = await importFile("mir_medmcqa_style_test-en.csv");
    expect(result.settings).toMatchObject({
      format: "questionPerRow",
      headerRow: 0,
      questionColumn: 1,
      optionAColumn: 2,
      optionBColumn: 3,
      optionCColumn: 4,
      optionDColumn: 5,
      optionEColumn: 6,
      answerColumn: 7,
      explanationColumn: 9,
      categoryColumn: 10,
      hasCategory: true,
      hasOptions: true,
    });
    const { questions } = result;
    expect(result.errors).toEqual([]);
    expect(result.skipped).toBe(0);
    expect(questions).toHaveLength(508);
    expect(questions.filter((q) => q.options.E === "")).toHaveLength(259);
    expect(questions.filter((q) => q.options.E === "").every((q) => q.options.D !== "")).toBe(true);

    const byRow = new Map(questions.map((q) => [q.sourceRow, q]));
    expect(byRow.get(2)?.correctAnswer).toBe("E"); // 2011-35, cop 5
    expect(byRow.get(2)?.text.startsWith("A 43-year-old man with no diseases of interest")).toBe(
      true,
    );
    expect(byRow.get(2)?.options.A.startsWith("Since the patient is young")).toBe(true);
    expect(byRow.get(2)?.explanation.startsWith("Question about non-varicose ADH.")).toBe(true);
    expect(byRow.get(2)?.category).toBe("Medicine");
    expect(byRow.get(3)?.correctAnswer).toBe("B"); // 2011-36, cop 2
    expect(byRow.get(3)?.options.B).toBe("Biliary drainage by percutaneous cholecystostomy.");
    expect(byRow.get(4)?.correctAnswer).toBe("D"); // 2011-37, cop 4
    expect(byRow.get(102)?.correctAnswer).toBe("B"); // 2012-96, cop 2
    expect(byRow.get(509)?.correctAnswer).toBe("D"); // 2022-60, cop 4
    expect(byRow.get(509)?.category).toBe("Ophthalmology");
    expect(byRow.get(126)?.category).toBe(""); // 2012-166 has no subject_name

    const counts = { A: 0, B: 0, C: 0, D: 0, E: 0 };
    for (const q of questions) if (q.correctAnswer) counts[q.correctAnswer]++;
    expect(counts).toEqual({ A: 97, B: 104, C: 138, D: 111, E: 58 });
    expect(questions.filter((q) => q.category === "Psychiatry")).toHaveLength(12);
    expect(questions.every((q) => q.explanation !== "")).toBe(true);
    expect(questions.every((q) => q.number === null)).toBe(true);
  });
});

describe("quizserver_science_quiz_giselle.xlsx", () => {
  it("gives the 10 questions of sheet 'Questions' with answers from the Points columns", async () => {
    const result = await importFile("quizserver_science_quiz_giselle.xlsx");
    expect(result.spreadsheet.sheets).toEqual(["Questions", "Feuil2", "Feuil3"]);
    expect(result.spreadsheet.sheet).toBe("Questions");
    expect(result.settings).toMatchObject({
      format: "questionPerRow",
      headerRow: 0,
      questionColumn: 1,
      numberColumn: 0,
      optionAColumn: 2,
      optionDColumn: 5,
      optionEColumn: null,
      answerColumn: null,
      pointsColumns: { A: 6, B: 7, C: 8, D: 9 },
    });
    const { questions } = result;
    expect(result.errors).toEqual([]);
    expect(result.skipped).toBe(1); // the 'Done' row; the blank rows after it are not counted
    expect(questions.map((q) => q.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(questions.map((q) => q.correctAnswer).join("")).toBe("BDBABDCADC");
    expect(questions.map((q) => q.sourceRow)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // Numeric cells come as text, as Excel shows them (percent-formatted there).
    expect(options(questions[2])).toEqual(["25%", "60%", "90%", "75%", ""]);
    expect(options(questions[6])).toEqual(["95%", "200%", "80%", "99%", ""]);
    expect(options(questions[9])).toEqual(["5", "50", "16", "25", ""]);
    // Only an option's own letter prefix is removed.
    expect(options(questions[8])).toEqual([
      "Natural Disasters",
      "Scooby-Do Super Villains",
      "B. Cyber Attacks",
      "A and B",
      "",
    ]);
    // Trailing spaces in the cells are gone.
    expect(questions[2]?.text).toBe(
      "The Dams Sector is VERY important because it provides___ of the Northwest United States' electricity.",
    );
    for (const q of questions) expect(q.text).toBe(q.text.trim());
  });

  it("lets Feuil2 and Feuil3 be chosen; they hold no questions", async () => {
    for (const sheet of ["Feuil2", "Feuil3"]) {
      const result = await importFile("quizserver_science_quiz_giselle.xlsx", sheet);
      expect(result.spreadsheet.sheet).toBe(sheet);
      expect(result.spreadsheet.rows).toEqual([]);
      expect(result.questions).toEqual([]);
      expect(result.errors).toEqual([]);
    }
  });
});

describe("quizserver_multisheet_data.xlsx", () => {
  const expected: Record<string, { count: number; answers: string }> = {
    "Demo Questions": { count: 3, answers: "DBB" },
    "Cyber Security": { count: 7, answers: "DCDC..." },
    "Tesla Coils": { count: 6, answers: "DABCCB" },
    "Andy Robot": { count: 6, answers: "BADCDC" },
    "Advanced Manufacturing": { count: 10, answers: "BDCADCDCDC" },
    "Augmented Reality": { count: 6, answers: "BADDAD" },
    "Autonomous Vehicle": { count: 8, answers: "CCDABCAA" },
    "Critical Infrastructure": { count: 6, answers: "BDCBCD" },
  };

  it("offers all 8 sheets", async () => {
    const { sheets } = await readSpreadsheet(
      "quizserver_multisheet_data.xlsx",
      bytesOf("quizserver_multisheet_data.xlsx"),
    );
    expect(sheets).toEqual(Object.keys(expected));
  });

  it.each(Object.entries(expected))("sheet %s", async (sheet, { count, answers }) => {
    const result = await importFile("quizserver_multisheet_data.xlsx", sheet);
    expect(result.settings).toMatchObject({
      format: "questionPerRow",
      headerRow: 0,
      questionColumn: 0,
      optionAColumn: 1,
      optionDColumn: 4,
      optionEColumn: null,
      answerColumn: 5,
    });
    expect(result.questions).toHaveLength(count);
    expect(result.questions.map((q) => q.correctAnswer || ".").join("")).toBe(answers);
    expect(result.skipped).toBe(0);
  });

  it("keeps sparse rows in their columns (Demo Questions)", async () => {
    const { questions, errors } = await importFile(
      "quizserver_multisheet_data.xlsx",
      "Demo Questions",
    );
    expect(errors).toEqual([]);
    expect(questions.map((q) => [q.text, options(q), q.correctAnswer])).toEqual([
      ["4 Choices", ["A", "B", "C", "D", ""], "D"],
      ["3 Choices", ["A", "B", "C", "", ""], "B"],
      ["2 Choices", ["A", "B", "", "", ""], "B"],
    ]);
  });

  it("notes the list-like answers of 'Cyber Security' as warnings with their row numbers", async () => {
    const { questions, errors, warnings } = await importFile(
      "quizserver_multisheet_data.xlsx",
      "Cyber Security",
    );
    // The three rows became questions (without an answer): notes, not errors.
    expect(errors).toEqual([]);
    expect(warnings).toEqual([
      {
        row: 6,
        message:
          "Row 6: the answer '1, 2, 3, 2' names several options; the question was imported without an answer",
      },
      {
        row: 7,
        message:
          "Row 7: the answer '1, 2, 3, 3' names several options; the question was imported without an answer",
      },
      {
        row: 8,
        message:
          "Row 8: the answer '1, 2, 3, 4' names several options; the question was imported without an answer",
      },
    ]);
    expect(questions.filter((q) => q.correctAnswer === "").map((q) => q.sourceRow)).toEqual([
      6, 7, 8,
    ]);
    expect(options(questions[6])).toEqual(["YES!", "YES!", "YES!", "YES!", ""]);
  });

  it("strips own letter prefixes and trailing spaces (Critical Infrastructure, Tesla Coils)", async () => {
    const ci = await importFile("quizserver_multisheet_data.xlsx", "Critical Infrastructure");
    expect(options(ci.questions[5])).toEqual([
      "Natural Disasters",
      "Scooby-Doo Super Villains",
      "Cyber Attacks",
      "A and C",
      "",
    ]);
    const tesla = await importFile("quizserver_multisheet_data.xlsx", "Tesla Coils");
    expect(tesla.questions[0]?.options.C).toBe("Tess Ocean from Los Angeles");
    const andy = await importFile("quizserver_multisheet_data.xlsx", "Andy Robot");
    expect(andy.questions[4]?.options.A).toBe("$2,500");
  });

  it("totals 52 questions over the 8 sheets", async () => {
    let total = 0;
    for (const sheet of Object.keys(expected)) {
      total += (await importFile("quizserver_multisheet_data.xlsx", sheet)).questions.length;
    }
    expect(total).toBe(52);
  });
});

describe("every real file", () => {
  const files = readdirSync(REAL).filter((f) => f !== "SOURCES.md");

  it("holds the files this suite expects", () => {
    expect(files.sort()).toEqual([
      "anki_apkg_export_output.apkg",
      "cuet_2024_answerkey.txt",
      "ham_extra_class_2024_2028.apkg",
      "mir_medmcqa_style_test-en.csv",
      "mmlu_clinical_knowledge_dev.csv",
      "ncvec_extra_class_pool_2024.txt",
      "quizserver_multisheet_data.xlsx",
      "quizserver_science_quiz_giselle.xlsx",
    ]);
  });

  it.each(files)("%s: importers fail only with ImportError, parsers never", async (file) => {
    const bytes = bytesOf(file);
    const base = file.replace(/\.[^.]+$/, "");
    for (const name of [file, `${base}.csv`, `${base}.xlsx`, `${base}.xls`, `${base}.XLSX`]) {
      let rows: string[][] | null = null;
      try {
        rows = (await readSpreadsheet(name, bytes)).rows;
      } catch (error) {
        expect(error, `${name}: ${String(error)}`).toBeInstanceOf(ImportError);
      }
      if (rows) {
        const { settings } = suggestImportSettings(rows, ctx);
        for (const format of ["standard", "questionPerRow", "qa"] as const) {
          try {
            parseRows(rows, { ...settings, format });
          } catch (error) {
            expect(error, `${name} as ${format}`).toBeInstanceOf(ImportError);
          }
        }
      }
    }
    const text = new TextDecoder("utf-8").decode(bytes);
    expect(Array.isArray(parseQuestionsText(text, ctx))).toBe(true);
    const json = parseQuestionsJson(text, ctx);
    expect(json === null || Array.isArray(json)).toBe(true);
    expect(typeof parseAnswerKey(text).answers).toBe("object");
  });
});
