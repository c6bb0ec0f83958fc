import { describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import {
  FILE_TOO_LARGE_MESSAGE,
  ImportError,
  NOT_CSV_TEXT_MESSAGE,
  TOO_MANY_ROWS_MESSAGE,
  UNSUPPORTED_FORMAT_MESSAGE,
} from "./errors";
import {
  decodeText,
  looksBinary,
  NOT_EXCEL_MESSAGE,
  readSpreadsheet,
  UNREADABLE_EXCEL_MESSAGE,
} from "./workbook";

type Cell = XLSX.CellObject | string | number | null;

function sheetOf(rows: Cell[][]): XLSX.WorkSheet {
  const ws: XLSX.WorkSheet = {};
  let maxR = 0;
  let maxC = 0;
  rows.forEach((row, r) =>
    row.forEach((cell, c) => {
      if (cell === null) return;
      const object: XLSX.CellObject =
        typeof cell === "string"
          ? { t: "s", v: cell }
          : typeof cell === "number"
            ? { t: "n", v: cell }
            : cell;
      ws[XLSX.utils.encode_cell({ r, c })] = object;
      maxR = Math.max(maxR, r);
      maxC = Math.max(maxC, c);
    }),
  );
  ws["!ref"] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: maxR, c: maxC } });
  return ws;
}

function workbook(
  sheets: Record<string, XLSX.WorkSheet>,
  bookType: XLSX.BookType = "xlsx",
  hidden: string[] = [],
): Uint8Array {
  const wb = XLSX.utils.book_new();
  for (const [name, ws] of Object.entries(sheets)) XLSX.utils.book_append_sheet(wb, ws, name);
  if (hidden.length > 0) {
    wb.Workbook = {
      Sheets: wb.SheetNames.map((name) => ({ name, Hidden: hidden.includes(name) ? 1 : 0 })),
    };
  }
  const out: unknown = XLSX.write(wb, { type: "array", bookType });
  return new Uint8Array(out as ArrayBuffer);
}

async function importError(promise: Promise<unknown>): Promise<ImportError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return error as ImportError;
  }
  throw new Error("expected an ImportError");
}

const utf8 = (text: string) => new TextEncoder().encode(text);

describe("readSpreadsheet: CSV", () => {
  it("reads a CSV as one sheet named after the file, cells right-trimmed", async () => {
    const result = await readSpreadsheet("dir/bank.CSV", utf8("\uFEFFQuestion ,A\n  x  ,y\n"));
    expect(result).toEqual({
      sheets: ["bank"],
      sheet: "bank",
      rows: [
        ["Question", "A"],
        ["  x", "y"],
      ],
    });
  });

  it("decodes Windows-1252 and UTF-16 text", async () => {
    const latin = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x2c, 0x92, 0x78]); // café,’x
    expect((await readSpreadsheet("a.csv", latin)).rows).toEqual([["café", "\u2019x"]]);
    const utf16 = new Uint8Array([0xff, 0xfe, 0x61, 0, 0x2c, 0, 0x62, 0]);
    expect((await readSpreadsheet("a.csv", utf16)).rows).toEqual([["a", "b"]]);
    expect(decodeText(utf8("naïve"))).toBe("naïve");
  });

  it("refuses a binary file named .csv", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(looksBinary(png)).toBe(true);
    expect((await importError(readSpreadsheet("photo.csv", png))).message).toBe(
      NOT_CSV_TEXT_MESSAGE,
    );
    const xlsx = workbook({ S: sheetOf([["a"]]) });
    expect((await importError(readSpreadsheet("renamed.csv", xlsx))).message).toBe(
      NOT_CSV_TEXT_MESSAGE,
    );
    expect(looksBinary(utf8("a,b\tc\r\n"))).toBe(false);
  });

  it("refuses unsupported names and files over 10 MB before reading", async () => {
    expect((await importError(readSpreadsheet("notes.txt", utf8("a")))).message).toBe(
      UNSUPPORTED_FORMAT_MESSAGE,
    );
    const big = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61);
    expect((await importError(readSpreadsheet("big.csv", big))).message).toBe(
      FILE_TOO_LARGE_MESSAGE,
    );
  });
});

describe("readSpreadsheet: Excel", () => {
  it("lists sheets, reads the first visible one by default and any one by name", async () => {
    const bytes = workbook(
      {
        Hidden: sheetOf([["secret"]]),
        Questions: sheetOf([["Question"], ["q1"]]),
        Other: sheetOf([["x"]]),
      },
      "xlsx",
      ["Hidden"],
    );
    const first = await readSpreadsheet("b.xlsx", bytes);
    expect(first.sheets).toEqual(["Hidden", "Questions", "Other"]);
    expect(first.sheet).toBe("Questions");
    expect(first.rows).toEqual([["Question"], ["q1"]]);
    expect((await readSpreadsheet("b.xlsx", bytes, { sheet: "Other" })).rows).toEqual([["x"]]);
    expect((await readSpreadsheet("b.xlsx", bytes, { sheet: "Hidden" })).rows).toEqual([
      ["secret"],
    ]);
    expect((await importError(readSpreadsheet("b.xlsx", bytes, { sheet: "Nope" }))).message).toBe(
      'The workbook has no sheet named "Nope".',
    );
  });

  it("writes General numbers as typed and formatted numbers as Excel shows them", async () => {
    const bytes = workbook({
      S: sheetOf([
        [1, 0.25, 123456789012, 0.1 + 0.2, -3.5],
        [
          { t: "n", v: 0.25, z: "0%" },
          { t: "n", v: 2, z: "0%" },
          { t: "n", v: 5, z: '"$"#,##0.00' },
          { t: "b", v: true },
          { t: "n", v: 1e-7 },
        ],
      ]),
    });
    const { rows } = await readSpreadsheet("n.xlsx", bytes);
    expect(rows).toEqual([
      ["1", "0.25", "123456789012", "0.3", "-3.5"],
      ["25%", "200%", "$5.00", "TRUE", "1e-7"],
    ]);
  });

  it("uses cached formula results and never the formula", async () => {
    const bytes = workbook({
      S: sheetOf([
        [
          { t: "n", v: 3, f: "1+2" },
          { t: "s", v: "ok", f: "A9" },
        ],
      ]),
    });
    expect((await readSpreadsheet("f.xlsx", bytes)).rows).toEqual([["3", "ok"]]);
  });

  it("keeps absent cells in their column and rows at their spreadsheet number", async () => {
    const ws = sheetOf([
      [null, null, null],
      [null, "Question", "1", "2", "Correct"],
      [null, "q", "a", null, "2"],
    ]);
    ws["!ref"] = "B2:E3"; // a range that does not start at A1
    const { rows } = await readSpreadsheet("s.xlsx", workbook({ S: ws }));
    expect(rows).toEqual([[], ["", "Question", "1", "2", "Correct"], ["", "q", "a", "", "2"]]);
  });

  it("ignores a declared range far larger than the data", async () => {
    const ws = sheetOf([["Question"], ["q"]]);
    ws["!ref"] = "A1:Z5000";
    const { rows } = await readSpreadsheet("r.xlsx", workbook({ S: ws }));
    expect(rows).toEqual([["Question"], ["q"]]);
  });

  it("reads legacy .xls (BIFF8) without the zip check", async () => {
    const bytes = workbook(
      {
        Old: sheetOf([
          ["Question", "A"],
          ["q", 1],
        ]),
      },
      "biff8",
    );
    expect(bytes[0]).toBe(0xd0);
    const result = await readSpreadsheet("old.xls", bytes);
    expect(result.sheets).toEqual(["Old"]);
    expect(result.rows).toEqual([
      ["Question", "A"],
      ["q", "1"],
    ]);
  });

  it("refuses files that are not workbooks, and damaged ones", async () => {
    expect((await importError(readSpreadsheet("t.xlsx", utf8("Question,A\nq,a")))).message).toBe(
      NOT_EXCEL_MESSAGE,
    );
    expect((await importError(readSpreadsheet("t.xls", utf8("<html><table>")))).message).toBe(
      NOT_EXCEL_MESSAGE,
    );
    const cfbGarbage = new Uint8Array(2048);
    cfbGarbage.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect((await importError(readSpreadsheet("bad.xls", cfbGarbage))).message).toBe(
      UNREADABLE_EXCEL_MESSAGE,
    );
    const good = workbook({ S: sheetOf([["a"]]) });
    await importError(readSpreadsheet("cut.xlsx", good.slice(0, Math.floor(good.length / 2))));
  });

  it("refuses more than 200 columns and more than 20,000 data rows", async () => {
    const wide = sheetOf([Array.from({ length: 201 }, (_, k) => `c${k}`)]);
    expect((await importError(readSpreadsheet("w.xlsx", workbook({ S: wide })))).message).toBe(
      "Row 1 has more than 200 columns. Remove the unused columns and try again.",
    );
    const rows = Array.from({ length: 20_002 }, (_, k) => [k === 0 ? "Question" : `q${k}`]);
    const tall = workbook({ S: XLSX.utils.aoa_to_sheet(rows) });
    expect((await importError(readSpreadsheet("t.xlsx", tall))).message).toBe(
      TOO_MANY_ROWS_MESSAGE,
    );
    const justRight = workbook({ S: XLSX.utils.aoa_to_sheet(rows.slice(0, 20_001)) });
    expect((await readSpreadsheet("t.xlsx", justRight)).rows).toHaveLength(20_001);
  }, 60_000);

  it("returns plain arrays of strings whatever the sheet and cell names", async () => {
    const bytes = workbook({
      Data: sheetOf([
        ["__proto__", "constructor"],
        ["prototype", "toString"],
      ]),
      constructor: sheetOf([["x"]]),
      ["__proto__"]: sheetOf([["y"]]),
    });
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const data = await readSpreadsheet("p.xlsx", bytes);
    const named = await readSpreadsheet("p.xlsx", bytes, { sheet: "constructor" });
    // SheetJS cannot keep a sheet named '__proto__' apart from the object it lives in.
    expect(
      (await importError(readSpreadsheet("p.xlsx", bytes, { sheet: "__proto__" }))).message,
    ).toBe('The sheet "__proto__" could not be read. Rename it and try again.');
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(data.sheets).toEqual(["Data", "constructor", "__proto__"]);
    expect(data.rows).toEqual([
      ["__proto__", "constructor"],
      ["prototype", "toString"],
    ]);
    expect(named.rows).toEqual([["x"]]);
    for (const row of [...data.rows, ...named.rows]) {
      expect(Object.getPrototypeOf(row)).toBe(Array.prototype);
      expect(Object.keys(row)).toEqual(row.map((_, k) => String(k)));
    }
  });
});
