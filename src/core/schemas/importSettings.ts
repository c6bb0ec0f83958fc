import { z } from "zod";
import { BULK_IMPORT } from "../constants";
import { ZPart, ZYear, numberish } from "./common";

export const IMPORT_FORMATS = ["standard", "questionPerRow", "qa"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const IMPORT_SETTINGS_MESSAGES = {
  QUESTION_COLUMN: "Question column is required",
  COLUMN: "Columns must be whole numbers from 0",
  HEADER_ROW: "Header row must be -1 (no header) or a row number from 0",
  FORMAT: "Format must be standard, questionPerRow or qa",
} as const;

/** A zero-based column index; a select's '' (nothing chosen) and null mean "no column". */
const ZColumn = numberish(
  z
    .number({ error: IMPORT_SETTINGS_MESSAGES.COLUMN })
    .int(IMPORT_SETTINGS_MESSAGES.COLUMN)
    .min(0, IMPORT_SETTINGS_MESSAGES.COLUMN)
    .max(16_383, IMPORT_SETTINGS_MESSAGES.COLUMN) // Excel's last column (XFD)
    .nullable(),
  null,
  IMPORT_SETTINGS_MESSAGES.COLUMN,
);

const flag = (name: string) =>
  z
    .boolean({ error: `${name} must be true or false` })
    .nullish()
    .transform((v) => v ?? false);

/**
 * The shape of the wizard's settings (docs/product/data.md 'Import settings') with defaults filled in, before the
 * question column has been chosen: what the configure step edits.
 */
export const ZImportSettingsDraft = z.object({
  part: ZPart,
  year: ZYear,
  format: z
    .union([z.enum(IMPORT_FORMATS), z.literal("")], { error: IMPORT_SETTINGS_MESSAGES.FORMAT })
    .nullish()
    .transform((v): ImportFormat => v || BULK_IMPORT.DEFAULT_FORMAT),
  /** Zero-based row holding the column labels; -1 when the file has none. */
  headerRow: numberish(
    z
      .number({ error: IMPORT_SETTINGS_MESSAGES.HEADER_ROW })
      .int(IMPORT_SETTINGS_MESSAGES.HEADER_ROW)
      .min(-1, IMPORT_SETTINGS_MESSAGES.HEADER_ROW),
    BULK_IMPORT.DEFAULT_HEADER_ROW,
    IMPORT_SETTINGS_MESSAGES.HEADER_ROW,
  ),
  questionColumn: ZColumn,
  optionAColumn: ZColumn,
  optionBColumn: ZColumn,
  optionCColumn: ZColumn,
  optionDColumn: ZColumn,
  optionEColumn: ZColumn,
  answerColumn: ZColumn,
  categoryColumn: ZColumn,
  hasOptions: flag("hasOptions"),
  hasCategory: flag("hasCategory"),
  /** Excel sheet to read; the first sheet when absent. */
  sheetName: z
    .string({ error: "Sheet name must be text" })
    .max(100, "Sheet name must be at most 100 characters")
    .nullish()
    .transform((v) => v || undefined),
  isPublic: z.boolean({ error: "isPublic must be true or false" }).optional(),
});
export type TImportSettingsDraft = z.output<typeof ZImportSettingsDraft>;

/** Settings ready to run an import: every format reads the question column (docs/product/validation.md). */
export const ZImportSettings = ZImportSettingsDraft.superRefine((s, ctx) => {
  if (s.questionColumn === null) {
    ctx.addIssue({
      code: "custom",
      message: IMPORT_SETTINGS_MESSAGES.QUESTION_COLUMN,
      path: ["questionColumn"],
    });
  }
});
export type TImportSettings = z.output<typeof ZImportSettings>;
