export { ANKI_EXPORT_MESSAGES } from "./messages";
export {
  ankiMediaName,
  ankiTag,
  BASIC_FIELDS,
  BASIC_NOTE_TYPE_NAME,
  DEFAULT_ANKI_DECK,
  fieldChecksum,
  MCQ_FIELDS,
  MCQ_NOTE_TYPE_NAME,
  noteGuid,
  stripHtmlKeepingMedia,
  textToFieldHtml,
  writeAnkiPackage,
  type AnkiExportItem,
  type AnkiExportMedia,
  type WriteAnkiOptions,
} from "./write";
