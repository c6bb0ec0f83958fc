import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { RANKING_MIN_COHORT } from "../../../core/constants";
import { scoreExam, type CategoryResult, type ReviewFilter } from "../../../core/exams";
import { answerState as answerStateAfter } from "../../../core/srs/schedule";
import { categoryLabel, percent } from "../../../core/stats";
import type { Db } from "../../db/client";
import { reviews, users, type ExamRow } from "../../db/schema";
import { answerCountsByUser } from "../stats/answer-log";
import { imagesByQuestion } from "../questions/question-json";
import { findVisibleQuestion } from "../questions/question-access";
import { logReview, saveState, schedulerSettings } from "../study/study-writer.service";
import { examItems, feedbackOf } from "./exam-answers.service";
import { examSummary, loadFinishedExam, type ExamSummary } from "./exams.service";

export const NOT_ENOUGH_COHORT = `Not enough data: fewer than ${RANKING_MIN_COHORT} other users who share usage data have answered this category.`;

export interface ReportCategory extends CategoryResult {
  /** The caller's spaced-repetition accuracy in the category (study reviews only); null before any. */
  studyAccuracy: number | null;
  /** Mean accuracy of the other users who share usage data, when at least 5 answered the category. */
  cohortMean: number | null;
  cohortUsers: number;
  /** Why there is no cohort mean; null when there is one. */
  cohortNote: string | null;
}

export interface ExamReport {
  exam: ExamSummary;
  correct: number;
  answered: number;
  total: number;
  percent: number;
  /** Timed: from the start to submission (at most the time allowed); tutor: the time on the questions. */
  timeUsedMs: number;
  averageMsPerQuestion: number;
  categories: ReportCategory[];
  slowestCategory: string | null;
  mostMissedCategory: string | null;
}

function timeUsedMs(exam: ExamRow, onQuestions: number): number {
  // A tutor exam may be paused for days: only the time spent on its questions is time used.
  if (exam.mode === "tutor" || !exam.submittedAt) return onQuestions;
  return Math.max(0, exam.submittedAt.getTime() - exam.startedAt.getTime());
}

/** Per category label: the caller's study accuracy and the cohort's mean accuracy (decision 170). */
async function comparisons(db: Db, userId: string, labels: string[]) {
  const stored = [...new Set(labels.flatMap((l) => (l === categoryLabel("") ? [l, ""] : [l])))];
  const study = await db
    .select({
      category: reviews.category,
      answered: sql<number>`count(*)::int`,
      correct: sql<number>`count(*) filter (where ${reviews.isCorrect})::int`,
    })
    .from(reviews)
    .where(and(eq(reviews.userId, userId), isNull(reviews.examId)))
    .groupBy(reviews.category);
  const studyBy = new Map<string, { answered: number; correct: number }>();
  for (const row of study) {
    const label = categoryLabel(row.category);
    const entry = studyBy.get(label) ?? { answered: 0, correct: 0 };
    entry.answered += Number(row.answered);
    entry.correct += Number(row.correct);
    studyBy.set(label, entry);
  }
  const cohort = await answerCountsByUser(db, {
    who: and(eq(users.shareUsageData, true), ne(users.id, userId))!,
    byCategory: true,
    categories: stored,
  });
  // Per label and user, then the mean of the users' own accuracies: each resident counts once.
  const perUser = new Map<string, Map<string, { answered: number; correct: number }>>();
  for (const row of cohort) {
    const label = categoryLabel(row.category);
    const users_ = perUser.get(label) ?? new Map();
    const entry = users_.get(row.userId) ?? { answered: 0, correct: 0 };
    entry.answered += row.answered;
    entry.correct += row.correct;
    users_.set(row.userId, entry);
    perUser.set(label, users_);
  }
  return (label: string) => {
    const mine = studyBy.get(label);
    const others = [...(perUser.get(label)?.values() ?? [])].filter((u) => u.answered > 0);
    const enough = others.length >= RANKING_MIN_COHORT;
    const mean = enough
      ? others.reduce((sum, u) => sum + (u.correct / u.answered) * 100, 0) / others.length
      : null;
    return {
      studyAccuracy: mine && mine.answered > 0 ? percent(mine.correct, mine.answered) : null,
      cohortMean: mean === null ? null : Math.round(mean),
      cohortUsers: others.length,
      cohortNote: enough ? null : NOT_ENOUGH_COHORT,
    };
  };
}

export async function examReport(
  db: Db,
  opts: { userId: string; examId: string; now: Date },
): Promise<ExamReport> {
  const exam = await loadFinishedExam(db, opts);
  const items = await examItems(db, exam.id);
  const score = scoreExam(
    items.map(({ question, answer }) => ({
      questionId: question.id,
      // The category the answer was given under; the question's own for an unanswered one.
      category: answer && answer.selected.length > 0 ? answer.category : question.category,
      answered: !!answer && answer.selected.length > 0,
      isCorrect: !!answer && answer.isCorrect,
      timeSpentMs: answer?.timeSpentMs ?? 0,
    })),
  );
  const compare = await comparisons(
    db,
    opts.userId,
    score.categories.map((c) => c.category),
  );
  const used = timeUsedMs(exam, score.timeSpentMs);
  return {
    exam: examSummary(exam),
    correct: score.correct,
    answered: score.answered,
    total: score.total,
    percent: score.percent,
    timeUsedMs: used,
    averageMsPerQuestion: score.total > 0 ? Math.round(used / score.total) : 0,
    categories: score.categories.map((c) => ({ ...c, ...compare(c.category) })),
    slowestCategory: score.slowestCategory,
    mostMissedCategory: score.mostMissedCategory,
  };
}

export interface ReviewItem {
  position: number;
  questionId: string;
  text: string;
  options: Record<string, string>;
  questionType: string;
  /** The images the question shows below its stem (issue 17), in order. */
  images: string[];
  category: string;
  selected: string[];
  answered: boolean;
  isCorrect: boolean;
  flagged: boolean;
  correctAnswers: string[];
  timeSpentMs: number;
  explanation: string;
  generatedExplanation: string;
}

const REVIEW_FILTER: Record<ReviewFilter, (item: ReviewItem) => boolean> = {
  all: () => true,
  incorrect: (i) => i.answered && !i.isCorrect,
  flagged: (i) => i.flagged,
  unanswered: (i) => !i.answered,
};

export async function examReview(
  db: Db,
  opts: { userId: string; examId: string; now: Date; filter: ReviewFilter },
): Promise<{ exam: ExamSummary; filter: ReviewFilter; items: ReviewItem[] }> {
  const exam = await loadFinishedExam(db, opts);
  const rows = await examItems(db, exam.id);
  const images = await imagesByQuestion(
    db,
    rows.map((row) => row.question.id),
  );
  const items = rows.map(({ position, question, answer }) => {
    const feedback = feedbackOf(question, answer);
    return {
      position,
      questionId: question.id,
      text: question.text,
      options: question.options,
      questionType: question.questionType,
      images: images.get(question.id) ?? [],
      category: question.category,
      selected: answer?.selected ?? [],
      answered: !!answer && answer.selected.length > 0,
      isCorrect: feedback.isCorrect,
      flagged: answer?.flagged ?? false,
      correctAnswers: feedback.correctAnswers,
      timeSpentMs: answer?.timeSpentMs ?? 0,
      explanation: feedback.explanation,
      generatedExplanation: feedback.generatedExplanation,
    };
  });
  return {
    exam: examSummary(exam),
    filter: opts.filter,
    items: items.filter(REVIEW_FILTER[opts.filter]),
  };
}

/**
 * "Study these incorrect": each question answered wrong in the exam goes into the caller's study queue
 * as due now, its scheduler counting a lapse (SM-2: repetitions 0, ease −0.20; FSRS: Again). Each is
 * written to the review log like a wrong study answer, marked with the exam, so the schedulers' replay
 * sees it and the statistics do not count the answer twice (decision 170). Sent once per exam:
 * questions already sent, or no longer visible to the caller, are skipped.
 */
export async function studyIncorrect(
  db: Db,
  opts: { userId: string; examId: string; now: Date },
): Promise<{ added: number; questionIds: string[] }> {
  const { userId, now } = opts;
  const exam = await loadFinishedExam(db, opts);
  const missed = (await examItems(db, exam.id)).filter(
    ({ answer }) => answer && answer.selected.length > 0 && !answer.isCorrect,
  );
  return db.transaction(async (tx) => {
    const sent = await tx
      .select({ questionId: reviews.questionId })
      .from(reviews)
      .where(and(eq(reviews.userId, userId), eq(reviews.examId, exam.id)));
    const already = new Set(sent.map((r) => r.questionId));
    const settings = await schedulerSettings(tx, userId);
    const added: string[] = [];
    for (const { question, answer } of missed) {
      if (already.has(question.id)) continue;
      if (!(await findVisibleQuestion(tx, userId, question.id))) continue;
      const { before } = await logReview(tx, {
        userId,
        question,
        examId: exam.id,
        review: {
          isCorrect: false,
          difficulty: null,
          selected: answer!.selected,
          timeSpentMs: answer!.timeSpentMs,
        },
        now,
        settings,
      });
      const lapsed = answerStateAfter(before, false, now, settings);
      // Due today, as the resident asked to study it now, not after the lapse's own interval.
      await saveState(
        tx,
        { userId, questionId: question.id },
        { ...lapsed, dueAt: now },
        null,
        now,
      );
      added.push(question.id);
    }
    return { added: added.length, questionIds: added };
  });
}
