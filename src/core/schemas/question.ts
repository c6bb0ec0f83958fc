import { z } from "zod";
import {
  IMPORT_LETTERS,
  LIMITS,
  MULTIPLE_CORRECT_DEFAULT_COUNT,
  NUM_CORRECT_ANSWERS_MAX,
  NUM_CORRECT_ANSWERS_MIN,
  OPTION_LETTERS,
  QUESTION_TYPES,
  optionLettersFor,
  type OptionLetter,
  type QuestionType,
} from "../constants";
import { ZQuestionVisibility, ZShareStatement, type QuestionVisibility } from "../visibility";
import {
  LETTER_MESSAGE,
  ZPart,
  ZYear,
  maxLengthMessage,
  numberish,
  optionalText,
  type TPart,
} from "./common";

export const QUESTION_MESSAGES = {
  TEXT_REQUIRED: "Question text is required",
  OPTIONS_REQUIRED: "At least options A and B are required",
  ANSWER_REQUIRED: "Please select a correct answer",
  ANSWERS_REQUIRED: "Please select at least one correct answer",
  NUM_CORRECT: `The number of correct answers must be between ${NUM_CORRECT_ANSWERS_MIN} and ${NUM_CORRECT_ANSWERS_MAX}`,
  OPTION_LETTERS: "Option letters must be A to O",
  IMPORT_OPTION_LETTERS: "Imported options must be A to E",
  IMPORT_ANSWER_LETTER: "The correct answer must be a letter from A to E",
  OPTION_TEXT: "Options must be text",
  NUMBER: "Question number must be a positive whole number",
} as const;

export function answerWithoutTextMessage(letter: string): string {
  return `Option ${letter} has no text, so it cannot be the correct answer`;
}

const ZRawOptions = z
  .record(z.string(), z.string({ error: QUESTION_MESSAGES.OPTION_TEXT }).nullish(), {
    error: QUESTION_MESSAGES.OPTION_TEXT,
  })
  .nullish()
  .transform((v) => v ?? {});

const ZRawLetter = z
  .string({ error: LETTER_MESSAGE })
  .nullish()
  .transform((v) => (v ?? "").trim().toUpperCase());

const ZRawLetters = z
  .array(ZRawLetter, { error: LETTER_MESSAGE })
  .nullish()
  .transform((v) => v ?? []);

const ZQuestionNumber = numberish(
  z
    .number({ error: QUESTION_MESSAGES.NUMBER })
    .int(QUESTION_MESSAGES.NUMBER)
    .positive(QUESTION_MESSAGES.NUMBER)
    .nullable(),
  null,
  QUESTION_MESSAGES.NUMBER,
);

const ZQuestionText = z
  .string({ error: QUESTION_MESSAGES.TEXT_REQUIRED })
  .nullish()
  .transform((v) => v ?? "");

type Issue = { message: string; path: (string | number)[] };

/**
 * Trims option texts, upper-cases their letters and drops empty ones (docs/product/data.md: empty options are not
 * shown, so they are not stored either). Letters outside `allowed` are reported, not dropped.
 */
function cleanOptions(
  raw: Record<string, string | null | undefined>,
  allowed: readonly string[],
  letterMessage: string,
  issues: Issue[],
): Record<string, string> {
  const options: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    const letter = key.trim().toUpperCase();
    const text = (value ?? "").trim();
    if (!allowed.includes(letter)) {
      if (text !== "") issues.push({ message: letterMessage, path: ["options", key] });
      continue;
    }
    if (text.length > LIMITS.OPTION) {
      issues.push({
        message: maxLengthMessage(`Option ${letter}`, LIMITS.OPTION),
        path: ["options", letter],
      });
    }
    if (text !== "") options[letter] = text;
  }
  // Key order follows the letters so stored JSON and exports read A, B, C…
  const ordered: Record<string, string> = {};
  for (const letter of allowed) {
    const text = options[letter];
    if (text !== undefined) ordered[letter] = text;
  }
  return ordered;
}

function checkLength(value: string, max: number, label: string, path: string, issues: Issue[]) {
  if (value.length > max) issues.push({ message: maxLengthMessage(label, max), path: [path] });
}

function report(ctx: z.RefinementCtx, issues: Issue[]): void {
  for (const issue of issues) ctx.addIssue({ code: "custom", ...issue });
}

const ZQuestionInputFields = z.object({
  text: ZQuestionText,
  options: ZRawOptions,
  correctAnswer: ZRawLetter,
  correctAnswers: ZRawLetters,
  numCorrectAnswers: numberish(
    z
      .number({ error: QUESTION_MESSAGES.NUM_CORRECT })
      .int(QUESTION_MESSAGES.NUM_CORRECT)
      .min(NUM_CORRECT_ANSWERS_MIN, QUESTION_MESSAGES.NUM_CORRECT)
      .max(NUM_CORRECT_ANSWERS_MAX, QUESTION_MESSAGES.NUM_CORRECT)
      .optional(),
    undefined,
    QUESTION_MESSAGES.NUM_CORRECT,
  ),
  questionType: z
    .union([z.enum(QUESTION_TYPES), z.literal("")], {
      error: "Question type must be standard, fourOptions or multipleCorrect",
    })
    .nullish()
    .transform((v): QuestionType => v || "standard"),
  instructions: optionalText("Instructions must be text"),
  explanation: optionalText("Explanation must be text"),
  category: optionalText("Category must be text"),
  part: ZPart,
  year: ZYear,
  number: ZQuestionNumber,
  isPublic: z.boolean({ error: "isPublic must be true or false" }).optional(),
  /** private, program or public (docs/product/visibility.md); `isPublic` still works without it. */
  visibility: ZQuestionVisibility,
  /** The statement that the user may share the question, naming its source: needed for public. */
  shareStatement: ZShareStatement,
});

/** The question as stored after validation: the shape the server writes and the client edits. */
export type TQuestionInput = {
  text: string;
  /** Only letters of the type with text, in letter order. */
  options: Record<string, string>;
  /** '' for multipleCorrect, whose answers live in `correctAnswers`. */
  correctAnswer: OptionLetter | "";
  /** Always the full answer set: `[correctAnswer]` for single-answer types, sorted and unique otherwise. */
  correctAnswers: OptionLetter[];
  numCorrectAnswers: number;
  questionType: QuestionType;
  instructions: string;
  explanation: string;
  category: string;
  part: TPart;
  year: number;
  number: number | null;
  isPublic?: boolean;
  visibility?: QuestionVisibility;
  shareStatement?: string;
};

/** A question whose fields have the right types but may still break the rules (a form's state). */
export type TQuestionDraft = z.output<typeof ZQuestionInputFields>;

function sortLetters(letters: Iterable<string>): OptionLetter[] {
  const set = new Set(letters);
  return OPTION_LETTERS.filter((l) => set.has(l));
}

/**
 * Brings a question payload to its stored form and lists what is wrong with it, in the order a form
 * shows the problems (text, options, answers).
 */
function normalizeAndCheck(raw: TQuestionDraft): { value: TQuestionInput; issues: Issue[] } {
  const issues: Issue[] = [];
  const text = raw.text.trim();
  if (text === "") issues.push({ message: QUESTION_MESSAGES.TEXT_REQUIRED, path: ["text"] });
  checkLength(text, LIMITS.QUESTION_TEXT, "Question text", "text", issues);

  // Only the letters the editor shows for the type are kept: switching a 15-option question to
  // standard keeps what the user sees (A-E), nothing hidden.
  const letters = optionLettersFor(raw.questionType);
  const allOptions = cleanOptions(
    raw.options,
    OPTION_LETTERS,
    QUESTION_MESSAGES.OPTION_LETTERS,
    issues,
  );
  const options: Record<string, string> = {};
  for (const letter of letters) {
    const optionText = allOptions[letter];
    if (optionText !== undefined) options[letter] = optionText;
  }
  if (options.A === undefined || options.B === undefined) {
    issues.push({ message: QUESTION_MESSAGES.OPTIONS_REQUIRED, path: ["options"] });
  }

  const isLetter = (l: string): l is OptionLetter =>
    (OPTION_LETTERS as readonly string[]).includes(l);
  const badLetter = [raw.correctAnswer, ...raw.correctAnswers].some(
    (l) => l !== "" && !isLetter(l),
  );
  if (badLetter) issues.push({ message: LETTER_MESSAGE, path: ["correctAnswer"] });

  let correctAnswer: OptionLetter | "" = "";
  let correctAnswers: OptionLetter[];
  let numCorrectAnswers: number;
  if (raw.questionType === "multipleCorrect") {
    correctAnswers = sortLetters(raw.correctAnswers.filter(isLetter));
    numCorrectAnswers = raw.numCorrectAnswers ?? MULTIPLE_CORRECT_DEFAULT_COUNT;
    if (correctAnswers.length === 0 && !badLetter) {
      issues.push({ message: QUESTION_MESSAGES.ANSWERS_REQUIRED, path: ["correctAnswers"] });
    }
  } else {
    const given = isLetter(raw.correctAnswer) ? raw.correctAnswer : "";
    // A REST client may send only the list; one letter there is as clear as correctAnswer.
    const onlyListed = raw.correctAnswers.length === 1 ? raw.correctAnswers[0] : undefined;
    correctAnswer =
      given === "" && onlyListed !== undefined && isLetter(onlyListed) ? onlyListed : given;
    correctAnswers = correctAnswer === "" ? [] : [correctAnswer];
    // Single-answer types always need exactly one selection (docs/product/states.md Edit modal).
    numCorrectAnswers = 1;
    if (correctAnswer === "" && !badLetter) {
      issues.push({ message: QUESTION_MESSAGES.ANSWER_REQUIRED, path: ["correctAnswer"] });
    }
  }
  for (const letter of correctAnswers) {
    if (options[letter] === undefined) {
      issues.push({ message: answerWithoutTextMessage(letter), path: ["correctAnswer"] });
    }
  }

  const instructions = raw.instructions.trim();
  const explanation = raw.explanation.trim();
  const category = raw.category.trim();
  checkLength(instructions, LIMITS.INSTRUCTIONS, "Instructions", "instructions", issues);
  checkLength(explanation, LIMITS.EXPLANATION, "Explanation", "explanation", issues);
  checkLength(category, LIMITS.CATEGORY, "Category", "category", issues);

  const value: TQuestionInput = {
    text,
    options,
    correctAnswer,
    correctAnswers,
    numCorrectAnswers,
    questionType: raw.questionType,
    instructions,
    explanation,
    category,
    part: raw.part,
    year: raw.year,
    number: raw.number,
  };
  if (raw.isPublic !== undefined) value.isPublic = raw.isPublic;
  if (raw.visibility !== undefined) value.visibility = raw.visibility;
  if (raw.shareStatement !== undefined) value.shareStatement = raw.shareStatement;
  return { value, issues };
}

/**
 * Create and update payload of a question (docs/product/validation.md 'Edit question', rest-api.md POST/PUT /questions).
 * Parsing yields the normalised stored form ({@link TQuestionInput}).
 */
export const ZQuestionInput = ZQuestionInputFields.transform((raw, ctx): TQuestionInput => {
  const { value, issues } = normalizeAndCheck(raw);
  report(ctx, issues);
  return issues.length > 0 ? z.NEVER : value;
});
/** What a client may send. */
export type TQuestionInputPayload = z.input<typeof ZQuestionInput>;

/**
 * Normalises an already well-typed question without rejecting it: for forms that want the stored shape
 * (e.g. to preview) before the user has fixed every problem. Invalid letters are dropped.
 */
export function normalizeQuestionInput(q: TQuestionDraft): TQuestionInput {
  return normalizeAndCheck(q).value;
}

/**
 * docs/product/validation.md: a multiple-correct question whose selection count differs from its declared count gets a
 * warning that does not block saving. No selection at all is an error instead, so no warning then.
 */
export function correctAnswerCountWarning(q: {
  questionType: QuestionType;
  correctAnswers: readonly string[];
  numCorrectAnswers: number;
}): string | null {
  if (q.questionType !== "multipleCorrect") return null;
  const selected = new Set(q.correctAnswers).size;
  if (selected === 0 || selected === q.numCorrectAnswers) return null;
  return `You've selected ${selected} answers, but specified ${q.numCorrectAnswers} correct answers`;
}

const ZBulkQuestionFields = z.object({
  _id: z
    .union([z.uuid({ error: "Question id must be a valid id" }), z.literal("")], {
      error: "Question id must be a valid id",
    })
    .nullish()
    .transform((v) => v || undefined),
  text: ZQuestionText,
  options: ZRawOptions,
  correctAnswer: ZRawLetter,
  category: optionalText("Category must be text"),
  part: ZPart,
  year: ZYear,
  number: ZQuestionNumber,
  explanation: optionalText("Explanation must be text"),
  isPublic: z.boolean({ error: "isPublic must be true or false" }).optional(),
});

export type TBulkQuestionItem = {
  /** Set when the item is merged into an existing question of the importer's. */
  _id?: string;
  text: string;
  options: Record<string, string>;
  /** May be '' (docs/product/validation.md: imports often carry no answer). */
  correctAnswer: OptionLetter | "";
  category: string;
  part: TPart;
  year: number;
  number: number | null;
  explanation: string;
  isPublic?: boolean;
};

/**
 * One item of POST /questions/bulk (docs/product/rest-api.md). Unlike an edit, a missing correct answer is allowed; a
 * correct answer that points at an empty option is not, because nobody could ever answer it right.
 */
export const ZBulkQuestionItem = ZBulkQuestionFields.transform((raw, ctx): TBulkQuestionItem => {
  const issues: Issue[] = [];
  const text = raw.text.trim();
  if (text === "") issues.push({ message: QUESTION_MESSAGES.TEXT_REQUIRED, path: ["text"] });
  checkLength(text, LIMITS.QUESTION_TEXT, "Question text", "text", issues);
  const options = cleanOptions(
    raw.options,
    IMPORT_LETTERS,
    QUESTION_MESSAGES.IMPORT_OPTION_LETTERS,
    issues,
  );
  if (options.A === undefined || options.B === undefined) {
    issues.push({ message: QUESTION_MESSAGES.OPTIONS_REQUIRED, path: ["options"] });
  }
  const answer = raw.correctAnswer;
  let correctAnswer: OptionLetter | "" = "";
  if (answer !== "") {
    if (!(IMPORT_LETTERS as readonly string[]).includes(answer)) {
      issues.push({ message: QUESTION_MESSAGES.IMPORT_ANSWER_LETTER, path: ["correctAnswer"] });
    } else if (options[answer] === undefined) {
      issues.push({ message: answerWithoutTextMessage(answer), path: ["correctAnswer"] });
    } else {
      correctAnswer = answer as OptionLetter;
    }
  }
  const category = raw.category.trim();
  const explanation = raw.explanation.trim();
  checkLength(category, LIMITS.CATEGORY, "Category", "category", issues);
  checkLength(explanation, LIMITS.EXPLANATION, "Explanation", "explanation", issues);
  report(ctx, issues);
  if (issues.length > 0) return z.NEVER;
  const item: TBulkQuestionItem = {
    text,
    options,
    correctAnswer,
    category,
    part: raw.part,
    year: raw.year,
    number: raw.number,
    explanation,
  };
  if (raw._id !== undefined) item._id = raw._id;
  if (raw.isPublic !== undefined) item.isPublic = raw.isPublic;
  return item;
});

export const ZBulkQuestionsInput = z.object({
  questions: z
    .array(ZBulkQuestionItem, { error: "questions must be a list" })
    .min(1, "No questions to import")
    .max(
      LIMITS.BULK_QUESTIONS,
      `At most ${LIMITS.BULK_QUESTIONS} questions can be imported at once`,
    ),
});
export type TBulkQuestionsInput = z.output<typeof ZBulkQuestionsInput>;
