/**
 * What a merge of an imported item into a stored question writes (docs/product/states.md merge outcomes, decision 240
 * for flashcards): pure, applied in memory by the commit before anything is written.
 */
import {
  QUESTION_MESSAGES,
  answerWithoutTextMessage,
  type TBulkQuestionItem,
} from "../../../core/schemas";
import {
  mergeQuestion,
  type DuplicateQuestion,
  type ManualMergeField,
} from "../../../core/similarity";
import type { QuestionRow } from "../../db/schema";
import type { TFlashcardItem, TMergeAction } from "./imports.types";

/** The content of a stored question that a merge may change. */
export interface Content {
  text: string;
  options: Record<string, string>;
  correctAnswer: string;
  correctAnswers: string[];
  numCorrectAnswers: number;
  questionType: string;
  category: string;
  part: string;
  year: number;
  number: number | null;
  explanation: string;
}

export type Target = Omit<QuestionRow, "searchText">;

export function contentOf(row: Target): Content {
  return {
    text: row.text,
    options: row.options,
    correctAnswer: row.correctAnswer,
    correctAnswers: row.correctAnswers,
    numCorrectAnswers: row.numCorrectAnswers,
    questionType: row.questionType,
    category: row.category,
    part: row.part,
    year: row.year,
    number: row.number,
    explanation: row.explanation,
  };
}

/** What an incoming question carries: blanks are "not given", so a merge never erases with them. */
function carried(item: TBulkQuestionItem): Partial<TBulkQuestionItem> {
  const out: Partial<TBulkQuestionItem> = { text: item.text, options: item.options };
  if (item.correctAnswer !== "") out.correctAnswer = item.correctAnswer;
  if (item.category !== "") out.category = item.category;
  if (item.explanation !== "") out.explanation = item.explanation;
  if (item.number !== null) out.number = item.number;
  out.part = item.part;
  out.year = item.year;
  return out;
}

/**
 * docs/product/states.md merge outcomes through the core `mergeQuestion`, then the answer fields brought in step with
 * the question type: a 'newer' merge takes the incoming content, which is a single-answer question
 * with options A-E.
 */
export function mergeContent(
  current: Content,
  item: TBulkQuestionItem,
  action: TMergeAction,
): Content {
  const existing = current as unknown as DuplicateQuestion;
  if (action.merge === "newer") {
    const merged = mergeQuestion(
      existing,
      carried(item) as DuplicateQuestion,
      "newer",
    ) as unknown as Content;
    const letter = merged.options[merged.correctAnswer] !== undefined ? merged.correctAnswer : "";
    return {
      ...merged,
      questionType:
        current.questionType === "fourOptions" && merged.options.E === undefined
          ? "fourOptions"
          : "standard",
      correctAnswer: letter,
      correctAnswers: letter === "" ? [] : [letter],
      numCorrectAnswers: 1,
    };
  }
  if (action.merge === "metadata") {
    return mergeQuestion(
      existing,
      item as unknown as DuplicateQuestion,
      "metadata",
    ) as unknown as Content;
  }
  const fields = (action.fields ?? []) as ManualMergeField[];
  const merged = mergeQuestion(
    existing,
    item as unknown as DuplicateQuestion,
    "manual",
    fields,
  ) as unknown as Content;
  if (current.questionType === "multipleCorrect") {
    return { ...merged, correctAnswer: "" };
  }
  const letter = merged.correctAnswer;
  return {
    ...merged,
    questionType:
      current.questionType === "fourOptions" && merged.options.E !== undefined
        ? "standard"
        : current.questionType,
    correctAnswers: letter === "" ? [] : [letter],
    numCorrectAnswers: 1,
  };
}

/** What a merge may break: the manual choice of fields can drop an option an answer points at. */
export function contentProblem(c: Content): string | null {
  if (c.text.trim() === "") return QUESTION_MESSAGES.TEXT_REQUIRED;
  if (c.options.A === undefined || c.options.B === undefined) {
    return QUESTION_MESSAGES.OPTIONS_REQUIRED;
  }
  for (const letter of c.correctAnswers) {
    if (c.options[letter] === undefined) return answerWithoutTextMessage(letter);
  }
  return null;
}

/** What a flashcard merge changes: its front, back and metadata (decision 240). */
export function mergeFlashcard(
  current: Content & Extra,
  item: TFlashcardItem,
  source: string,
  action: TMergeAction,
): Content & Extra {
  const meta = {
    category: item.category !== "" ? item.category : current.category,
    part: item.part,
    year: item.year,
  };
  const content = { text: item.text, back: item.back };
  if (action.merge === "newer") {
    return { ...current, ...meta, ...content, source: source || current.source };
  }
  if (action.merge === "metadata") {
    return {
      ...current,
      category: current.category || item.category,
      part: item.part,
      year: item.year,
      source: current.source || source,
    };
  }
  const fields = new Set(action.fields ?? []);
  return {
    ...current,
    ...(fields.has("text") ? content : {}),
    ...(fields.has("category") ? { category: item.category } : {}),
    ...(fields.has("part") ? { part: item.part } : {}),
    ...(fields.has("year") ? { year: item.year } : {}),
  };
}

/** Whether a merge takes the incoming question's content (so its images too). */
export function takesContent(action: TMergeAction): boolean {
  return (
    action.merge === "newer" ||
    (action.merge === "manual" && (action.fields ?? []).includes("text"))
  );
}

export interface Extra {
  back: string;
  source: string;
}
