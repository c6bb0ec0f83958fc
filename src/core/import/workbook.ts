import type { CellObject, WorkBook, WorkSheet } from "xlsx";
import { parseCsv } from "./csv";
import {
  ImportError,
  MAX_COLUMNS,
  MAX_DATA_ROWS,
  NOT_CSV_TEXT_MESSAGE,
  TOO_MANY_ROWS_MESSAGE,
} from "./errors";
import { checkUpload, guardZip, isCfb, isZip } from "./zip-guard";

export { ImportError } from "./errors";

export interface Spreadsheet {
  /** Every sheet of a workbook, in file order; a CSV file is one sheet named after the file. */
  sheets: string[];
  /** The sheet `rows` came from. */
  sheet: string;
  /** Cells as text, right-trimmed; row 0 is the file's first row, column 0 its column A. */
  rows: string[][];
}

export const NOT_EXCEL_MESSAGE = "This file does not look like an Excel workbook.";
export const UNREADABLE_EXCEL_MESSAGE =
  "This Excel file could not be read. It may be damaged or protected by a password.";

/**
 * Reads an uploaded .csv, .xls or .xlsx into rows of text. Throws ImportError (and nothing else)
 * for anything a user could fix: wrong extension, too big, not really a spreadsheet, a zip bomb,
 * too many rows or columns, a sheet name that does not exist.
 */
export async function readSpreadsheet(
  fileName: string,
  bytes: Uint8Array,
  opts: { sheet?: string } = {},
): Promise<Spreadsheet> {
  const kind = checkUpload(fileName, bytes.byteLength);
  if (kind === "csv") {
    const name = baseName(fileName);
    return { sheets: [name], sheet: name, rows: readCsvBytes(bytes) };
  }
  return readWorkbook(bytes, opts.sheet);
}

/** CSV bytes → rows. Exposed for callers that already hold the bytes of a known CSV. */
export function readCsvBytes(bytes: Uint8Array): string[][] {
  if (looksBinary(bytes)) throw new ImportError(NOT_CSV_TEXT_MESSAGE);
  const rows = parseCsv(decodeText(bytes));
  return rows.map((row) => row.map((cell) => cell.trimEnd()));
}

/**
 * Text files are mostly printable; spreadsheets, zips, images and databases are full of NUL and
 * other control bytes. UTF-16 text (which has NULs) is recognised by its byte order mark.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  if (hasUtf16Bom(bytes)) return false;
  const headLength = Math.min(bytes.length, 8192);
  let control = 0;
  for (let k = 0; k < bytes.length; k++) {
    const b = bytes[k] ?? 0;
    if (b === 0 && k < headLength) return true;
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12) control++;
  }
  return control > bytes.length / 100;
}

function hasUtf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/**
 * UTF-8 first (with or without BOM); files that are not valid UTF-8 are almost always Excel's
 * "CSV" export in the Windows ANSI code page, so those are read as windows-1252 rather than shown
 * with replacement characters.
 */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

// 0x80-0x9F of windows-1252 (0 = unassigned, kept as the C1 control). Decoded by hand because
// Node's TextDecoder treats the label as Latin-1 and would turn ’ into U+0092.
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152,
  0, 0x017d, 0, 0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161,
  0x203a, 0x0153, 0, 0x017e, 0x0178,
];

function decodeWindows1252(bytes: Uint8Array): string {
  let out = "";
  const CHUNK = 8192;
  for (let at = 0; at < bytes.length; at += CHUNK) {
    const codes: number[] = [];
    const end = Math.min(bytes.length, at + CHUNK);
    for (let k = at; k < end; k++) {
      const b = bytes[k] ?? 0;
      codes.push(b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80] || b : b);
    }
    out += String.fromCharCode(...codes);
  }
  return out;
}

async function readWorkbook(bytes: Uint8Array, wanted: string | undefined): Promise<Spreadsheet> {
  if (isZip(bytes)) await guardZip(bytes);
  // Legacy .xls (and password-protected .xlsx) is a Compound File: nothing in it is compressed,
  // so there is no bomb to defuse. Anything else (HTML or XML renamed .xls) is refused rather
  // than handed to SheetJS's less travelled text parsers.
  else if (!isCfb(bytes)) throw new ImportError(NOT_EXCEL_MESSAGE);

  // Loaded on demand so the browser downloads SheetJS only when a workbook is opened.
  const XLSX = await import("xlsx");
  let workbook: WorkBook;
  try {
    workbook = XLSX.read(bytes, {
      type: "array",
      dense: true,
      cellFormula: false, // cached values only: nothing from the file is evaluated
      cellHTML: false,
      cellStyles: false,
      cellText: true,
      cellNF: true, // the number format tells a percentage from a plain number
      cellDates: false,
      sheetStubs: false,
      bookVBA: false,
      bookFiles: false,
      bookDeps: false,
      // Rows past the limit are not even parsed: one extra row is enough to know to refuse.
      sheetRows: MAX_DATA_ROWS + 2,
    });
  } catch {
    throw new ImportError(UNREADABLE_EXCEL_MESSAGE);
  }

  const names = Array.isArray(workbook.SheetNames) ? workbook.SheetNames.map(String) : [];
  if (names.length === 0) throw new ImportError(UNREADABLE_EXCEL_MESSAGE);
  let sheet: string;
  if (wanted !== undefined && wanted !== "") {
    if (!names.includes(wanted)) {
      throw new ImportError(`The workbook has no sheet named "${wanted}".`);
    }
    sheet = wanted;
  } else {
    const meta = workbook.Workbook?.Sheets ?? [];
    sheet = names.find((_, k) => !meta[k]?.Hidden) ?? (names[0] as string);
  }

  // A sheet named like an Object.prototype member ('__proto__') is not stored as a sheet of its
  // own by SheetJS; refuse it instead of reading whatever the lookup would find.
  if (!Object.prototype.hasOwnProperty.call(workbook.Sheets, sheet)) {
    throw new ImportError(`The sheet "${sheet}" could not be read. Rename it and try again.`);
  }
  const ws = workbook.Sheets[sheet];
  let rows: string[][];
  try {
    rows = ws ? sheetRows(XLSX.utils, ws) : [];
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(UNREADABLE_EXCEL_MESSAGE);
  }
  return { sheets: names, sheet, rows };
}

type SheetUtils = Awaited<typeof import("xlsx")>["utils"];

function sheetRows(utils: SheetUtils, ws: WorkSheet): string[][] {
  const data = ws["!data"];
  let lastRow = -1;
  let lastCol = -1;
  const visit = (cell: CellObject | undefined, r: number, c: number): void => {
    if (!cell || typeof cell !== "object") return;
    normaliseNumberText(cell);
    if (cellText(cell).trim() === "") return;
    if (c >= MAX_COLUMNS) {
      throw new ImportError(
        `Row ${r + 1} has more than ${MAX_COLUMNS} columns. Remove the unused columns and try again.`,
      );
    }
    if (r > MAX_DATA_ROWS) throw new ImportError(TOO_MANY_ROWS_MESSAGE);
    if (r > lastRow) lastRow = r;
    if (c > lastCol) lastCol = c;
  };
  if (Array.isArray(data)) {
    for (let r = 0; r < data.length; r++) {
      const row = data[r];
      if (!Array.isArray(row)) continue;
      for (let c = 0; c < row.length; c++) visit(row[c], r, c);
    }
  } else {
    // Sparse worksheets (not produced with dense: true, kept for safety) key cells by address.
    for (const key of Object.keys(ws)) {
      if (key.startsWith("!")) continue;
      const at = utils.decode_cell(key);
      visit(ws[key] as CellObject, at.r, at.c);
    }
  }
  if (lastRow < 0) return [];

  // The declared range is often far larger than the data (formatted blank rows: A1:O987 for ten
  // questions) and may start after A1; reading A1 to the last non-empty cell keeps row and column
  // numbers equal to the spreadsheet's and empty cells in their columns.
  ws["!ref"] = utils.encode_range({ s: { r: 0, c: 0 }, e: { r: lastRow, c: lastCol } });
  const raw: unknown = utils.sheet_to_json(ws, {
    header: 1,
    blankrows: true,
    defval: "",
    raw: false,
  });
  const rows: string[][] = [];
  const width = lastCol + 1;
  for (let r = 0; r <= lastRow; r++) {
    const source = Array.isArray(raw) ? (raw[r] as unknown) : undefined;
    const out: string[] = [];
    for (let c = 0; c < width; c++) {
      const value = Array.isArray(source) ? (source[c] as unknown) : undefined;
      out.push(textOf(value).trimEnd());
    }
    while (out.length > 0 && out[out.length - 1] === "") out.pop();
    rows.push(out);
  }
  return rows;
}

function cellText(cell: CellObject): string {
  if (typeof cell.w === "string") return cell.w;
  return textOf(cell.v);
}

function textOf(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString();
  return "";
}

/**
 * Excel's General format shows at most 11 characters (123456789012 becomes 1.23457E+11); a
 * question bank wants the number as typed, so General numbers are rewritten as the shortest
 * decimal of their value (1.0 → '1', 0.25 → '0.25', 0.1+0.2 → '0.3'). Formatted numbers keep the
 * text Excel shows (25%, $5.00, dates): that is what the author sees and means.
 */
function normaliseNumberText(cell: CellObject): void {
  if (cell.t !== "n" || typeof cell.v !== "number" || !Number.isFinite(cell.v)) return;
  const format = cell.z;
  if (format === undefined || format === "General" || format === 0) {
    cell.w = String(Number(cell.v.toPrecision(15)));
  }
}

function baseName(fileName: string): string {
  const slash = Math.max(fileName.lastIndexOf("/"), fileName.lastIndexOf("\\"));
  const name = fileName.slice(slash + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}
