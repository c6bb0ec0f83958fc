/**
 * A question's edit history (issue 36 item 4, docs/product/history.md, decisions 385-389): the fields a
 * version keeps, and the differences between two versions as the History view and REST show them.
 * Pure: the server lists versions, the browser shows them.
 */
import { visibilityOf, type QuestionVisibility } from "./visibility";

/**
 * The tracked fields of a question, as the trigger on questions writes them (question_snapshot() in
 * drizzle's question_versions_trigger migration): every field a resident sees or studies against, and
 * its visibility. `updatedAt`, the search text and the creator are not versions of the question.
 */
export interface QuestionSnapshot {
  text: string;
  back: string;
  options: Record<string, string>;
  correctAnswer: string;
  correctAnswers: string[];
  numCorrectAnswers: number;
  questionType: string;
  instructions: string;
  explanation: string;
  generatedExplanation: string;
  category: string;
  part: string;
  year: number;
  number: number | null;
  source: string;
  isPublic: boolean;
  programId: string | null;
  shareStatement: string;
  reserved: boolean;
}

/** The fields a restore brings back: everything but who sees the question (decision 387). */
export const RESTORED_FIELDS = [
  "text",
  "back",
  "options",
  "correctAnswer",
  "correctAnswers",
  "numCorrectAnswers",
  "questionType",
  "instructions",
  "explanation",
  "generatedExplanation",
  "category",
  "part",
  "year",
  "number",
  "source",
] as const satisfies readonly (keyof QuestionSnapshot)[];

/** One difference between a version and the one before it, in words a user reads. */
export interface FieldChange {
  /** A stable key: a snapshot field, `key` (the answer), `option:A`, or `visibility`. */
  field: string;
  label: string;
  before: string;
  after: string;
}

export const HISTORY_TEXTS = {
  NONE: "(none)",
  EMPTY: "(empty)",
  VISIBILITY: {
    private: "Private",
    program: "Program",
    public: "Public",
  } satisfies Record<QuestionVisibility, string>,
  TYPE: {
    standard: "Multiple choice (A-E)",
    fourOptions: "Multiple choice (A-D)",
    multipleCorrect: "Several correct answers",
    flashcard: "Flashcard",
  } as Record<string, string>,
} as const;

/** The answer key in one string: "B", "A, C", or "(none)". */
export function answerKeyOf(s: Pick<QuestionSnapshot, "correctAnswer" | "correctAnswers">): string {
  const letters = s.correctAnswers.length > 0 ? [...s.correctAnswers].sort() : [s.correctAnswer];
  const shown = letters.filter((l) => l !== "");
  return shown.length > 0 ? shown.join(", ") : HISTORY_TEXTS.NONE;
}

const shownText = (v: string): string => (v.trim() === "" ? HISTORY_TEXTS.EMPTY : v);
const yesNo = (v: boolean): string => (v ? "Yes" : "No");

interface Rule {
  field: string;
  label: (s: QuestionSnapshot) => string;
  show: (s: QuestionSnapshot) => string;
}

const FLASHCARD = "flashcard";

/** The differences a user reads, in the order the edit dialog shows the fields. */
const RULES: readonly Rule[] = [
  {
    field: "text",
    label: (s) => (s.questionType === FLASHCARD ? "Front" : "Question"),
    show: (s) => shownText(s.text),
  },
  { field: "back", label: () => "Back", show: (s) => shownText(s.back) },
  {
    field: "questionType",
    label: () => "Type",
    show: (s) => HISTORY_TEXTS.TYPE[s.questionType] ?? s.questionType,
  },
  { field: "instructions", label: () => "Instructions", show: (s) => shownText(s.instructions) },
  { field: "key", label: () => "Answer key", show: answerKeyOf },
  {
    field: "numCorrectAnswers",
    label: () => "Number of correct answers",
    show: (s) => String(s.numCorrectAnswers),
  },
  { field: "explanation", label: () => "Explanation", show: (s) => shownText(s.explanation) },
  {
    field: "generatedExplanation",
    label: () => "Saved AI explanation",
    show: (s) => shownText(s.generatedExplanation),
  },
  { field: "category", label: () => "Category", show: (s) => shownText(s.category) },
  { field: "part", label: () => "Part", show: (s) => s.part },
  { field: "year", label: () => "Year", show: (s) => String(s.year) },
  {
    field: "number",
    label: () => "Question number",
    show: (s) => (s.number === null ? HISTORY_TEXTS.NONE : String(s.number)),
  },
  { field: "source", label: () => "Source", show: (s) => shownText(s.source) },
  {
    field: "visibility",
    label: () => "Visibility",
    show: (s) => HISTORY_TEXTS.VISIBILITY[visibilityOf(s)],
  },
  {
    field: "shareStatement",
    label: () => "Share statement",
    show: (s) => shownText(s.shareStatement),
  },
  {
    field: "reserved",
    label: () => "Reserved for assessments",
    show: (s) => yesNo(s.reserved),
  },
];

function optionLetters(a: QuestionSnapshot, b: QuestionSnapshot): string[] {
  const letters = new Set([...Object.keys(a.options ?? {}), ...Object.keys(b.options ?? {})]);
  return [...letters].sort();
}

/**
 * What changed from `before` to `after`, field by field (options letter by letter). A change of the
 * program a program question belongs to shows as no change of visibility's level: the level is what
 * users choose, and a program id means nothing to them.
 */
export function diffSnapshots(before: QuestionSnapshot, after: QuestionSnapshot): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const rule of RULES) {
    const was = rule.show(before);
    const now = rule.show(after);
    if (was !== now) {
      changes.push({ field: rule.field, label: rule.label(after), before: was, after: now });
    }
    if (rule.field === "text") {
      for (const letter of optionLetters(before, after)) {
        const o = before.options?.[letter] ?? "";
        const n = after.options?.[letter] ?? "";
        if (o !== n) {
          changes.push({
            field: `option:${letter}`,
            label: `Option ${letter}`,
            before: shownText(o),
            after: shownText(n),
          });
        }
      }
    }
  }
  return changes;
}

/** A stored version, as the history lists it. */
export interface StoredVersion {
  version: number;
  snapshot: QuestionSnapshot;
}

/** Each version with its differences from the one before it (none for the first), oldest first. */
export function versionChanges<V extends StoredVersion>(
  versions: readonly V[],
): (V & { changes: FieldChange[] })[] {
  const ordered = [...versions].sort((a, b) => a.version - b.version);
  return ordered.map((v, i) => ({
    ...v,
    changes: i === 0 ? [] : diffSnapshots(ordered[i - 1]!.snapshot, v.snapshot),
  }));
}

/** Whether restoring `target` over `current` would change anything a restore brings back. */
export function restoreChangesSomething(
  current: QuestionSnapshot,
  target: QuestionSnapshot,
): boolean {
  return RESTORED_FIELDS.some((f) => canonical(current[f]) !== canonical(target[f]));
}

/** JSON with object keys sorted: jsonb keeps its own key order. */
function canonical(v: unknown): string {
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v ?? null);
}

export const HISTORY_MESSAGES = {
  NOT_YOURS: "Only the question's owner, and the directors of its program, can see its history",
  RESTORE_NOT_YOURS:
    "Only the question's owner, and the directors of its program, can restore a version",
  VERSION_NOT_FOUND: "That version of the question does not exist",
  NOTHING_TO_RESTORE: "The question already reads as that version",
  OTHER_KIND: "That version is of another kind of question: a flashcard stays a flashcard",
  RESTORED: (version: number) => `Version ${version} restored`,
} as const;
