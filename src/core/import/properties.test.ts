import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parseCsv } from "./csv";
import { ImportError, QUESTION_COLUMN_REQUIRED_MESSAGE } from "./errors";
import { defaultImportSettings, parseRows, previewRows, suggestImportSettings } from "./parse-rows";
import { expectParsedQuestion, expectPrototypeUntouched } from "./shape.test-utils";
import type { ImportSettings } from "./types";
import { readSpreadsheet } from "./workbook";
import { inspectZip } from "./zip-guard";

const RUNS = 10_000;

/** Strings rich in what CSV and the row parser react to. */
const csvish = fc.string({
  unit: fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom(",", '"', "\n", "\r", "\r\n", ";", "\t", " ", "\uFEFF"),
    },
    {
      weight: 4,
      arbitrary: fc.constantFrom("A", "b", "1", "12.", "A.", "(C)", "Done", "__proto__"),
    },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 3 }) },
  ),
  maxLength: 120,
});

const cell = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "Done",
    "A",
    "b",
    "3",
    "2.0",
    "1, 2, 3",
    "A. opt",
    "(c) opt",
    "12. Stem?",
    "Answer: D",
    "0.5",
    "__proto__",
    "constructor",
    "Question",
    "Option A",
    "Points B",
  ),
  fc.string({ maxLength: 20 }),
);
const rows = fc.array(fc.array(cell, { maxLength: 9 }), { maxLength: 14 });
const column = fc.option(fc.integer({ min: -2, max: 10 }), { nil: null });

const settings: fc.Arbitrary<ImportSettings> = fc
  .record({
    part: fc.constantFrom("1", "2"),
    year: fc.integer({ min: 2000, max: 2030 }),
    format: fc.constantFrom("standard", "questionPerRow", "qa"),
    headerRow: fc.integer({ min: -3, max: 15 }),
    questionColumn: column,
    optionAColumn: column,
    optionBColumn: column,
    optionCColumn: column,
    optionDColumn: column,
    optionEColumn: column,
    answerColumn: column,
    categoryColumn: column,
    explanationColumn: column,
    hasOptions: fc.boolean(),
    hasCategory: fc.boolean(),
    numberColumn: column,
    pointsColumns: fc.option(
      fc.record({ A: column, B: column, C: column, D: column, E: column }, { requiredKeys: [] }),
      { nil: undefined },
    ),
  })
  .map((s) => {
    const { pointsColumns, ...rest } = s;
    return pointsColumns === undefined ? rest : { ...rest, pointsColumns };
  });

afterAll(() => {
  expectPrototypeUntouched();
});

describe("parseCsv properties", () => {
  it("never throws anything but ImportError, and returns rows of strings", () => {
    fc.assert(
      fc.property(csvish, (text) => {
        let out: string[][];
        try {
          out = parseCsv(text);
        } catch (error) {
          if (!(error instanceof ImportError)) throw error;
          return;
        }
        const ok = out.every(
          (row) => Array.isArray(row) && row.every((f) => typeof f === "string"),
        );
        if (!ok) throw new Error(`not rows of strings: ${JSON.stringify(out)}`);
      }),
      { numRuns: RUNS },
    );
  });

  it("reads back what a CSV writer wrote", () => {
    const field = fc.string({
      unit: fc.oneof(
        fc.constantFrom(",", '"', "\n", "\r\n", ";", "\t", " "),
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
      ),
      maxLength: 15,
    });
    const table = fc.array(
      fc
        .tuple(field, fc.array(field, { maxLength: 6 }))
        .map(([first, rest]) => [`x${first}`, ...rest]),
      { minLength: 1, maxLength: 12 },
    );
    fc.assert(
      fc.property(table, fc.constantFrom("\n", "\r\n", "\r"), (data, eol) => {
        const text = data
          .map((row) => row.map((f) => `"${f.replace(/"/g, '""')}"`).join(","))
          .join(eol);
        const parsed = parseCsv(text);
        if (JSON.stringify(parsed) !== JSON.stringify(data)) expect(parsed).toEqual(data);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("parseRows properties", () => {
  it("never throws except 'Question column is required', and yields valid drafts", () => {
    fc.assert(
      fc.property(rows, settings, (data, s) => {
        let result: ReturnType<typeof parseRows>;
        try {
          result = parseRows(data, s);
        } catch (error) {
          const expected =
            error instanceof ImportError &&
            error.message === QUESTION_COLUMN_REQUIRED_MESSAGE &&
            s.format === "questionPerRow" &&
            s.questionColumn === null;
          if (!expected) throw error;
          return;
        }
        if (!(Number.isInteger(result.skipped) && result.skipped >= 0)) throw new Error("skipped");
        for (const q of result.questions) {
          expectParsedQuestion(q);
          const row = q.sourceRow ?? 0;
          if (q.part !== s.part || q.year !== s.year || q.text === "") {
            throw new Error(`bad draft ${JSON.stringify(q)}`);
          }
          if (row < 1 || row > data.length) throw new Error(`sourceRow ${row}`);
        }
        // Errors are rows that did not become questions; warnings are notes on rows that did.
        const imported = new Set(result.questions.map((q) => q.sourceRow));
        for (const e of result.errors) {
          if (e.row < 1 || e.row > data.length || !e.message.startsWith(`Row ${e.row}: `)) {
            throw new Error(`bad error ${JSON.stringify(e)}`);
          }
          if (imported.has(e.row)) throw new Error(`row ${e.row} is both an error and a question`);
        }
        for (const w of result.warnings) {
          if (w.row < 1 || w.row > data.length || !w.message.startsWith(`Row ${w.row}: `)) {
            throw new Error(`bad warning ${JSON.stringify(w)}`);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("auto-detection always yields settings parseRows accepts", () => {
    fc.assert(
      fc.property(rows, (data) => {
        const { settings: s, labels } = suggestImportSettings(data, { part: "1", year: 2024 });
        if (s.questionColumn === null) throw new Error("no question column suggested");
        if (labels.some((label) => label === "")) throw new Error("blank label");
        const result = parseRows(data, s);
        for (const q of result.questions) expectParsedQuestion(q);
        const preview = previewRows(data, s.headerRow);
        if (preview.rows.length > 5) throw new Error("preview too long");
        if (preview.rows.some((row) => row.length !== preview.header.length)) {
          throw new Error("preview row width");
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("defaults are the spec's (standard format, header row 0, nothing chosen)", () => {
    expect(defaultImportSettings()).toMatchObject({
      format: "standard",
      headerRow: 0,
      questionColumn: null,
      hasOptions: false,
      hasCategory: false,
    });
  });
});

describe("file readers on random bytes", () => {
  it("inspectZip refuses garbage only with ImportError", () => {
    const zipish = fc
      .uint8Array({ maxLength: 300 })
      .map(
        (tail) =>
          new Uint8Array([0x50, 0x4b, 3, 4, ...tail, 0x50, 0x4b, 5, 6, ...tail.slice(0, 18)]),
      );
    fc.assert(
      fc.property(zipish, (bytes) => {
        try {
          inspectZip(bytes);
        } catch (error) {
          if (!(error instanceof ImportError)) throw error;
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("readSpreadsheet fails only with ImportError", async () => {
    const names = fc.constantFrom("a.csv", "a.xlsx", "a.xls", "a.txt");
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc.uint8Array({ maxLength: 200 }).map((b) => new Uint8Array([0x50, 0x4b, 3, 4, ...b])),
      fc
        .uint8Array({ maxLength: 200 })
        .map((b) => new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...b])),
    );
    await fc.assert(
      fc.asyncProperty(names, bytes, async (name, data) => {
        try {
          const result = await readSpreadsheet(name, data);
          if (!result.rows.every((row) => row.every((c) => typeof c === "string"))) {
            throw new Error("cells must be strings");
          }
        } catch (error) {
          if (!(error instanceof ImportError)) throw error;
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("linear time on adversarial cells", () => {
  const long = (s: string) => s.repeat(50_000);
  const cells = [
    `q${long(" ")}x`,
    `Question${long(".")}!`,
    `12${long(" ")}x`,
    `A${long(" ")}!`,
    `1${long(", ")}`,
    `${long("(A) ")}?`,
    `Q${long(" ")}:`,
    long(":"),
    `Answer${long(" ")}!`,
  ];

  it.each(cells.map((c) => [c.slice(0, 12), c]))("%j…", (_, cell) => {
    const data = [[cell, cell, cell, cell], [cell, "a", "b", cell], [cell]];
    const started = performance.now();
    const { settings: s } = suggestImportSettings(data, { part: "1", year: 2024 });
    for (const format of ["standard", "questionPerRow", "qa"] as const) {
      parseRows(data, { ...s, format, questionColumn: 0, answerColumn: 3, hasOptions: true });
    }
    try {
      parseCsv(`${cell},${cell}\n${cell}`);
    } catch (error) {
      if (!(error instanceof ImportError)) throw error; // the column limit, for '1, , , …'
    }
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
