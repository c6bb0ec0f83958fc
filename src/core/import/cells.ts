/** Reading a spreadsheet's cells: what column detection and row parsing both stand on. */
import { dropNul } from "../text";
import type { ImportSettings, Letter } from "./types";

export type Row = readonly unknown[];
export type Rows = readonly Row[];

export const OPTION_KEYS = {
  A: "optionAColumn",
  B: "optionBColumn",
  C: "optionCColumn",
  D: "optionDColumn",
  E: "optionEColumn",
} as const satisfies Record<Letter, keyof ImportSettings>;

export function cellText(row: Row | undefined, column: number | null | undefined): string {
  if (!row || column === null || column === undefined) return "";
  if (!Number.isInteger(column) || column < 0 || column >= row.length) return "";
  const value = row[column];
  // A file's NUL characters are dropped: PostgreSQL cannot store them (issue 24).
  if (typeof value === "string") return dropNul(value).trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

export function nonEmptyCells(row: Row | undefined): string[] {
  const out: string[] = [];
  if (!row) return out;
  for (let c = 0; c < row.length; c++) {
    const text = cellText(row, c);
    if (text !== "") out.push(text);
  }
  return out;
}

export function isBlankRow(row: Row | undefined): boolean {
  if (!row) return true;
  for (let c = 0; c < row.length; c++) if (cellText(row, c) !== "") return false;
  return true;
}

/** 'Done', 'END', '---': one token alone on a row marks the end of the data, not a question. */
export function isSingleWord(text: string): boolean {
  return text !== "" && !/\s/.test(text);
}
