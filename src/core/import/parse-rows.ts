import { firstAnswerLetter, readAnswerCell } from "./answer-cell";
import { parseQuestionsText } from "../parsing/questions-text";
import {
  cellText,
  isBlankRow,
  isSingleWord,
  nonEmptyCells,
  OPTION_KEYS,
  type Row,
  type Rows,
} from "./cells";
import { ImportError, QUESTION_COLUMN_REQUIRED_MESSAGE } from "./errors";
import {
  emptyOptions,
  LETTERS,
  type ImportFormat,
  type ImportSettings,
  type Letter,
  type Options,
  type ParsedQuestion,
  type ParseRowsResult,
  type Part,
  type RowError,
} from "./types";

export {
  NO_VALID_QUESTIONS_MESSAGE,
  QUESTION_COLUMN_REQUIRED_MESSAGE,
  ImportError,
} from "./errors";
// The wizard and its tests take detection and parsing from one module.
export * from "./detect-columns";

// ---------------------------------------------------------------------------------------------
// Parsing (docs/product/validation.md 'Bulk file import')

interface Draft {
  number: number | null;
  text: string;
  options: Options;
  sourceRow: number;
}

function toQuestion(
  draft: Draft,
  part: Part,
  year: number,
  extra: { correctAnswer?: "" | Letter; explanation?: string; category?: string } = {},
): ParsedQuestion {
  return {
    number: draft.number,
    part,
    year,
    text: draft.text.trim(),
    options: draft.options,
    correctAnswer: extra.correctAnswer ?? "",
    explanation: extra.explanation ?? "",
    category: extra.category ?? "",
    sourceRow: draft.sourceRow,
  };
}

function optionCount(options: Options): number {
  return LETTERS.reduce((n, letter) => n + (options[letter] !== "" ? 1 : 0), 0);
}

function highestLetter(options: Options): number {
  let highest = -1;
  LETTERS.forEach((letter, k) => {
    if (options[letter] !== "") highest = k;
  });
  return highest;
}

function firstDataRow(settings: ImportSettings): number {
  const h = settings.headerRow;
  return Number.isInteger(h) && h >= 0 ? h + 1 : 0;
}

function safePart(part: unknown): Part {
  return part === "2" ? "2" : "1";
}

function safeYear(year: unknown): number {
  return typeof year === "number" && Number.isFinite(year) ? year : 0;
}

/**
 * Rows → question drafts in the chosen format. Throws ImportError only for a question-per-row
 * import without a question column; every problem with a single row is a RowError instead.
 * Row numbers in errors and `sourceRow` are 1-based, as a spreadsheet program shows them.
 */
export function parseRows(rows: Rows, settings: ImportSettings): ParseRowsResult {
  const format: ImportFormat = settings.format;
  if (format === "questionPerRow") return parseQuestionPerRow(rows, settings);
  if (format === "qa") return parseQa(rows, settings);
  return parseStandard(rows, settings);
}

const STANDARD_NUMBER = /^(\d{1,4})\s*[.)](?!\d)([\s\S]*)$/;
const STANDARD_OPTION = /^([A-E])\s*[.)]([\s\S]*)$/;

/**
 * Standard: a cell starting '12.' or '12)' starts question 12, a cell starting 'A.' or 'A)' fills
 * option A, anything else continues the question text. Reads the question column, or every cell
 * of the row when no column is chosen. Two refinements for real text: an option letter must come
 * after the options already read (with none read, only A or B), so a stem line 'C. difficile …'
 * stays text; and a lone word after the options ('Done') is a sentinel, not more question text.
 */
function parseStandard(rows: Rows, settings: ImportSettings): ParseRowsResult {
  const part = safePart(settings.part);
  const year = safeYear(settings.year);
  const questions: ParsedQuestion[] = [];
  const errors: RowError[] = [];
  let skipped = 0;
  let current: Draft | null = null;

  const finish = (): void => {
    if (current && current.text.trim() !== "" && optionCount(current.options) >= 1) {
      questions.push(toQuestion(current, part, year));
    } else if (current) {
      skipped++;
    }
    current = null;
  };

  for (let r = firstDataRow(settings); r < rows.length; r++) {
    const row = rows[r];
    const cells =
      settings.questionColumn === null
        ? nonEmptyCells(row)
        : [cellText(row, settings.questionColumn)].filter((t) => t !== "");
    if (cells.length === 0) continue;
    for (const text of cells) {
      const numbered = STANDARD_NUMBER.exec(text);
      if (numbered) {
        finish();
        current = {
          number: Number(numbered[1]),
          text: numbered[2]?.trim() ?? "",
          options: emptyOptions(),
          sourceRow: r + 1,
        };
        continue;
      }
      const option = STANDARD_OPTION.exec(text);
      const draft: Draft | null = current;
      if (option?.[1]) {
        const index = LETTERS.indexOf(option[1] as Letter);
        const highest = draft ? highestLetter(draft.options) : -1;
        if ((highest === -1 && index <= 1) || (highest >= 0 && index > highest)) {
          const target: Draft = draft ?? {
            number: null,
            text: "",
            options: emptyOptions(),
            sourceRow: r + 1,
          };
          target.options[option[1] as Letter] = option[2]?.trim() ?? "";
          current = target;
          continue;
        }
      }
      if (draft && optionCount(draft.options) > 0 && cells.length === 1 && isSingleWord(text)) {
        skipped++;
        continue;
      }
      if (draft) {
        draft.text = draft.text === "" ? text : `${draft.text} ${text}`;
      } else {
        current = { number: null, text, options: emptyOptions(), sourceRow: r + 1 };
      }
    }
  }
  finish();
  return { questions, errors, warnings: [], skipped };
}

const NUMBER_CELL = /^(?:q(?:uestion)?\s*)?(\d{1,6})(?:\.0+)?\s*[.)]?$/i;
const NUMBER_PREFIX = /^(?:q(?:uestion)?\s*)?(\d{1,4})\s*[.):](?!\d)\s+(?=\S)/i;

function stripOwnPrefix(text: string, letter: Letter): string {
  const m = /^\(?([A-Ea-e])\s*[.):]\s+(?=\S)/.exec(text);
  if (m?.[1] && m[1].toUpperCase() === letter) return text.slice(m[0].length);
  return text;
}

function answerFromPoints(
  row: Row | undefined,
  settings: ImportSettings,
  options: Options,
): { letter: "" | Letter; tie: boolean } {
  const columns = settings.pointsColumns;
  if (!columns) return { letter: "", tie: false };
  let bestLetter: "" | Letter = "";
  let bestPoints = 0;
  let tie = false;
  for (const letter of LETTERS) {
    const column = columns[letter];
    if (column === undefined || column === null) continue;
    if (settings.hasOptions && options[letter] === "") continue;
    const text = cellText(row, column).replace(/%$/, "");
    if (!/^[-+]?\d+(?:\.\d+)?$/.test(text)) continue;
    const points = Number(text);
    if (points > bestPoints) {
      bestPoints = points;
      bestLetter = letter;
      tie = false;
    } else if (points === bestPoints && points > 0) {
      tie = true;
    }
  }
  return tie ? { letter: "", tie: true } : { letter: bestLetter, tie: false };
}

/**
 * Question per row. Beyond docs/product/validation.md: answers given as option numbers (1-5, '3.0') or as the
 * option's text are understood; a list ('1, 2, 3, 2') or an unreadable answer is a RowError but
 * the question is still imported, without an answer, so the user can set it while reviewing;
 * with no answer column, 'Points A'.. columns name the correct option.
 */
function parseQuestionPerRow(rows: Rows, settings: ImportSettings): ParseRowsResult {
  const questionColumn = settings.questionColumn;
  if (questionColumn === null || questionColumn === undefined) {
    throw new ImportError(QUESTION_COLUMN_REQUIRED_MESSAGE);
  }
  const part = safePart(settings.part);
  const year = safeYear(settings.year);
  const questions: ParsedQuestion[] = [];
  const errors: RowError[] = [];
  const warnings: RowError[] = [];
  let skipped = 0;

  for (let r = firstDataRow(settings); r < rows.length; r++) {
    const row = rows[r];
    if (isBlankRow(row)) continue;
    const rowNumber = r + 1;
    let text = cellText(row, questionColumn);
    if (text === "") {
      skipped++;
      continue;
    }
    const options = emptyOptions();
    if (settings.hasOptions) {
      for (const letter of LETTERS) {
        options[letter] = stripOwnPrefix(cellText(row, settings[OPTION_KEYS[letter]]), letter);
      }
    }
    if (optionCount(options) === 0 && nonEmptyCells(row).length === 1 && isSingleWord(text)) {
      skipped++;
      continue;
    }
    if (settings.hasOptions && (options.A === "" || options.B === "")) {
      errors.push({
        row: rowNumber,
        message: `Row ${rowNumber}: at least options A and B are required`,
      });
      continue;
    }

    let number: number | null = null;
    const numberColumn = settings.numberColumn;
    if (numberColumn !== null && numberColumn !== undefined) {
      const m = NUMBER_CELL.exec(cellText(row, numberColumn));
      if (m?.[1]) number = Number(m[1]);
    }
    const prefix = NUMBER_PREFIX.exec(text);
    if (prefix?.[1]) {
      if (number === null) number = Number(prefix[1]);
      text = text.slice(prefix[0].length);
    }

    let correctAnswer: "" | Letter = "";
    const reading = readAnswerCell(
      cellText(row, settings.answerColumn),
      settings.hasOptions ? options : undefined,
    );
    if (reading.kind === "letter") {
      correctAnswer = reading.letter;
    } else if (reading.kind === "list") {
      warnings.push({
        row: rowNumber,
        message: `Row ${rowNumber}: the answer '${reading.raw}' names several options; the question was imported without an answer`,
      });
    } else if (reading.kind === "unreadable") {
      warnings.push({
        row: rowNumber,
        message: `Row ${rowNumber}: the answer '${reading.raw}' is not a letter A-E or an option number 1-5; the question was imported without an answer`,
      });
    } else {
      const fromPoints = answerFromPoints(row, settings, options);
      correctAnswer = fromPoints.letter;
      if (fromPoints.tie) {
        warnings.push({
          row: rowNumber,
          message: `Row ${rowNumber}: several options share the highest points; the question was imported without an answer`,
        });
      }
    }
    if (correctAnswer !== "" && settings.hasOptions && options[correctAnswer] === "") {
      warnings.push({
        row: rowNumber,
        message: `Row ${rowNumber}: the answer ${correctAnswer} is an empty option; the question was imported without an answer`,
      });
      correctAnswer = "";
    }

    const category =
      settings.hasCategory && settings.categoryColumn !== null
        ? cellText(row, settings.categoryColumn)
        : "";
    const explanation = cellText(row, settings.explanationColumn);
    questions.push(
      toQuestion({ number, text, options, sourceRow: rowNumber }, part, year, {
        correctAnswer,
        explanation,
        category,
      }),
    );
  }
  return { questions, errors, warnings, skipped };
}

const QA_QUESTION_LABEL = /^q(?:uestion)?\s*[:.)-]\s*(?=\S)/i;
const QA_ANSWER_LABEL = /^(?:a|ans|answer)\s*:\s*/i;

/** Why a Q&A question cell cannot be imported; the fix is to write the options into the cell. */
export const QA_NO_OPTIONS_REASON =
  "no answer options found; in the Q&A format the options follow the question in its cell ('Which …? A. … B. …')";

type CellQuestion =
  { ok: true; question: ParsedQuestion } | { ok: false; reason: string; sentinel: boolean };

/**
 * A Q&A question cell read by the pasted-text parser of src/core/parsing, so options written after
 * the stem ('Which …? A. x B. y C. z', or one per line) are split off. 'Q:' labels are dropped;
 * 'Q12:' or '12.' give the question number.
 */
function questionFromCell(cell: string, row: number, part: Part, year: number): CellQuestion {
  const text = cell.replace(QA_QUESTION_LABEL, "");
  const found = parseQuestionsText(text, { part, year });
  if (found.length === 1 && found[0]) {
    return { ok: true, question: { ...found[0], category: "", sourceRow: row } };
  }
  if (found.length > 1) {
    return {
      ok: false,
      reason: `the question cell holds ${found.length} questions; give each question its own pair of rows`,
      sentinel: false,
    };
  }
  return { ok: false, reason: QA_NO_OPTIONS_REASON, sentinel: isSingleWord(text.trim()) };
}

/** The letter an answer row names: a standalone A-E (after an 'A:' label), an option number or the option's text. */
function qaAnswer(answerText: string, options: Options): "" | Letter {
  const labelled = QA_ANSWER_LABEL.exec(answerText);
  const unlabelled = labelled ? answerText.slice(labelled[0].length) : answerText;
  const letter = firstAnswerLetter(unlabelled) || firstAnswerLetter(answerText);
  if (letter) return letter;
  const reading = readAnswerCell(unlabelled, options);
  return reading.kind === "letter" ? reading.letter : "";
}

/**
 * Q&A: rows pair up; the first is the question, the second supplies the answer (the first
 * standalone letter A-E in it, after an 'A:' / 'Answer:' label, or an option's number or text).
 * docs/product/validation.md gives Q&A questions no options, yet the bank stores only questions with options A and B:
 * the question cell is therefore read by the pasted-text parser, which splits options written
 * after the stem (docs/decisions/072-qa-format-inline-options.md). A question without options
 * is a RowError; an answer row naming no option, or no answer row at the end, is a warning and the
 * question is imported without an answer. A trailing lone word ('Done') is a sentinel.
 */
function parseQa(rows: Rows, settings: ImportSettings): ParseRowsResult {
  const part = safePart(settings.part);
  const year = safeYear(settings.year);
  const questions: ParsedQuestion[] = [];
  const errors: RowError[] = [];
  const warnings: RowError[] = [];
  let skipped = 0;
  let pending: { text: string; row: number } | null = null;
  const qc = settings.questionColumn;

  const finishPair = (
    question: { text: string; row: number },
    answer: { text: string; row: number } | null,
  ) => {
    const read = questionFromCell(question.text, question.row, part, year);
    if (!read.ok) {
      if (answer === null && read.sentinel) skipped++;
      else errors.push({ row: question.row, message: `Row ${question.row}: ${read.reason}` });
      return;
    }
    const q = read.question;
    const inline = q.correctAnswer;
    q.correctAnswer = "";
    if (answer === null) {
      q.correctAnswer = inline;
      if (inline === "") {
        warnings.push({
          row: question.row,
          message: `Row ${question.row}: no answer row follows this question; it was imported without an answer`,
        });
      }
    } else {
      const letter = qaAnswer(answer.text, q.options) || inline;
      if (letter === "") {
        warnings.push({
          row: answer.row,
          message: `Row ${answer.row}: the answer '${answer.text}' is not a letter A-E, an option number 1-5 or an option's text; the question was imported without an answer`,
        });
      } else if (q.options[letter] === "") {
        warnings.push({
          row: answer.row,
          message: `Row ${answer.row}: the answer ${letter} is an empty option; the question was imported without an answer`,
        });
      } else {
        q.correctAnswer = letter;
      }
    }
    questions.push(q);
  };

  for (let r = firstDataRow(settings); r < rows.length; r++) {
    const row = rows[r];
    if (isBlankRow(row)) continue;
    if (pending === null) {
      const text = qc === null ? nonEmptyCells(row).join(" ") : cellText(row, qc);
      if (text === "") {
        skipped++;
        continue;
      }
      pending = { text, row: r + 1 };
      continue;
    }
    finishPair(pending, { text: nonEmptyCells(row).join(" "), row: r + 1 });
    pending = null;
  }
  if (pending) finishPair(pending, null);
  return { questions, errors, warnings, skipped };
}
