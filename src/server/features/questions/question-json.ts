import { and, eq, getTableColumns, or, type SQL } from "drizzle-orm";
import { questions, type QuestionRow, type StudyStateRow } from "../../db/schema";

/** The caller's own study entry (DESIGN §7: never other users' progress). */
export interface StudyDataJson {
  user: string;
  easeFactor: number;
  interval: number;
  repetitions: number;
  lapses: number;
  nextReview: string | null;
  lastReviewed: string | null;
}

/** The Question of SPEC §3 as every surface returns it. */
export interface QuestionJson {
  _id: string;
  creator: string;
  /** Username of the creator when their Public Profile is on, 'Anonymous' otherwise; own questions: own name. */
  contributor: string;
  text: string;
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
  isPublic: boolean;
  createdAt: string;
  updatedAt: string;
  studyData: StudyDataJson[];
}

export interface CreatorInfo {
  username: string;
  publicProfile: boolean;
}

export function toStudyDataJson(state: StudyStateRow): StudyDataJson {
  return {
    user: state.userId,
    easeFactor: state.easeFactor,
    interval: state.intervalDays,
    repetitions: state.repetitions,
    lapses: state.lapses,
    nextReview: state.dueAt ? state.dueAt.toISOString() : null,
    lastReviewed: state.lastReviewedAt ? state.lastReviewedAt.toISOString() : null,
  };
}

/**
 * Every column of a question but the generated search text (the text, options and explanation again,
 * lower-cased): what reads select, so rows are not sent and parsed twice.
 */
const { searchText: _searchText, ...columns } = getTableColumns(questions);
export const questionColumns = columns;
export type StoredQuestion = Omit<QuestionRow, "searchText">;

export function toQuestionJson(
  row: StoredQuestion,
  opts: { viewerId: string; creator?: CreatorInfo | null; studyState?: StudyStateRow | null },
): QuestionJson {
  const own = row.creatorId === opts.viewerId;
  const contributor = opts.creator
    ? own || opts.creator.publicProfile
      ? opts.creator.username
      : "Anonymous"
    : "Anonymous";
  return {
    _id: row.id,
    creator: row.creatorId,
    contributor,
    text: row.text,
    options: row.options,
    correctAnswer: row.correctAnswer,
    correctAnswers: row.correctAnswers,
    numCorrectAnswers: row.numCorrectAnswers,
    questionType: row.questionType,
    instructions: row.instructions,
    explanation: row.explanation,
    generatedExplanation: row.generatedExplanation,
    category: row.category,
    part: row.part,
    year: row.year,
    number: row.number,
    isPublic: row.isPublic,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    studyData: opts.studyState ? [toStudyDataJson(opts.studyState)] : [],
  };
}

/** The one rule of who sees a question: its creator, or everyone when it is public. */
export function visibleTo(userId: string): SQL {
  return or(eq(questions.creatorId, userId), eq(questions.isPublic, true))!;
}

export function ownedBy(userId: string, questionId: string): SQL {
  return and(eq(questions.creatorId, userId), eq(questions.id, questionId))!;
}
