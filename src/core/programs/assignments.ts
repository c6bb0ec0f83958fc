/**
 * Program assignments (issue 32, docs/product/assignments.md): the inputs the server, the CLI and the
 * SPA share, and the one rule for a resident's status on an assignment (decision 356).
 */
import { z } from "zod";
import { LIMITS, PGY_LEVEL_VALUES } from "../constants";
import { EXAM_LIMITS, EXAM_MODES, EXAM_PARTS } from "../exams/settings";
import { localDayKey, resolveTimeZone } from "../stats/days";

export const ASSIGNMENT_KINDS = ["exam", "study"] as const;
export type AssignmentKind = (typeof ASSIGNMENT_KINDS)[number];

export const ASSIGNMENT_STATUSES = ["not_started", "in_progress", "done", "late"] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

export const ASSIGNMENT_STATUS_LABELS: Record<AssignmentStatus, string> = {
  not_started: "Not started",
  in_progress: "In progress",
  done: "Done",
  late: "Late",
};

export const ASSIGNMENT_LIMITS = {
  STUDY_COUNT_MIN: 1,
  STUDY_COUNT_MAX: 1000,
  TITLE_MAX: 120,
  IDS_MAX: 1000,
} as const;

export const ASSIGNMENT_MESSAGES = {
  DUE: "Due date must be a date (YYYY-MM-DD) or a date and time",
  DUE_PAST: "The due date must be in the future",
  COUNT: `Number of questions to answer must be a whole number from ${ASSIGNMENT_LIMITS.STUDY_COUNT_MIN} to ${ASSIGNMENT_LIMITS.STUDY_COUNT_MAX}`,
  SIZE: `Number of questions must be a whole number from ${EXAM_LIMITS.SIZE_MIN} to ${EXAM_LIMITS.SIZE_MAX}`,
  SECONDS: `Seconds per question must be a whole number from ${EXAM_LIMITS.SECONDS_MIN} to ${EXAM_LIMITS.SECONDS_MAX}`,
  MODE: "Mode must be tutor or timed",
  PART: "Part must be 1, 2 or both",
  PGY: `PGY class must be one of ${PGY_LEVEL_VALUES.join(", ")}`,
  TITLE: `Title must be at most ${ASSIGNMENT_LIMITS.TITLE_MAX} characters`,
  CATEGORIES: "Categories must be a list of category names",
  ID: "Assignment id must be a valid id",
  PROGRAM_ID: "Program id must be a valid id",
  QUESTION_IDS: `Question ids must be a list of 1 to ${ASSIGNMENT_LIMITS.IDS_MAX} valid ids`,
  CHANGE: "Say what to change: closed: true, or a new due date",
} as const;

const wholeNumber = (min: number, max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
    z.number({ error: message }).int(message).min(min, message).max(max, message),
  );

/** 'YYYY-MM-DD' (the end of that day in the director's time zone) or a full ISO date and time. */
export const ZDueInput = z
  .string({ error: ASSIGNMENT_MESSAGES.DUE })
  .trim()
  .refine(
    (v) =>
      /^\d{4}-\d{2}-\d{2}$/.test(v)
        ? !Number.isNaN(Date.parse(`${v}T00:00:00Z`))
        : /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)),
    ASSIGNMENT_MESSAGES.DUE,
  );

const ZCategories = z
  .array(z.string({ error: ASSIGNMENT_MESSAGES.CATEGORIES }).trim().min(1).max(LIMITS.CATEGORY), {
    error: ASSIGNMENT_MESSAGES.CATEGORIES,
  })
  .max(EXAM_LIMITS.CATEGORIES_MAX, ASSIGNMENT_MESSAGES.CATEGORIES)
  .default([]);

const ZPgy = z
  .enum(PGY_LEVEL_VALUES, { error: ASSIGNMENT_MESSAGES.PGY })
  .nullable()
  .optional()
  .transform((v) => v ?? null);

const common = {
  /** Optional: REST names the program in its path; it must be the caller's own. */
  programId: z.uuid({ error: ASSIGNMENT_MESSAGES.PROGRAM_ID }).optional(),
  title: z
    .string({ error: ASSIGNMENT_MESSAGES.TITLE })
    .trim()
    .max(ASSIGNMENT_LIMITS.TITLE_MAX, ASSIGNMENT_MESSAGES.TITLE)
    .default(""),
  pgyLevel: ZPgy,
  due: ZDueInput,
  categories: ZCategories,
};

export const ZCreateAssignment = z.discriminatedUnion(
  "kind",
  [
    z.object({
      kind: z.literal("exam"),
      ...common,
      size: wholeNumber(EXAM_LIMITS.SIZE_MIN, EXAM_LIMITS.SIZE_MAX, ASSIGNMENT_MESSAGES.SIZE),
      mode: z.enum(EXAM_MODES, { error: ASSIGNMENT_MESSAGES.MODE }).default("timed"),
      part: z.enum(EXAM_PARTS, { error: ASSIGNMENT_MESSAGES.PART }).default("both"),
      secondsPerQuestion: wholeNumber(
        EXAM_LIMITS.SECONDS_MIN,
        EXAM_LIMITS.SECONDS_MAX,
        ASSIGNMENT_MESSAGES.SECONDS,
      ).default(EXAM_LIMITS.SECONDS_DEFAULT),
    }),
    z.object({
      kind: z.literal("study"),
      ...common,
      count: wholeNumber(
        ASSIGNMENT_LIMITS.STUDY_COUNT_MIN,
        ASSIGNMENT_LIMITS.STUDY_COUNT_MAX,
        ASSIGNMENT_MESSAGES.COUNT,
      ),
    }),
  ],
  { error: "Kind must be exam or study" },
);
export type TCreateAssignment = z.output<typeof ZCreateAssignment>;

export const ZAssignmentId = z.uuid({ error: ASSIGNMENT_MESSAGES.ID });

export const ZListAssignments = z
  .object({ programId: z.uuid({ error: ASSIGNMENT_MESSAGES.PROGRAM_ID }).optional() })
  .optional()
  .transform((v) => v ?? {});

/** Close, or extend (a new due date, which also reopens a closed assignment). */
export const ZUpdateAssignment = z
  .object({
    programId: z.uuid({ error: ASSIGNMENT_MESSAGES.PROGRAM_ID }).optional(),
    assignmentId: ZAssignmentId,
    closed: z.literal(true, { error: ASSIGNMENT_MESSAGES.CHANGE }).optional(),
    due: ZDueInput.optional(),
  })
  .refine((v) => (v.closed === true) !== (v.due !== undefined), ASSIGNMENT_MESSAGES.CHANGE);
export type TUpdateAssignment = z.output<typeof ZUpdateAssignment>;

export const ZStartAssignment = z.object({ assignmentId: ZAssignmentId });

/** Marking program questions reserved for assessments, or releasing them (decision 358). */
export const ZReserveQuestions = z.object({
  questionIds: z
    .array(z.uuid({ error: ASSIGNMENT_MESSAGES.QUESTION_IDS }), {
      error: ASSIGNMENT_MESSAGES.QUESTION_IDS,
    })
    .min(1, ASSIGNMENT_MESSAGES.QUESTION_IDS)
    .max(ASSIGNMENT_LIMITS.IDS_MAX, ASSIGNMENT_MESSAGES.QUESTION_IDS),
  reserved: z.boolean({ error: "Reserved must be true or false" }),
});

/** The zone's offset from UTC at an instant, in ms (positive east of Greenwich). */
function offsetMs(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(at));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
  return asUtc - Math.floor(at / 1000) * 1000;
}

/**
 * The instant a due input stands for: a bare date is the last millisecond of that day in `timeZone`
 * (the director's), so "due 2026-12-01" means all of that day where the program is.
 */
export function dueInstant(due: string, timeZone: string): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(due)) return new Date(due);
  const zone = resolveTimeZone(timeZone);
  const [y, m, d] = due.split("-").map(Number) as [number, number, number];
  const nextMidnightUtc = Date.UTC(y, m - 1, d + 1);
  let instant = nextMidnightUtc - offsetMs(zone, nextMidnightUtc);
  // Once more at the guess: across an offset change the first guess is off by the change.
  instant = nextMidnightUtc - offsetMs(zone, instant);
  return new Date(instant - 1);
}

/** The calendar day an instant falls on where the director is (what the CLI and screens print). */
export const dueDay = (dueAt: Date, timeZone: string) => localDayKey(dueAt, timeZone);

/**
 * A resident's status on an assignment (decision 356): done when finished by the due date; late when
 * finished after it, or not finished once it has passed; otherwise not started or in progress.
 * `finishedAt` is the exam's submission (or its deadline) or the moment the study set's count was reached.
 */
export function assignmentStatus(opts: {
  started: boolean;
  finishedAt: Date | null;
  dueAt: Date;
  now: Date;
}): AssignmentStatus {
  const { started, finishedAt, dueAt, now } = opts;
  if (finishedAt) return finishedAt.getTime() <= dueAt.getTime() ? "done" : "late";
  if (now.getTime() > dueAt.getTime()) return "late";
  return started ? "in_progress" : "not_started";
}
