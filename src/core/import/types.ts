/**
 * Shapes shared by the spreadsheet importer (src/core/import) and the pasted-text parsers
 * (src/core/parsing). Defined here rather than in src/core/schemas so both parsers stay free of zod
 * and can run in the browser without pulling in validation code.
 */

export const LETTERS = ["A", "B", "C", "D", "E"] as const;
export type Letter = (typeof LETTERS)[number];

export type Part = "1" | "2";

/** Answer options A-E; always all five keys, '' where the source had no option. */
export type Options = Record<Letter, string>;

/** docs/product/data.md 'Parsed question': a draft produced by an import or a paste, before it is saved. */
export interface ParsedQuestion {
  number: number | null;
  part: Part;
  year: number;
  text: string;
  options: Options;
  correctAnswer: "" | Letter;
  explanation: string;
  category: string;
  /** 1-based row in the file (as a spreadsheet program numbers it), for error reports. */
  sourceRow?: number;
}

export type ImportFormat = "standard" | "questionPerRow" | "qa";

/** docs/product/data.md 'Import settings'. Column indexes are 0-based; null means "no such column". */
export interface ImportSettings {
  part: Part;
  year: number;
  format: ImportFormat;
  /** 0-based index of the row holding the column labels; -1 when the file has none. */
  headerRow: number;
  questionColumn: number | null;
  optionAColumn: number | null;
  optionBColumn: number | null;
  optionCColumn: number | null;
  optionDColumn: number | null;
  optionEColumn: number | null;
  answerColumn: number | null;
  categoryColumn: number | null;
  explanationColumn: number | null;
  hasOptions: boolean;
  hasCategory: boolean;
  /** Worksheet to read; the first visible sheet when absent. */
  sheet?: string;
  /**
   * Not in the spec: a column holding the question number ('Question N°', 'No.'). Without it,
   * question-per-row numbers come from a '12. ' prefix on the question text, or stay null.
   */
  numberColumn?: number | null;
  /**
   * Not in the spec: per-option score columns ('Points A'..) used by quiz tools instead of an
   * answer letter; the option with the highest positive score is the correct one.
   */
  pointsColumns?: Partial<Record<Letter, number | null>>;
}

/** A problem with one row of the file. */
export interface RowError {
  /** 1-based, as a spreadsheet program numbers rows. */
  row: number;
  message: string;
}

export interface ParseRowsResult {
  questions: ParsedQuestion[];
  /** Rows that could not become questions, with the reason: the import screen's 'Errors'. */
  errors: RowError[];
  /**
   * Rows that did become questions but with a note (e.g. an answer the parser could not read, so
   * the question comes in without one). Shown to the user, not counted as errors.
   */
  warnings: RowError[];
  /** Non-blank rows that were not questions (sentinels like 'Done', rows without question text). */
  skipped: number;
}

export function emptyOptions(): Options {
  return { A: "", B: "", C: "", D: "", E: "" };
}

export function isLetter(value: string): value is Letter {
  return value === "A" || value === "B" || value === "C" || value === "D" || value === "E";
}

/** 1 → 'A' … 5 → 'E'; anything else → ''. */
export function letterFromIndex(oneBased: number): "" | Letter {
  return LETTERS[oneBased - 1] ?? "";
}
