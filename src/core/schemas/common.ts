import { z } from "zod";
import { FIRST_ACCEPTED_YEAR, OPTION_LETTERS, PRITE_PARTS } from "../constants";

// Schemas here avoid z.preprocess: its input type is `unknown`, which would let tRPC and REST clients
// send anything without a type error. Accepted inputs are spelled out instead, then normalised.

/**
 * Form fields arrive as strings and JSON clients send numbers: accept both for whole numbers.
 * Blank strings and null become `blank` so optional fields can tell "left empty" from "invalid".
 */
export function wholeNumberInput(value: unknown, blank: null | undefined | number): unknown {
  if (value === null || value === undefined) return blank;
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (trimmed === "") return blank;
    return /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : value;
  }
  return value;
}

/**
 * A number field that also takes a numeric string; '' / null / absent become `blank` before `schema`
 * checks the value. `typeMessage` answers anything that is neither a number nor a string.
 */
export function numberish<S extends z.ZodType>(
  schema: S,
  blank: null | undefined | number,
  typeMessage: string,
) {
  return z
    .union([z.number(), z.string()], { error: typeMessage })
    .nullish()
    .transform((v) => wholeNumberInput(v, blank))
    .pipe(schema);
}

/** Optional free text: null and absent read as ''. */
export function optionalText(typeMessage: string) {
  return z
    .string({ error: typeMessage })
    .nullish()
    .transform((v) => v ?? "");
}

export const PART_MESSAGE = "Part must be 1 or 2";

/** PRITE part, stored as '1' | '2'; clients may send the number. */
export const ZPart = z
  .union([z.string(), z.number()], { error: PART_MESSAGE })
  .transform((v) => String(v).trim())
  .pipe(z.enum(PRITE_PARTS, { error: PART_MESSAGE }));
export type TPart = z.output<typeof ZPart>;

export const YEAR_MESSAGE = "Please enter a valid year";

/**
 * A four-digit year of 2000 or later. The upper bound depends on the clock, which schemas do not read:
 * the server adds `yearRangeError(year, now)` from constants.
 */
export const ZYear = numberish(
  z
    .number({ error: YEAR_MESSAGE })
    .int(YEAR_MESSAGE)
    .min(FIRST_ACCEPTED_YEAR, `Year must be ${FIRST_ACCEPTED_YEAR} or later`)
    .max(9999, YEAR_MESSAGE),
  undefined,
  YEAR_MESSAGE,
);

export const LETTER_MESSAGE = "Answer letters must be A to O";

/** One option letter; lower case is accepted because keyboards and spreadsheets produce it. */
export const ZOptionLetter = z
  .string({ error: LETTER_MESSAGE })
  .transform((v) => v.trim().toUpperCase())
  .pipe(z.enum(OPTION_LETTERS, { error: LETTER_MESSAGE }));

/** The message of the first issue: what a banner or a REST `{message}` shows. */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Invalid input";
}

/** Length limit with the house wording, e.g. 'Question text must be at most 10000 characters'. */
export function maxLengthMessage(label: string, max: number): string {
  return `${label} must be at most ${max} characters`;
}

/**
 * A stored id's form: PostgreSQL's uuid, any version or variant (z.uuid() would refuse some it
 * stores). Ids arrive in URLs and bodies; one of another form names no row, so callers answer it as a
 * missing one instead of sending it to the database, which would fail on the cast.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
