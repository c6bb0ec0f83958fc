export { parseQuestionsText, type PasteContext } from "./questions-text";
export { parseQuestionsJson } from "./questions-json";
export {
  applyAnswerKey,
  parseAnswerKey,
  type AnswerKeyResult,
  type AnswerKeySection,
  type AnswerMap,
} from "./answer-key";
