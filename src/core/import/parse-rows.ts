import { firstAnswerLetter, readAnswerCell } from "./answer-cell";
import { dropNul, trimEndChars } from "../text";
import { parseQuestionsText } from "../parsing/questions-text";
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

type Row = readonly unknown[];
type Rows = readonly Row[];

const OPTION_KEYS = {
  A: "optionAColumn",
  B: "optionBColumn",
  C: "optionCColumn",
  D: "optionDColumn",
  E: "optionEColumn",
} as const satisfies Record<Letter, keyof ImportSettings>;

/** Rows searched for the header (SPEC §9: header rows 1 to 5 are offered). */
const HEADER_ROWS_OFFERED = 5;
const PREVIEW_ROWS_READ = 10;
const PREVIEW_DATA_ROWS = 5;

// ---------------------------------------------------------------------------------------------
// Cells

function cellText(row: Row | undefined, column: number | null | undefined): string {
  if (!row || column === null || column === undefined) return "";
  if (!Number.isInteger(column) || column < 0 || column >= row.length) return "";
  const value = row[column];
  // A file's NUL characters are dropped: PostgreSQL cannot store them (issue 24).
  if (typeof value === "string") return dropNul(value).trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

function nonEmptyCells(row: Row | undefined): string[] {
  const out: string[] = [];
  if (!row) return out;
  for (let c = 0; c < row.length; c++) {
    const text = cellText(row, c);
    if (text !== "") out.push(text);
  }
  return out;
}

function isBlankRow(row: Row | undefined): boolean {
  if (!row) return true;
  for (let c = 0; c < row.length; c++) if (cellText(row, c) !== "") return false;
  return true;
}

/** 'Done', 'END', '---': one token alone on a row marks the end of the data, not a question. */
function isSingleWord(text: string): boolean {
  return text !== "" && !/\s/.test(text);
}

// ---------------------------------------------------------------------------------------------
// Column labels and auto-detection (SPEC §5 'Column auto-detection')

/** Header labels as shown in the column selects: blank labels are 'Column N' (1-based). */
export function columnLabels(headerRow: Row | undefined, width?: number): string[] {
  const length = Math.max(width ?? 0, headerRow?.length ?? 0);
  const labels: string[] = [];
  for (let c = 0; c < length; c++) {
    const text = cellText(headerRow, c);
    labels.push(text === "" ? `Column ${c + 1}` : text);
  }
  return labels;
}

type Role =
  | { role: "question"; strength: number }
  | { role: "option"; letter: Letter; strength: number }
  | { role: "points"; letter: Letter; strength: number }
  | { role: "answer"; strength: number }
  | { role: "category"; strength: number }
  | { role: "explanation"; strength: number }
  | { role: "number"; strength: number };

function normaliseLabel(label: string): string {
  return trimEndChars(label.toLowerCase().replace(/[_\s]+/g, " "), ":.").trim();
}

const NUMBER_LABEL =
  /^(?:#|no|n°|nº|num|number|q ?#|q ?no|qno|sr ?\.? ?no|s ?\.? ?no|serial(?: no| number)?|(?:question|item) ?(?:n°|nº|no\.?|num(?:ber)?|#))$/;

/** What a header label names, if anything. Labels longer than 40 characters are data, not labels. */
function classifyLabel(raw: string): Role | null {
  if (raw.length > 60) return null;
  const label = normaliseLabel(raw);
  if (label === "" || label.length > 40) return null;

  let m = /^(?:option|opt|choice|answer|ans|alternative) ?[-.]? ?([a-e])$/.exec(label);
  if (m?.[1]) return { role: "option", letter: m[1].toUpperCase() as Letter, strength: 3 };
  m = /^(?:op ?([a-e])|\(?([a-e])\)?)$/.exec(label);
  const letter = m?.[1] ?? m?.[2];
  if (letter) return { role: "option", letter: letter.toUpperCase() as Letter, strength: 3 };
  m = /^(?:(?:option|choice|answer) ?)?([1-5])$/.exec(label);
  if (m?.[1]) return { role: "option", letter: LETTERS[Number(m[1]) - 1] as Letter, strength: 2 };

  m = /^(?:points?|score|pts|marks?) ?[-.]? ?([a-e])$/.exec(label);
  if (m?.[1]) return { role: "points", letter: m[1].toUpperCase() as Letter, strength: 3 };

  if (NUMBER_LABEL.test(label)) return { role: "number", strength: 3 };

  if (label === "exp" || /explanation|rationale|explain|reasoning/.test(label)) {
    return { role: "explanation", strength: 3 };
  }

  if (/^(?:questions?|question text|question stem|stem|prompt|q|item)$/.test(label)) {
    return { role: "question", strength: 3 };
  }
  if (/question/.test(label) && !/\b(?:type|id|image|img|count|format|kind)\b/.test(label)) {
    return { role: "question", strength: 2 };
  }

  if (
    /^(?:answer|answers|correct|cop|key|answer key|correct answer|correct option|right answer|ans|solution)$/.test(
      label,
    )
  ) {
    return { role: "answer", strength: 3 };
  }
  if (/answer|correct/.test(label) && !/challenge|image|img/.test(label)) {
    return { role: "answer", strength: 2 };
  }

  if (/category/.test(label)) return { role: "category", strength: 3 };
  if (/subject/.test(label)) return { role: "category", strength: 2 };
  if (/topic/.test(label)) return { role: "category", strength: 1 };
  return null;
}

export interface ColumnDetection {
  settings: ImportSettings;
  /** One label per column, 'Column N' for blank ones. */
  labels: string[];
}

export interface DetectOptions {
  /** Rows below the header: used to prefer a category column that actually holds data. */
  dataRows?: Rows;
  /** Values for what the header cannot tell (part, year, headerRow, a format chosen by hand). */
  base?: Partial<ImportSettings>;
}

/** Settings with every column unset: the wizard's starting point (SPEC §9 defaults). */
export function defaultImportSettings(base: Partial<ImportSettings> = {}): ImportSettings {
  return {
    part: base.part ?? "1",
    year: base.year ?? 2024,
    format: base.format ?? "standard",
    headerRow: base.headerRow ?? 0,
    questionColumn: base.questionColumn ?? null,
    optionAColumn: base.optionAColumn ?? null,
    optionBColumn: base.optionBColumn ?? null,
    optionCColumn: base.optionCColumn ?? null,
    optionDColumn: base.optionDColumn ?? null,
    optionEColumn: base.optionEColumn ?? null,
    answerColumn: base.answerColumn ?? null,
    categoryColumn: base.categoryColumn ?? null,
    explanationColumn: base.explanationColumn ?? null,
    hasOptions: base.hasOptions ?? false,
    hasCategory: base.hasCategory ?? false,
    ...(base.sheet !== undefined ? { sheet: base.sheet } : {}),
    ...(base.numberColumn !== undefined ? { numberColumn: base.numberColumn } : {}),
    ...(base.pointsColumns !== undefined ? { pointsColumns: { ...base.pointsColumns } } : {}),
  };
}

/**
 * SPEC §5 column auto-detection from header labels, extended for real files: MedMCQA's
 * opa..ope / cop / exp / subject_name, quiz tools' 'Answer A' option columns, 'Points A' score
 * columns and numbered option columns ('1'..'5'), and a question-number column ('Question N°').
 * When several columns could be the category, one with data wins over an empty one (MedMCQA's
 * topic_name is always empty).
 */
export function detectColumns(headerRow: Row, opts: DetectOptions = {}): ColumnDetection {
  const labels = columnLabels(headerRow);
  const settings = defaultImportSettings(opts.base);
  const roles = labels.map((_, c) => classifyLabel(cellText(headerRow, c)));

  const best = (want: Role["role"], letter?: Letter): number | null => {
    let chosen: number | null = null;
    let strength = 0;
    roles.forEach((r, c) => {
      if (!r || r.role !== want) return;
      if (letter && "letter" in r && r.letter !== letter) return;
      if (r.strength > strength) {
        chosen = c;
        strength = r.strength;
      }
    });
    return chosen;
  };

  const options: Partial<Record<Letter, number>> = {};
  const points: Partial<Record<Letter, number>> = {};
  for (const letter of LETTERS) {
    const o = best("option", letter);
    if (o !== null) options[letter] = o;
    const p = best("points", letter);
    if (p !== null) points[letter] = p;
  }

  let question = best("question");
  if (question === null && options.A !== undefined) {
    // 'Stem | A | B …' with an unrecognised stem label: the column just before option A.
    const before = options.A - 1;
    if (before >= 0 && roles[before] === null) question = before;
  }
  settings.questionColumn = question;

  const answer = best("answer");
  if (answer !== null) settings.answerColumn = answer;
  const explanation = best("explanation");
  if (explanation !== null) settings.explanationColumn = explanation;
  const number = best("number");
  if (number !== null) settings.numberColumn = number;

  const categoryCandidates = roles
    .map((r, c) => ({ r, c }))
    .filter((x) => x.r?.role === "category")
    .map((x) => ({
      c: x.c,
      strength: x.r?.strength ?? 0,
      hasData: (opts.dataRows ?? []).some((row) => cellText(row, x.c) !== ""),
    }))
    .sort((a, b) => Number(b.hasData) - Number(a.hasData) || b.strength - a.strength || a.c - b.c);
  const category = categoryCandidates[0];
  if (category) {
    settings.categoryColumn = category.c;
    settings.hasCategory = true;
  }

  if (options.A !== undefined) {
    settings.format = "questionPerRow";
    settings.hasOptions = true;
    for (const letter of LETTERS) settings[OPTION_KEYS[letter]] = options[letter] ?? null;
  }
  if (Object.keys(points).length > 0) {
    settings.pointsColumns = {};
    for (const letter of LETTERS) {
      const p = points[letter];
      if (p !== undefined) settings.pointsColumns[letter] = p;
    }
  }
  return { settings, labels };
}

function headerScore(row: Row | undefined): number {
  // Labels are short; a row with a sentence or a question in it is data, whatever else it holds.
  if (!row || looksLikeData(row)) return 0;
  let score = 0;
  let hasQuestion = false;
  let recognised = 0;
  for (let c = 0; c < row.length; c++) {
    const role = classifyLabel(cellText(row, c));
    if (!role) continue;
    recognised++;
    if (role.role === "question") hasQuestion = true;
    score += role.role === "question" ? 3 : 1;
  }
  // A lone 'A' in the answer column of a data row is not a header.
  return hasQuestion || recognised >= 2 ? score : 0;
}

function looksLikeData(row: Row | undefined): boolean {
  return nonEmptyCells(row).some(
    (t) => (t.length >= 30 && /\s/.test(t)) || (t.length > 12 && /[?:]$/.test(t)),
  );
}

/**
 * The most header-like row among the first five (the earliest on a tie), or -1 when none looks
 * like a header and the first row looks like a question (MMLU files have no header). Otherwise 0,
 * the spec's default.
 */
export function detectHeaderRow(rows: Rows): number {
  let bestRow = -1;
  let bestScore = 0;
  const limit = Math.min(rows.length, HEADER_ROWS_OFFERED);
  for (let r = 0; r < limit; r++) {
    const score = headerScore(rows[r]);
    if (score > bestScore) {
      bestScore = score;
      bestRow = r;
    }
  }
  if (bestRow >= 0) return bestRow;
  const first = rows.findIndex((row) => !isBlankRow(row));
  if (first === -1) return 0;
  return looksLikeData(rows[first]) ? -1 : 0;
}

/**
 * The whole auto-configuration the wizard starts from: the header row, then the columns from its
 * labels, or, for a file without a header, from the shape of the data (a long text column, then
 * option columns, then a column of single letters or option numbers).
 */
export function suggestImportSettings(
  rows: Rows,
  base: Partial<ImportSettings> = {},
): ColumnDetection {
  const headerRow = detectHeaderRow(rows);
  const width = rows.reduce((w, row) => Math.max(w, row.length), 0);
  if (headerRow >= 0) {
    const header = rows[headerRow] ?? [];
    const detected = detectColumns(header, {
      dataRows: rows.slice(headerRow + 1, headerRow + 201),
      base: { ...base, headerRow },
    });
    detected.labels = columnLabels(header, width);
    if (detected.settings.questionColumn !== null) return detected;
  }
  const dataStart = headerRow + 1;
  const settings = inferFromData(rows.slice(dataStart, dataStart + 200), {
    ...base,
    headerRow,
  });
  const labels = headerRow >= 0 ? columnLabels(rows[headerRow], width) : columnLabels([], width);
  return { settings, labels };
}

const STANDARD_LINE = /^(?:\d{1,4}\s*[.)](?!\d)|[A-E]\s*[.)])/;
const ANSWER_LIKE = /^(?:\(?[A-Ea-e]\)?\.?|[1-5](?:\.0+)?)$/;

function inferFromData(sample: Rows, base: Partial<ImportSettings>): ImportSettings {
  const settings = defaultImportSettings(base);
  const rows = sample.filter((row) => !isBlankRow(row));
  const width = rows.reduce((w, row) => Math.max(w, row.length), 0);
  if (rows.length === 0 || width === 0) {
    settings.questionColumn = 0;
    return settings;
  }
  const stats = Array.from({ length: width }, (_, c) => {
    let filled = 0;
    let totalLength = 0;
    let answerLike = 0;
    let standardLike = 0;
    for (const row of rows) {
      const text = cellText(row, c);
      if (text === "") continue;
      filled++;
      totalLength += text.length;
      if (ANSWER_LIKE.test(text)) answerLike++;
      if (STANDARD_LINE.test(text)) standardLike++;
    }
    return { filled, average: filled ? totalLength / filled : 0, answerLike, standardLike };
  });

  const first = stats[0];
  if (width === 1 || (first && first.filled > 0 && first.standardLike >= first.filled / 2)) {
    settings.format = base.format ?? "standard";
    settings.questionColumn = 0;
    return settings;
  }

  let answer: number | null = null;
  for (let c = width - 1; c >= 0; c--) {
    const s = stats[c];
    if (s && s.filled >= rows.length / 2 && s.answerLike >= s.filled * 0.8) {
      answer = c;
      break;
    }
  }
  const candidates = stats
    .map((s, c) => ({ ...s, c }))
    .filter((s) => answer === null || s.c < answer);
  const longest = candidates.reduce((m, s) => Math.max(m, s.average), 0);
  const question = candidates.find((s) => s.filled > 0 && s.average >= longest / 2)?.c ?? 0;
  settings.questionColumn = question;
  settings.answerColumn = answer;

  const optionColumns: number[] = [];
  for (let c = question + 1; c < width && optionColumns.length < 5; c++) {
    if (c === answer) break;
    if ((stats[c]?.filled ?? 0) === 0) break;
    optionColumns.push(c);
  }
  if (optionColumns.length >= 2) {
    settings.format = "questionPerRow";
    settings.hasOptions = true;
    LETTERS.forEach((letter, k) => {
      settings[OPTION_KEYS[letter]] = optionColumns[k] ?? null;
    });
  } else if (answer !== null) {
    settings.format = "questionPerRow";
  }
  return settings;
}

// ---------------------------------------------------------------------------------------------
// Preview (SPEC §2 Import, step 2)

export interface RowsPreview {
  /** Column labels ('Column N' for blank labels, or for every column when there is no header). */
  header: string[];
  /** Up to 5 non-blank data rows from the first 10 rows of the file, padded to the header width. */
  rows: string[][];
}

export function previewRows(rows: Rows, headerRow: number): RowsPreview {
  const firstRows = rows.slice(0, PREVIEW_ROWS_READ);
  const width = firstRows.reduce((w, row) => Math.max(w, row.length), 0);
  const h = Number.isInteger(headerRow) && headerRow >= 0 ? headerRow : -1;
  const header = h >= 0 ? columnLabels(firstRows[h], width) : columnLabels([], width);
  const data = firstRows
    .slice(h + 1)
    .filter((row) => !isBlankRow(row))
    .slice(0, PREVIEW_DATA_ROWS)
    .map((row) => Array.from({ length: header.length }, (_, c) => cellText(row, c)));
  return { header, rows: data };
}

// ---------------------------------------------------------------------------------------------
// Parsing (SPEC §5 'Bulk file import')

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
 * Question per row. Beyond SPEC §5: answers given as option numbers (1-5, '3.0') or as the
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
 * SPEC §5 gives Q&A questions no options, yet the bank stores only questions with options A and B:
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
