import { arr, bool, dict, id, named, nullable, num, obj, str } from "./shape";

/** The objects of practice and mock exams (issue 16), as their REST answers carry them. */

/** Issue 16: one question's answer as the taker left it. */
export const ExamAnswer = named(
  "ExamAnswer",
  obj({
    selected: arr(str),
    flagged: bool,
    eliminated: arr(str),
    timeSpentMs: num,
    answeredAt: nullable(str),
  }),
);
export const ExamFeedback = named(
  "ExamFeedback",
  obj({ isCorrect: bool, correctAnswers: arr(str), explanation: str, generatedExplanation: str }),
);
const examSummaryFields = {
  id,
  mode: str,
  status: str,
  part: str,
  categories: arr(str),
  pool: str,
  secondsPerQuestion: num,
  seed: num,
  requestedSize: num,
  questionCount: num,
  startedAt: str,
  endsAt: nullable(str),
  submittedAt: nullable(str),
  correctCount: nullable(num),
  scorePercent: nullable(num),
  mockExamId: nullable(str),
};
export const ExamSummary = named("ExamSummary", obj(examSummaryFields));
/** An exam with its questions in order; `feedback` is null while a timed exam runs. */
export const Exam = named(
  "Exam",
  obj({
    ...examSummaryFields,
    remainingMs: nullable(num),
    questions: arr(
      obj({
        position: num,
        questionId: id,
        text: str,
        options: dict(str),
        questionType: str,
        numCorrectAnswers: num,
        images: arr(str),
        category: str,
        part: str,
        year: num,
        answer: ExamAnswer,
        feedback: nullable(ExamFeedback),
      }),
    ),
  }),
);
export const MockExam = named(
  "MockExam",
  obj({
    id,
    code: str,
    mode: str,
    part: str,
    categories: arr(str),
    secondsPerQuestion: num,
    questionCount: num,
    closed: bool,
    createdAt: str,
    creator: str,
    takers: num,
    inProgress: num,
    meanPercent: nullable(num),
  }),
);
export const ExamReport = named(
  "ExamReport",
  obj({
    exam: ExamSummary,
    correct: num,
    answered: num,
    total: num,
    percent: num,
    timeUsedMs: num,
    averageMsPerQuestion: num,
    categories: arr(
      obj({
        category: str,
        total: num,
        correct: num,
        answered: num,
        percent: num,
        timeSpentMs: num,
        averageMs: num,
        studyAccuracy: nullable(num),
        cohortMean: nullable(num),
        cohortUsers: num,
        cohortNote: nullable(str),
      }),
    ),
    slowestCategory: nullable(str),
    mostMissedCategory: nullable(str),
  }),
);
export const ExamReviewItem = named(
  "ExamReviewItem",
  obj({
    position: num,
    questionId: id,
    text: str,
    options: dict(str),
    images: arr(str),
    category: str,
    selected: arr(str),
    answered: bool,
    isCorrect: bool,
    flagged: bool,
    correctAnswers: arr(str),
    timeSpentMs: num,
    explanation: str,
    generatedExplanation: str,
  }),
);
export const MockResults = named(
  "MockResults",
  obj({
    mockExam: MockExam,
    takers: arr(
      obj({
        username: str,
        status: str,
        correct: num,
        total: num,
        percent: num,
        timeUsedMs: num,
        submittedAt: nullable(str),
      }),
    ),
    spread: obj({
      count: num,
      mean: nullable(num),
      standardDeviation: nullable(num),
      min: nullable(num),
      max: nullable(num),
      median: nullable(num),
    }),
    items: arr(
      obj({
        position: num,
        questionId: id,
        category: str,
        correctAnswers: arr(str),
        pValue: nullable(num),
        optionShares: dict(num),
        unansweredShare: num,
        discrimination: nullable(num),
      }),
    ),
    csv: str,
  }),
);
