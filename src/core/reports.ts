import { z } from "zod";
import { ZQuestionId } from "./schemas/study";

/**
 * Reports of a problem with a question (issue 36, docs/product/reports.md, decisions 380-384): what a
 * reader may report, what a report's handler may answer, and the product's words for both. Shared by
 * the server, the web app and the CLI.
 */
export const REPORT_KINDS = [
  "wrong_answer",
  "unclear",
  "outdated",
  "duplicate",
  "copyright",
  "other",
] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_KIND_LABELS: Record<ReportKind, string> = {
  wrong_answer: "Wrong answer",
  unclear: "Unclear or ambiguous",
  outdated: "Outdated",
  duplicate: "Duplicate",
  copyright: "Copyright",
  other: "Other",
};

/** open until its handler answers, fixes or dismisses it; each closing may carry a note to the reporter. */
export const REPORT_STATUSES = ["open", "answered", "fixed", "dismissed"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const REPORT_OUTCOMES = ["answered", "fixed", "dismissed"] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

export const REPORT_STATUS_LABELS: Record<ReportStatus, string> = {
  open: "Open",
  answered: "Answered",
  fixed: "Fixed",
  dismissed: "Dismissed",
};

/** The longest comment of a report and note of its handler. */
export const REPORT_COMMENT_MAX = 2000;
/** Open copyright reports from this many different readers take a public question down (decision 382). */
export const TAKEDOWN_REPORTERS = 3;

export const REPORT_MESSAGES = {
  KIND: "Choose what is wrong: wrong answer, unclear, outdated, duplicate, copyright or other",
  COMMENT_LONG: `Keep the comment under ${REPORT_COMMENT_MAX.toLocaleString("en-US")} characters`,
  NOTE_LONG: `Keep the note under ${REPORT_COMMENT_MAX.toLocaleString("en-US")} characters`,
  COMMENT_REQUIRED: "Say what is wrong in a few words",
  ALREADY_OPEN:
    "You have already reported this question; your report is open until its owner answers it",
  NOT_FOUND: "Report not found",
  CLOSED: "This report is already closed",
  NOT_HANDLER:
    "Only the question's owner, its program's directors or, for public questions, an admin can resolve a report",
  OUTCOME: "Choose answered, fixed or dismissed",
  ANSWER_REQUIRED: "Write the answer the reporter will read",
  DECISION: "Choose restore or keep",
  NOT_TAKEN_DOWN: "This question is not waiting for a takedown decision",
  ADMINS_ONLY: "Only an admin can decide on a takedown",
  COPYRIGHT_ADMINS_ONLY:
    "Only an admin can close a copyright report on a public or taken-down question",
  TAKEN_DOWN_PUBLIC:
    "This question was taken down after copyright reports: it stays private until an admin restores it",
} as const;

/** The notice readers see on a question with an open wrong-answer report (decision 381). */
export const REPORTED_NOTICE = "Reported: the key may be wrong";

/** Other spellings clients send for a kind, after case and separators are evened out. */
const KIND_ALIASES: Record<string, ReportKind> = {
  wrong: "wrong_answer",
  wrong_key: "wrong_answer",
  incorrect_answer: "wrong_answer",
  ambiguous: "unclear",
  unclear_or_ambiguous: "unclear",
};

/**
 * A kind as a client may spell it: "wrong_answer", "wrong answer", "Wrong-Answer" and "wrongAnswer"
 * are one kind; anything else is left for the enum to refuse in the product's words.
 */
export function reportKindOf(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  const even = raw
    .trim()
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  return KIND_ALIASES[even] ?? even;
}

export const ZReportKind = z.preprocess(
  reportKindOf,
  z.enum(REPORT_KINDS, { error: REPORT_MESSAGES.KIND }),
);
const ZComment = z.string().trim().max(REPORT_COMMENT_MAX, { error: REPORT_MESSAGES.COMMENT_LONG });
const ZNote = z.string().trim().max(REPORT_COMMENT_MAX, { error: REPORT_MESSAGES.NOTE_LONG });
export const ZReportId = z.uuid({ error: REPORT_MESSAGES.NOT_FOUND });

/** A new report: a kind and a comment ("other" needs the comment to say what). */
export const ZCreateReport = z
  .object({ questionId: ZQuestionId, kind: ZReportKind, comment: ZComment.default("") })
  .refine((r) => r.kind !== "other" || r.comment !== "", {
    error: REPORT_MESSAGES.COMMENT_REQUIRED,
    path: ["comment"],
  });
export type TCreateReport = z.output<typeof ZCreateReport>;

/** Closing a report: answered needs the answer; fixed and dismissed may carry a note. */
export const ZResolveReport = z
  .object({
    id: ZReportId,
    outcome: z.enum(REPORT_OUTCOMES, { error: REPORT_MESSAGES.OUTCOME }),
    note: ZNote.default(""),
  })
  .refine((r) => r.outcome !== "answered" || r.note !== "", {
    error: REPORT_MESSAGES.ANSWER_REQUIRED,
    path: ["note"],
  });
export type TResolveReport = z.output<typeof ZResolveReport>;

export const ZReportQueueQuery = z
  .object({ open: z.boolean().default(false) })
  .optional()
  .transform((q) => q ?? { open: false });

/** An admin's decision on a question taken down for copyright: back to public, or kept private. */
export const ZTakedownDecision = z.object({
  questionId: ZQuestionId,
  decision: z.enum(["restore", "keep"], { error: REPORT_MESSAGES.DECISION }),
  note: ZNote.default(""),
});
export type TTakedownDecision = z.output<typeof ZTakedownDecision>;
