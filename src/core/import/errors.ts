/**
 * Every failure the importer reports to a user is an ImportError: callers (web, server, CLI) show
 * `message` as is, and treat any other exception as a bug.
 */
export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportError";
  }
}

/** docs/product/validation.md and errors.md wording, verbatim. */
export const UNSUPPORTED_FORMAT_MESSAGE =
  "Unsupported file format. Please upload a CSV or Excel file.";
export const QUESTION_COLUMN_REQUIRED_MESSAGE = "Question column is required";
export const NO_VALID_QUESTIONS_MESSAGE =
  "No valid questions found. Please check your file format and import settings.";

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const FILE_TOO_LARGE_MESSAGE = "The file is larger than 10 MB.";

/** Data rows; one more row is allowed for the header. */
export const MAX_DATA_ROWS = 20_000;
export const MAX_COLUMNS = 200;
export const TOO_MANY_ROWS_MESSAGE =
  "The file has more than 20,000 rows. Split it into smaller files.";
export const NOT_CSV_TEXT_MESSAGE = "This file does not look like a CSV text file.";
