export * from "./types";
export * from "./errors";
export { parseCsv, detectDelimiter, type CsvDelimiter, type CsvOptions } from "./csv";
export {
  checkUpload,
  guardZip,
  inspectZip,
  isCfb,
  isZip,
  ZIP_LIMITS,
  ZIP_MESSAGES,
  type SpreadsheetKind,
  type ZipEntry,
} from "./zip-guard";
export {
  decodeText,
  looksBinary,
  NOT_EXCEL_MESSAGE,
  readCsvBytes,
  readSpreadsheet,
  UNREADABLE_EXCEL_MESSAGE,
  type Spreadsheet,
} from "./workbook";
export {
  columnLabels,
  defaultImportSettings,
  detectColumns,
  detectHeaderRow,
  parseRows,
  previewRows,
  QA_NO_OPTIONS_REASON,
  suggestImportSettings,
  type ColumnDetection,
  type DetectOptions,
  type RowsPreview,
} from "./parse-rows";
export { firstAnswerLetter, readAnswerCell, type AnswerReading } from "./answer-cell";
