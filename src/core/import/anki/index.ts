export {
  readAnkiPackage,
  sqlJsLoader,
  type AnkiCard,
  type AnkiCollectionFormat,
  type AnkiNote,
  type AnkiNoteType,
  type AnkiPackage,
  type AnkiTemplate,
  type LoadSqlite,
  type ReadAnkiOptions,
} from "./read";
export {
  convertAnkiPackage,
  type AnkiConversion,
  type AnkiConvertOptions,
  type AnkiFlashcardDraft,
  type AnkiOrigin,
  type AnkiProgress,
  type AnkiQuestionDraft,
  type NoteIssue,
} from "./convert";
export { decodeEntities, htmlToText, imageNames, sanitizeHtml, stripSounds } from "./html";
export {
  ANKI_MESSAGES,
  ANKI_WARNING_KINDS,
  ANKI_ZIP_LIMITS,
  ANKI_ZIP_MESSAGES,
  checkAnkiUpload,
  MAX_ANKI_FILE_BYTES,
  type AnkiFileKind,
  type AnkiWarningKind,
} from "./messages";
export {
  chosenCategory,
  parseTagMap,
  tagCategories,
  type TagCategory,
  type TagCategoryChoices,
  type TagRule,
} from "./tags";
