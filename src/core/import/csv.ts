import { ImportError, MAX_COLUMNS, MAX_DATA_ROWS, TOO_MANY_ROWS_MESSAGE } from "./errors";

export type CsvDelimiter = "," | ";" | "\t";

export interface CsvOptions {
  /** Field separator; guessed from the first line when absent (',' unless ';' or tab dominate). */
  delimiter?: CsvDelimiter;
  /** Most rows accepted, header included; more → ImportError. Default 20,000 data rows + 1 header. */
  maxRows?: number;
  /** Most non-empty columns in a row; more → ImportError. Default 200. */
  maxColumns?: number;
}

const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * RFC 4180 CSV → rows of fields, leniently: CRLF, LF or a lone CR end a row; rows may have any
 * number of fields; a quote in the middle of an unquoted field is literal, and text after a
 * closing quote is kept. A leading UTF-8 BOM is dropped. Blank rows at the end are dropped (they
 * would otherwise count towards the row limit). Fields are returned exactly as written.
 *
 * Single pass, no regular expressions, no backtracking: limits are checked while scanning, so an
 * oversized file is refused after reading just past the limit instead of being parsed in full.
 */
export function parseCsv(text: string, options: CsvOptions = {}): string[][] {
  const maxRows = options.maxRows ?? MAX_DATA_ROWS + 1;
  const maxColumns = options.maxColumns ?? MAX_COLUMNS;
  const delimiter = (options.delimiter ?? detectDelimiter(text)).charCodeAt(0);
  const n = text.length;
  const rows: string[][] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (i >= n) return rows;

  let row: string[] = [];
  let columns = 0;
  // Blank rows are only materialised once a non-blank row follows, so a file of a million empty
  // lines costs a counter, not a million arrays.
  let pendingBlank = 0;

  const endRow = (): void => {
    if (!row.some((field) => hasText(field))) {
      pendingBlank++;
    } else {
      if (rows.length + pendingBlank + 1 > maxRows) throw new ImportError(tooManyRows(maxRows));
      for (; pendingBlank > 0; pendingBlank--) rows.push([]);
      rows.push(row);
    }
    row = [];
    columns = 0;
  };

  for (;;) {
    let field: string;
    if (i < n && text.charCodeAt(i) === QUOTE) {
      let start = i + 1;
      field = "";
      for (;;) {
        const close = text.indexOf('"', start);
        if (close === -1) {
          throw new ImportError(
            `Row ${rows.length + pendingBlank + 1} has a quoted field that is never closed.`,
          );
        }
        if (text.charCodeAt(close + 1) === QUOTE) {
          field += text.slice(start, close + 1);
          start = close + 2;
          continue;
        }
        field += text.slice(start, close);
        i = close + 1;
        break;
      }
      const after = scanUnquoted(text, i, delimiter);
      if (after > i) field += text.slice(i, after);
      i = after;
    } else {
      const end = scanUnquoted(text, i, delimiter);
      // Past the column limit only emptiness matters: no substring is made for padding.
      field = columns < maxColumns || hasText(text, i, end) ? text.slice(i, end) : "";
      i = end;
    }

    columns++;
    if (columns > maxColumns) {
      // Trailing empty fields (spreadsheet padding) are harmless; real data past the limit is not.
      if (hasText(field)) {
        throw new ImportError(
          `Row ${rows.length + pendingBlank + 1} has more than ${maxColumns.toLocaleString("en-US")} columns. Remove the unused columns and try again.`,
        );
      }
    } else {
      row.push(field);
    }

    if (i >= n) {
      endRow();
      break;
    }
    const c = text.charCodeAt(i);
    if (c === delimiter) {
      i++;
      continue;
    }
    i++;
    if (c === CR && text.charCodeAt(i) === LF) i++;
    endRow();
    if (i >= n) break;
  }
  return rows;
}

/** Any character other than whitespace; stops at the first, so it is cheap for real data. */
function hasText(field: string, from = 0, to = field.length): boolean {
  for (let k = from; k < to; k++) {
    const c = field.charCodeAt(k);
    if (c > 32 && c !== 0xa0 && c !== 0xfeff && c !== 0x3000 && !(c >= 0x2000 && c <= 0x200b)) {
      return true;
    }
  }
  return false;
}

function scanUnquoted(text: string, from: number, delimiter: number): number {
  const n = text.length;
  let k = from;
  while (k < n) {
    const c = text.charCodeAt(k);
    if (c === delimiter || c === LF || c === CR) break;
    k++;
  }
  return k;
}

function tooManyRows(maxRows: number): string {
  if (maxRows === MAX_DATA_ROWS + 1) return TOO_MANY_ROWS_MESSAGE;
  return `The file has more than ${(maxRows - 1).toLocaleString("en-US")} rows. Split it into smaller files.`;
}

/**
 * Guesses the separator from the first non-empty line, outside quotes: the most frequent of ',',
 * ';' and tab, with ',' winning ties. Excel writes ';' in locales with a decimal comma, and
 * "Unicode text" exports use tabs; both are saved as .csv by users often enough to matter.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  let commas = 0;
  let semicolons = 0;
  let tabs = 0;
  let inQuotes = false;
  let seenText = false;
  const limit = Math.min(text.length, 64 * 1024);
  for (let k = 0; k < limit; k++) {
    const c = text.charCodeAt(k);
    if (c === QUOTE) {
      inQuotes = !inQuotes;
      seenText = true;
    } else if (inQuotes) {
      continue;
    } else if (c === LF || c === CR) {
      if (seenText) break;
    } else if (c === 44) commas++;
    else if (c === 59) semicolons++;
    else if (c === 9) tabs++;
    else if (c > 32) seenText = true;
  }
  if (tabs > commas && tabs >= semicolons) return "\t";
  if (semicolons > commas) return ";";
  return ",";
}
