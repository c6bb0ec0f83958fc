/**
 * Fixed lists and limits of the product (docs/product/data.md, constants.md, scheduling.md and product-decisions.md).
 * Isomorphic: imported by the browser, the server and the CLI alike.
 */

export const PRODUCT_TITLE = "PRITE Study";

/** The fixed category list in docs/product/data.md, in the spec's order (pickers show it as is). */
export const CATEGORIES = [
  "Neuroscience",
  "Development",
  "Psychopathology",
  "Psychotherapy",
  "Somatic Treatments",
  "Epidemiology",
  "Genetics",
  "Ethics",
  "Practice Management",
  "Substance Use Disorders",
  "Schizophrenia Spectrum",
  "Bipolar Disorders",
  "Depressive Disorders",
  "Anxiety Disorders",
  "Obsessive-Compulsive Disorders",
  "Trauma-Related Disorders",
  "Eating Disorders",
  "Sleep-Wake Disorders",
  "Sexual Dysfunctions",
  "Gender Dysphoria",
  "Personality Disorders",
  "Neurocognitive Disorders",
  "Child Psychiatry",
  "Geriatric Psychiatry",
  "Consultation-Liaison",
  "Emergency Psychiatry",
  "Forensic Psychiatry",
  "Community Psychiatry",
  "Cultural Psychiatry",
  "Research Methods",
  "Psychopharmacology",
  "Neurodevelopmental Disorders",
  "Disruptive Disorders",
  "Other",
] as const;
export type Category = (typeof CATEGORIES)[number];

/** Label for questions and reviews whose category is empty. */
export const UNCATEGORIZED = "Uncategorized";

export const PGY_LEVELS = [
  { value: "1", label: "PGY-1" },
  { value: "2", label: "PGY-2" },
  { value: "3", label: "PGY-3" },
  { value: "4", label: "PGY-4" },
  { value: "5", label: "PGY-5" },
  { value: "6+", label: "PGY-6+" },
  { value: "Fellow", label: "Fellow" },
  { value: "Attending", label: "Attending" },
  { value: "Other", label: "Other" },
] as const;
export const PGY_LEVEL_VALUES = [
  "1",
  "2",
  "3",
  "4",
  "5",
  "6+",
  "Fellow",
  "Attending",
  "Other",
] as const;
export type PgyLevel = (typeof PGY_LEVEL_VALUES)[number];

/** Label shown for a stored PGY value; unknown or empty values read 'Not specified' (docs/product/constants.md). */
export function pgyLabel(value: string | null | undefined): string {
  return PGY_LEVELS.find((l) => l.value === value)?.label ?? "Not specified";
}

export const SPECIALTIES = [
  "Psychiatry",
  "Psychiatry/Neurology",
  "Child Psychiatry",
  "Addiction Psychiatry",
  "Forensic Psychiatry",
  "Other",
] as const;
export type Specialty = (typeof SPECIALTIES)[number];

export const QUESTION_TYPES = ["standard", "fourOptions", "multipleCorrect"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/**
 * A flashcard (issue 17): a front and a back, rated by the resident (Again/Hard/Good/Easy) rather than
 * checked against options. Stored in the same questions table with this question_type; never in exams.
 */
export const FLASHCARD = "flashcard" as const;
export type StoredQuestionType = QuestionType | typeof FLASHCARD;

export const OPTION_LETTERS = [
  "A",
  "B",
  "C",
  "D",
  "E",
  "F",
  "G",
  "H",
  "I",
  "J",
  "K",
  "L",
  "M",
  "N",
  "O",
] as const;
export type OptionLetter = (typeof OPTION_LETTERS)[number];

/** Imports and answer keys only know five options. */
export const IMPORT_LETTERS = ["A", "B", "C", "D", "E"] as const;
export type ImportLetter = (typeof IMPORT_LETTERS)[number];

export const OPTION_COUNT_BY_TYPE: Readonly<Record<QuestionType, number>> = {
  standard: 5,
  fourOptions: 4,
  multipleCorrect: 15,
};

/** The option letters the editor shows (and the server keeps) for a question type. */
export function optionLettersFor(type: QuestionType): readonly OptionLetter[] {
  return OPTION_LETTERS.slice(0, OPTION_COUNT_BY_TYPE[type]);
}

export function isOptionLetter(value: unknown): value is OptionLetter {
  return typeof value === "string" && (OPTION_LETTERS as readonly string[]).includes(value);
}

export const PRITE_PARTS = ["1", "2"] as const;
export type PritePart = (typeof PRITE_PARTS)[number];

export const DIFFICULTY = { HARD: 0, MEDIUM: 1, EASY: 2 } as const;
export type Difficulty = (typeof DIFFICULTY)[keyof typeof DIFFICULTY];
export const DIFFICULTY_LABELS: Readonly<Record<Difficulty, string>> = {
  0: "Hard",
  1: "Medium",
  2: "Easy",
};

export const MULTIPLE_CORRECT_DEFAULT_INSTRUCTIONS = "Select the THREE correct answers.";
export const MULTIPLE_CORRECT_DEFAULT_COUNT = 3;
export const NUM_CORRECT_ANSWERS_MIN = 1;
export const NUM_CORRECT_ANSWERS_MAX = 15;

// Timing of the interface (docs/product/constants.md).
export const ALERT_AUTO_CLOSE_MS = 5000;
export const SUCCESS_CLOSE_DELAY_MS = 1500;
export const RELOAD_DELAY_MS = 1500;

// Study statistics (docs/product/states.md and constants.md).
export const RECENT_PERFORMANCE_LIMIT = 10;
export const CATEGORY_EXTREMES_COUNT = 3;
export const CATEGORY_EXTREMES_MIN_ANSWERS = 5;
export const STREAK_MAX_BARS = 5;
export const DASHBOARD_TOP_CATEGORIES = 3;
export const REVIEW_JUMP_BUTTONS = 10;

// Spaced repetition (docs/product/scheduling.md).
export const INITIAL_EASE = 2.5;
export const MIN_EASE = 1.3;
/** Strictly above this ease a question counts as mastered (docs/product/constants.md). */
export const MASTERED_EASE = 2.5;
/**
 * Longest interval, as Anki's default: SM-2 alone grows without bound, and a card rated many times
 * (or a REST client rating in a loop) would otherwise be scheduled past the year 9999, which the
 * database cannot store.
 */
export const MAX_INTERVAL_DAYS = 36_500;

export const DUPLICATE_DETECTION = {
  TEXT_THRESHOLD: 0.7,
  OPTION_THRESHOLD: 0.6,
  MAX_OPTION_POINTS: 2,
  MIN_POINTS: 2,
  TOP_MATCHES: 3,
  DUPLICATE_SCORE: 0.8,
  TEXT_WEIGHT: 0.6,
  OPTION_WEIGHT: 0.4,
  CROSS_PART: false,
  // docs/product/constants.md's "yields to the interface every 10 questions" has no constant: the check runs on the
  // server in batches and the screen awaits each one (docs/decisions/071-duplicate-check-screen.md).
  /** Characters of the matched question's text shown as the 'existing' preview (docs/product/constants.md). */
  PREVIEW_CHARS: 50,
} as const;

export const PERCENTILE_MIN = 0;
export const PERCENTILE_MAX = 99;
export const PERCENTILE_BANDS = { SUCCESS: 80, PRIMARY: 50, WARNING: 30 } as const;

/** Rankings are shown only when at least this many other users are in the cohort (docs/product/product-decisions.md). */
export const RANKING_MIN_COHORT = 5;
export const ACTIVE_USER_DAYS = 30;

// Study pool (docs/product/product-decisions.md).
export const DUE_PAGE = { DEFAULT: 50, MAX: 500 } as const;

/**
 * Offline answers sent by `study.sync` (issue 18): at most BATCH per call; an answer is accepted when it
 * was given within MAX_AGE_DAYS and not later than the server's clock plus CLOCK_SKEW_MS (a phone's
 * clock runs a little ahead of the server's without anything being wrong).
 */
export const SYNC = { BATCH: 200, MAX_AGE_DAYS: 30, CLOCK_SKEW_MS: 5 * 60_000 } as const;

/** How many of the next due questions the app keeps for studying offline (issue 18: at least 200). */
export const OFFLINE_COPY_SIZE = 250;
export const PUBLIC_NEW_IN_DUE_LIMIT = 20;
/** Longer answers are stored as this: a tab left open overnight is not an hour of study. */
export const MAX_TIME_SPENT_MS = 3_600_000;

export const LIMITS = {
  QUESTION_TEXT: 10_000,
  OPTION: 2_000,
  EXPLANATION: 20_000,
  INSTRUCTIONS: 1_000,
  CATEGORY: 100,
  NOTES: 5_000,
  USERNAME_MIN: 3,
  USERNAME_MAX: 32,
  PASSWORD_MIN: 8,
  PASSWORD_MAX: 256,
  EMAIL: 254,
  DISPLAY_NAME: 100,
  INSTITUTION: 200,
  SECTION_NAME: 100,
  SECTIONS: 50,
  BULK_QUESTIONS: 5_000,
  /** A flashcard side, as sanitized HTML (issue 17). */
  FLASHCARD_SIDE: 20_000,
  /** Where a question came from, e.g. an Anki deck's name. */
  SOURCE: 200,
} as const;

export const BULK_IMPORT = {
  DEFAULT_FORMAT: "standard",
  DEFAULT_HEADER_ROW: 0,
  HEADER_ROWS_OFFERED: 5,
  ROWS_READ_FOR_PREVIEW: 10,
  PREVIEW_DATA_ROWS: 5,
  REVIEW_QUESTIONS_SHOWN: 10,
  FILE_EXTENSIONS: [".csv", ".xls", ".xlsx"],
} as const;

/** First year offered by every year picker (docs/product/product-decisions.md). */
export const FIRST_CHOICE_YEAR = 2020;
/** Oldest year the server accepts. */
export const FIRST_ACCEPTED_YEAR = 2000;

/**
 * Year picker choices, newest first: the current year back to 2020 (docs/product/product-decisions.md replaces the spec's
 * various 2020-2024 and "current and 4 before" lists). `extraYear` (an edited question's own year) is
 * always offered too. The year is read in the runtime's local time, i.e. the resident's calendar in the
 * browser.
 */
export function yearChoices(now: Date, extraYear?: number | null): number[] {
  const current = Math.max(now.getFullYear(), FIRST_CHOICE_YEAR);
  const years: number[] = [];
  for (let y = current; y >= FIRST_CHOICE_YEAR; y--) years.push(y);
  if (extraYear != null && Number.isInteger(extraYear) && !years.includes(extraYear)) {
    years.push(extraYear);
    years.sort((a, b) => b - a);
  }
  return years;
}

/**
 * Years the server accepts. Next year is allowed so that a resident a few hours ahead of the server's
 * clock on New Year's Eve is not refused.
 */
export function acceptedYearRange(now: Date): { min: number; max: number } {
  return { min: FIRST_ACCEPTED_YEAR, max: now.getFullYear() + 1 };
}

/** The message for a year outside {@link acceptedYearRange}, or null when it is accepted. */
export function yearRangeError(year: number, now: Date): string | null {
  const { min, max } = acceptedYearRange(now);
  return Number.isInteger(year) && year >= min && year <= max
    ? null
    : `Year must be between ${min} and ${max}`;
}

/** Images shown with questions (issue 17). */
export const MEDIA = {
  MAX_BYTES: 5 * 1024 * 1024,
  TYPES: ["image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"],
} as const;
export type MediaType = (typeof MEDIA.TYPES)[number];
