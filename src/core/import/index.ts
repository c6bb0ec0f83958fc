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
export * from "./detect-columns";
export { parseRows, QA_NO_OPTIONS_REASON } from "./parse-rows";
export { firstAnswerLetter, readAnswerCell, type AnswerReading } from "./answer-cell";
