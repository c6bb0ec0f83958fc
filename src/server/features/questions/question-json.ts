import {
  and,
  asc,
  eq,
  getTableColumns,
  inArray,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from "drizzle-orm";
import { visibilityOf, type QuestionVisibility } from "../../../core/visibility";
import type { Db } from "../../db/client";
import {
  questionMedia,
  questionReports,
  questions,
  studyStates,
  users,
  type QuestionRow,
  type StudyStateRow,
} from "../../db/schema";

/** The caller's own study entry (docs/product/product-decisions.md: never other users' progress). */
export interface StudyDataJson {
  user: string;
  easeFactor: number;
  interval: number;
  repetitions: number;
  lapses: number;
  nextReview: string | null;
  lastReviewed: string | null;
}

/** The Question in docs/product/data.md as every surface returns it. */
export interface QuestionJson {
  _id: string;
  /**
   * The author's user id for the author, and for others only when the author's Public Profile is on;
   * null otherwise, so an anonymous author's questions cannot be linked together (issue 24).
   */
  creator: string | null;
  /** Username of the creator when their Public Profile is on, 'Anonymous' otherwise; own questions: own name. */
  contributor: string;
  text: string;
  options: Record<string, string>;
  correctAnswer: string;
  correctAnswers: string[];
  numCorrectAnswers: number;
  /** standard, fourOptions, multipleCorrect, or flashcard (issue 17: `text` is its front). */
  questionType: string;
  /** A flashcard's back, sanitized HTML; '' for multiple choice. */
  back: string;
  /** Where the question came from (an Anki deck's name), '' for none. */
  source: string;
  /** The images the question shows (SHA-256 keys, served at /api/media/<key>), in order. */
  images: string[];
  instructions: string;
  explanation: string;
  generatedExplanation: string;
  category: string;
  part: string;
  year: number;
  number: number | null;
  /** True only for public questions (the original clients' field). */
  isPublic: boolean;
  /** private, program or public (docs/product/visibility.md). */
  visibility: QuestionVisibility;
  createdAt: string;
  updatedAt: string;
  studyData: StudyDataJson[];
  /**
   * Issue 36, decision 381: the question has open "wrong answer" reports, and readers are told
   * "Reported: the key may be wrong" with the first report's comment; null without one.
   */
  reported: ReportedNotice | null;
  /** When copyright reports took it out of public view (decision 382); null when never, or restored. */
  takenDownAt: string | null;
}

/** The notice of open wrong-answer reports on a question (decision 381). */
export interface ReportedNotice {
  /** How many open wrong-answer reports it has. */
  count: number;
  /** The first one's comment. */
  comment: string;
  reportedAt: string;
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
  opts: {
    viewerId: string;
    creator?: CreatorInfo | null;
    studyState?: StudyStateRow | null;
    images?: string[];
    reported?: ReportedNotice | null;
  },
): QuestionJson {
  const own = row.creatorId === opts.viewerId;
  const named = own || opts.creator?.publicProfile === true;
  const contributor = opts.creator && named ? opts.creator.username : "Anonymous";
  return {
    _id: row.id,
    creator: named ? row.creatorId : null,
    contributor,
    text: row.text,
    options: row.options,
    correctAnswer: row.correctAnswer,
    correctAnswers: row.correctAnswers,
    numCorrectAnswers: row.numCorrectAnswers,
    questionType: row.questionType,
    back: row.back,
    source: row.source,
    images: opts.images ?? [],
    instructions: row.instructions,
    explanation: row.explanation,
    generatedExplanation: row.generatedExplanation,
    category: row.category,
    part: row.part,
    year: row.year,
    number: row.number,
    isPublic: row.isPublic,
    visibility: visibilityOf(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    studyData: opts.studyState ? [toStudyDataJson(opts.studyState)] : [],
    reported: opts.reported ?? null,
    takenDownAt: row.takenDownAt ? row.takenDownAt.toISOString() : null,
  };
}

/** An ISO time as `Date.prototype.toISOString` writes it, from a timestamptz column. */
const isoTime = (column: SQL | unknown) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `toQuestionJson` built by PostgreSQL, for the due list (issue 8): the page arrives as ready JSON, with
 * no row mapping in Node. Reads `questions`, the creator as `users` and — `withState` — the viewer's
 * state as `study_states` (null when the viewer has none) from the query it is used in; without it the
 * question has no state (a never-studied one). Held equal to `toQuestionJson` by question-json.test.ts.
 */
export function questionJsonSql(
  viewer: SQL | SQLWrapper,
  opts: { withState: boolean } = { withState: true },
): SQL<QuestionJson> {
  const studyData = opts.withState
    ? sql`case when ${studyStates.userId} is null then '[]'::json else json_build_array(json_build_object(
      'user', ${studyStates.userId}, 'easeFactor', ${studyStates.easeFactor},
      'interval', ${studyStates.intervalDays}, 'repetitions', ${studyStates.repetitions},
      'lapses', ${studyStates.lapses},
      'nextReview', ${isoTime(studyStates.dueAt)}, 'lastReviewed', ${isoTime(studyStates.lastReviewedAt)}
    )) end`
    : sql`'[]'::json`;
  // row_to_json of a subselect rather than json_build_object: the same object, and 7–17% faster for a
  // due page in pgbench (json_build_object works out each argument's type again for every row).
  return sql<QuestionJson>`(select row_to_json(question) from (select
    ${questions.id} as "_id",
    case when ${questions.creatorId} = ${viewer} or ${users.publicProfile}
      then ${questions.creatorId} end as "creator",
    case when ${questions.creatorId} = ${viewer} or ${users.publicProfile}
      then ${users.username} else 'Anonymous' end as "contributor",
    ${questions.text} as "text", ${questions.options} as "options",
    ${questions.correctAnswer} as "correctAnswer", ${questions.correctAnswers} as "correctAnswers",
    ${questions.numCorrectAnswers} as "numCorrectAnswers", ${questions.questionType} as "questionType",
    ${questions.back} as "back", ${questions.source} as "source",
    coalesce((select json_agg(${questionMedia.sha256} order by ${questionMedia.position})
      from ${questionMedia} where ${questionMedia.questionId} = ${questions.id}), '[]'::json) as "images",
    ${questions.instructions} as "instructions", ${questions.explanation} as "explanation",
    ${questions.generatedExplanation} as "generatedExplanation", ${questions.category} as "category",
    ${questions.part} as "part", ${questions.year} as "year", ${questions.number} as "number",
    ${questions.isPublic} as "isPublic",
    case when ${questions.isPublic} then 'public' when ${questions.programId} is not null then 'program'
      else 'private' end as "visibility",
    ${isoTime(questions.createdAt)} as "createdAt", ${isoTime(questions.updatedAt)} as "updatedAt",
    ${studyData} as "studyData",
    ${reportedNoticeSql()} as "reported",
    ${isoTime(questions.takenDownAt)} as "takenDownAt"
  ) as question)`;
}

/**
 * The question's notice (decision 381) as a JSON subquery of a statement over questions: null when it
 * has no open wrong-answer report. Statements that build one question's JSON in SQL share it.
 */
export function reportedNoticeSql(): SQL<ReportedNotice | null> {
  return sql<ReportedNotice | null>`(select json_build_object('count', count(*)::int,
        'comment', (array_agg(${questionReports.comment} order by ${questionReports.createdAt}, ${questionReports.id}))[1],
        'reportedAt', ${isoTime(sql`min(${questionReports.createdAt})`)})
      from ${questionReports} where ${questionReports.questionId} = ${questions.id}
        and ${questionReports.status} = 'open' and ${questionReports.kind} = 'wrong_answer'
      having count(*) > 0)`;
}

/** The images each question shows, in order; questions without any are absent. */
export async function imagesByQuestion(
  db: Db,
  questionIds: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (let start = 0; start < questionIds.length; start += 5000) {
    const rows = await db
      .select({ questionId: questionMedia.questionId, sha256: questionMedia.sha256 })
      .from(questionMedia)
      .where(inArray(questionMedia.questionId, questionIds.slice(start, start + 5000)))
      .orderBy(asc(questionMedia.questionId), asc(questionMedia.position));
    for (const r of rows) {
      const list = out.get(r.questionId);
      if (list) list.push(r.sha256);
      else out.set(r.questionId, [r.sha256]);
    }
  }
  return out;
}

/**
 * The notices of a page of questions (decision 381), in one statement over the partial index of open
 * wrong-answer reports: almost every question has none, so the lookup reads almost nothing.
 */
export async function reportedNotices(
  db: Db,
  questionIds: readonly string[],
): Promise<Map<string, ReportedNotice>> {
  const out = new Map<string, ReportedNotice>();
  for (let start = 0; start < questionIds.length; start += 5000) {
    const rows = await db
      .select({
        questionId: questionReports.questionId,
        comment: questionReports.comment,
        createdAt: questionReports.createdAt,
      })
      .from(questionReports)
      .where(
        and(
          inArray(questionReports.questionId, questionIds.slice(start, start + 5000)),
          eq(questionReports.status, "open"),
          eq(questionReports.kind, "wrong_answer"),
        ),
      )
      .orderBy(
        asc(questionReports.questionId),
        asc(questionReports.createdAt),
        asc(questionReports.id),
      );
    for (const r of rows) {
      const seen = out.get(r.questionId);
      if (seen) seen.count += 1;
      else
        out.set(r.questionId, {
          count: 1,
          comment: r.comment,
          reportedAt: r.createdAt.toISOString(),
        });
    }
  }
  return out;
}

/**
 * The viewer's program and whether they direct it, as scalar subqueries of the statement they are used
 * in: PostgreSQL runs each once per statement (an InitPlan), and they read the users table as that
 * statement's snapshot sees it, so leaving a program hides its bank at once, on every process, with
 * nothing kept between requests (decision 350).
 */
export function viewerProgramSql(userId: SQL | SQLWrapper | string): SQL {
  return sql`(select ${users.programId} from ${users} where ${users.id} = ${userId})`;
}
export function viewerDirectsSql(userId: SQL | SQLWrapper | string): SQL {
  return sql`(select ${users.programRole} = 'director' from ${users} where ${users.id} = ${userId})`;
}

/**
 * A question of the viewer's program's bank they may see: not public, of their program, and not
 * reserved for assessments unless they direct the program. Written so that PostgreSQL proves the
 * predicate of questions_program_created_idx (program_id is not null and not is_public).
 */
export function programBankOf(userId: SQL | SQLWrapper | string): SQL {
  return sql`(not ${questions.isPublic} and ${questions.programId} = ${viewerProgramSql(userId)}
    and (not ${questions.reserved} or coalesce(${viewerDirectsSql(userId)}, false)))`;
}

/**
 * The one rule of who sees a question (docs/product/visibility.md): its creator; everyone when it is
 * public; the current members of its program when it is a program's (reserved ones: the program's
 * directors). A server admin sees what any user sees: public and own, never another program's bank
 * (decision 351). Still a function of the user id alone: the viewer's program is read in the same
 * statement (decision 350).
 */
export function visibleTo(userId: string): SQL {
  return or(eq(questions.creatorId, userId), eq(questions.isPublic, true), programBankOf(userId))!;
}

export function ownedBy(userId: string, questionId: string): SQL {
  return and(eq(questions.creatorId, userId), eq(questions.id, questionId))!;
}
