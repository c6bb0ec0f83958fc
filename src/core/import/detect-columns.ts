import { trimEndChars } from "../text";
import { cellText, isBlankRow, nonEmptyCells, OPTION_KEYS, type Row, type Rows } from "./cells";
import { LETTERS, type ImportSettings, type Letter } from "./types";

/** Rows searched for the header (docs/product/constants.md: header rows 1 to 5 are offered). */
const HEADER_ROWS_OFFERED = 5;
const PREVIEW_ROWS_READ = 10;
const PREVIEW_DATA_ROWS = 5;

// ---------------------------------------------------------------------------------------------
// Column labels and auto-detection (docs/product/validation.md 'Column auto-detection')

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

/** Settings with every column unset: the wizard's starting point (docs/product/constants.md defaults). */
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
 * docs/product/validation.md column auto-detection from header labels, extended for real files: MedMCQA's
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
// Preview (docs/product/screens.md Import, step 2)

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
