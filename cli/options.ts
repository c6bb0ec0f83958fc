import { acceptedYearRange, yearRangeError } from "../src/core/constants";
import { CliError } from "./output";

/** A usage error: exit code 2, found before any file is read or database opened. */
export const usage = (message: string) => new CliError(message, 2);

/**
 * A `--year` flag: the years the server accepts (2000 to next year, `yearRangeError`), refused as a
 * usage error before anything is opened rather than by the server after the work was done.
 */
export function parseYear(value: string, now = new Date()): number {
  const year = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  const problem = yearRangeError(year, now);
  if (problem) {
    const { min, max } = acceptedYearRange(now);
    throw usage(`--year must be a year from ${min} to ${max}`);
  }
  return year;
}

export function parsePart(value: string | undefined): "1" | "2" {
  if (value !== "1" && value !== "2") throw usage("--part must be 1 or 2");
  return value;
}

/** A count flag such as `--users`: a whole number from 0 to `max`. */
export function parseCount(flag: string, value: string, max: number): number {
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw usage(`--${flag} must be a whole number from 0 to ${max}`);
  return n;
}
