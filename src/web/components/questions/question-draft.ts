import {
  MULTIPLE_CORRECT_DEFAULT_COUNT,
  MULTIPLE_CORRECT_DEFAULT_INSTRUCTIONS,
  OPTION_LETTERS,
  optionLettersFor,
  yearChoices,
  type OptionLetter,
  type QuestionType,
} from "@/core/constants";
import {
  correctAnswerCountWarning,
  firstIssueMessage,
  ZQuestionInput,
  type TQuestionInputPayload,
} from "@/core/schemas";

/**
 * The Edit Question form's state (docs/product/screens.md, states.md and validation.md). Numbers are kept as typed so a half-typed field is
 * not rewritten under the user's fingers; options keep all 15 letters so switching the type back and
 * forth loses nothing (only the letters of the current type are sent).
 */
export interface QuestionDraft {
  part: "1" | "2";
  year: number;
  number: string;
  category: string;
  questionType: QuestionType;
  instructions: string;
  numCorrectAnswers: string;
  text: string;
  options: Record<OptionLetter, string>;
  correctAnswer: string;
  correctAnswers: string[];
  explanation: string;
}

/** What the form needs from a stored question (the Question JSON in docs/product/data.md). */
export interface EditableQuestion {
  part: string;
  year: number;
  number: number | null;
  category: string;
  questionType: string;
  instructions: string;
  numCorrectAnswers: number;
  text: string;
  options: Record<string, string>;
  correctAnswer: string;
  correctAnswers: string[];
  explanation: string;
}

function allLetters(options: Record<string, string> = {}): Record<OptionLetter, string> {
  return Object.fromEntries(OPTION_LETTERS.map((l) => [l, options[l] ?? ""])) as Record<
    OptionLetter,
    string
  >;
}

export const asType = (value: string): QuestionType =>
  value === "fourOptions" || value === "multipleCorrect" ? value : "standard";

/** An empty form for 'New Question': this year, Part 1 (its visibility is the dialog's choice). */
export function emptyDraft(now: Date): QuestionDraft {
  return {
    part: "1",
    year: yearChoices(now)[0] ?? now.getFullYear(),
    number: "",
    category: "",
    questionType: "standard",
    instructions: "",
    numCorrectAnswers: "1",
    text: "",
    options: allLetters(),
    correctAnswer: "",
    correctAnswers: [],
    explanation: "",
  };
}

export function draftFromQuestion(q: EditableQuestion): QuestionDraft {
  return {
    part: q.part === "2" ? "2" : "1",
    year: q.year,
    number: q.number == null ? "" : String(q.number),
    category: q.category,
    questionType: asType(q.questionType),
    instructions: q.instructions,
    numCorrectAnswers: String(q.numCorrectAnswers),
    text: q.text,
    options: allLetters(q.options),
    correctAnswer: q.correctAnswer,
    correctAnswers: [...q.correctAnswers],
    explanation: q.explanation,
  };
}

/**
 * docs/product/states.md Edit modal: switching to multipleCorrect sets the instructions text, clears the single and
 * multiple answers and asks for 3; the other types ask for 1.
 */
export function changeType(draft: QuestionDraft, questionType: QuestionType): QuestionDraft {
  if (questionType === "multipleCorrect") {
    return {
      ...draft,
      questionType,
      instructions: MULTIPLE_CORRECT_DEFAULT_INSTRUCTIONS,
      correctAnswer: "",
      correctAnswers: [],
      numCorrectAnswers: String(MULTIPLE_CORRECT_DEFAULT_COUNT),
    };
  }
  return { ...draft, questionType, numCorrectAnswers: "1" };
}

/** Single-answer types pick one letter; multipleCorrect toggles letters in and out. */
export function toggleCorrect(draft: QuestionDraft, letter: string): QuestionDraft {
  if (draft.questionType !== "multipleCorrect") {
    return { ...draft, correctAnswer: letter, correctAnswers: [letter] };
  }
  const has = draft.correctAnswers.includes(letter);
  const next = has
    ? draft.correctAnswers.filter((l) => l !== letter)
    : [...draft.correctAnswers, letter];
  return { ...draft, correctAnswers: OPTION_LETTERS.filter((l) => next.includes(l)) };
}

export function isCorrect(draft: QuestionDraft, letter: string): boolean {
  return draft.questionType === "multipleCorrect"
    ? draft.correctAnswers.includes(letter)
    : draft.correctAnswer === letter;
}

/** The letters the form shows for the type: 5, 4 or 15 (docs/product/states.md). */
export function visibleLetters(draft: QuestionDraft): readonly OptionLetter[] {
  return optionLettersFor(draft.questionType);
}

/** The payload of questions.create / questions.update. */
export function draftToPayload(draft: QuestionDraft): TQuestionInputPayload {
  const letters = visibleLetters(draft);
  const multiple = draft.questionType === "multipleCorrect";
  return {
    text: draft.text,
    options: Object.fromEntries(letters.map((l) => [l, draft.options[l]])),
    correctAnswer: multiple ? "" : draft.correctAnswer,
    correctAnswers: multiple
      ? draft.correctAnswers
      : draft.correctAnswer
        ? [draft.correctAnswer]
        : [],
    numCorrectAnswers: multiple ? draft.numCorrectAnswers : 1,
    questionType: draft.questionType,
    instructions: draft.instructions,
    explanation: draft.explanation,
    category: draft.category,
    part: draft.part,
    year: draft.year,
    number: draft.number,
  };
}

/** The first rule in docs/product/validation.md the form breaks, in the spec's words; null when it may be saved. */
export function draftError(draft: QuestionDraft): string | null {
  const parsed = ZQuestionInput.safeParse(draftToPayload(draft));
  return parsed.success ? null : firstIssueMessage(parsed.error);
}

/** The non-blocking mismatch warning in docs/product/validation.md. */
export function draftWarning(draft: QuestionDraft): string | null {
  const n = Number(draft.numCorrectAnswers);
  if (!Number.isInteger(n)) return null;
  return correctAnswerCountWarning({
    questionType: draft.questionType,
    correctAnswers: draft.correctAnswers,
    numCorrectAnswers: n,
  });
}
