/** The limits and fixed words of practice exams (issue 16), shared by the server, the CLI and the SPA. */

export const EXAM_LIMITS = {
  SIZE_MIN: 5,
  SIZE_MAX: 150,
  SIZE_DEFAULT: 40,
  /** The PRITE's pace, 90 s per question, changeable within 30-180 s. */
  SECONDS_MIN: 30,
  SECONDS_MAX: 180,
  SECONDS_DEFAULT: 90,
  /**
   * Answers sent this long after a timed exam's deadline are still taken: the click at 0:00 must not
   * be lost to the network. The server submits an expired exam only after the grace, for the same reason.
   */
  GRACE_MS: 5_000,
  CATEGORIES_MAX: 100,
} as const;

export const EXAM_MODES = ["tutor", "timed"] as const;
export type ExamMode = (typeof EXAM_MODES)[number];

export const EXAM_PARTS = ["1", "2", "both"] as const;
export type ExamPart = (typeof EXAM_PARTS)[number];

/** unused: never answered in study or an earlier exam; incorrect: the last answer was wrong. */
export const EXAM_POOLS = ["unused", "incorrect", "flagged", "all"] as const;
export type ExamPool = (typeof EXAM_POOLS)[number];

/** in_progress; submitted by the taker; expired: submitted by the server when the time ran out. */
export const EXAM_STATUSES = ["in_progress", "submitted", "expired"] as const;
export type ExamStatus = (typeof EXAM_STATUSES)[number];

export const REVIEW_FILTERS = ["all", "incorrect", "flagged", "unanswered"] as const;
export type ReviewFilter = (typeof REVIEW_FILTERS)[number];

// Join codes live in src/core/join-code.ts (programs use them too); re-exported for the exam code.
export {
  JOIN_CODE_ALPHABET,
  JOIN_CODE_LENGTH,
  joinCodeFrom,
  normalizeJoinCode,
  randomJoinCode,
} from "../join-code";

/** Milliseconds left before a timed exam's deadline (never negative); null for an untimed exam. */
export function remainingMs(endsAt: Date | null, now: Date): number | null {
  if (!endsAt) return null;
  return Math.max(0, endsAt.getTime() - now.getTime());
}

/** Whether an answer arriving at `now` is too late: past the deadline and its grace. */
export function pastDeadline(endsAt: Date | null, now: Date): boolean {
  return endsAt !== null && now.getTime() > endsAt.getTime() + EXAM_LIMITS.GRACE_MS;
}

/** RFC 4180 CSV: fields with a comma, quote or line break are quoted, quotes doubled; CRLF lines. */
export function toCsv(rows: readonly (readonly (string | number | null)[])[]): string {
  const field = (value: string | number | null) => {
    let text = value === null ? "" : String(value);
    // A text cell starting like a formula would run as one in a spreadsheet (CSV injection).
    if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return rows.map((row) => row.map(field).join(",")).join("\r\n") + "\r\n";
}
