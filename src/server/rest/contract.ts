import type { RestMethod } from "./route";

/**
 * The REST contract: every path `/api` serves, with what a client sends and what it reads back. One table
 * drives the contract test (`contract.test.ts`, through HTTP on both databases) and the README's REST section
 * (`npx tsx scripts/rest-readme.ts` writes it, the test checks it), so neither can drift from the server.
 * A response shape lists the fields a client reads; the server may send more.
 */

export type Shape =
  | { kind: "string" | "number" | "boolean" | "any" | "id" }
  | { kind: "nullable"; of: Shape }
  | { kind: "array"; of: Shape }
  | { kind: "dict"; of: Shape }
  | { kind: "object"; fields: Record<string, Shape> }
  | { kind: "union"; of: Shape[] }
  | { kind: "named"; name: string; of: Shape }
  /** A file, not JSON: the bytes with a Content-Type among `types`. */
  | { kind: "bytes"; types: string };

export const str: Shape = { kind: "string" };
export const num: Shape = { kind: "number" };
export const bool: Shape = { kind: "boolean" };
export const any: Shape = { kind: "any" };
/** `_id`: a non-empty string the client keeps to address the object again. */
export const id: Shape = { kind: "id" };
export const nullable = (of: Shape): Shape => ({ kind: "nullable", of });
export const arr = (of: Shape): Shape => ({ kind: "array", of });
export const dict = (of: Shape): Shape => ({ kind: "dict", of });
export const obj = (fields: Record<string, Shape>): Shape => ({ kind: "object", fields });
export const union = (...of: Shape[]): Shape => ({ kind: "union", of });
const named = (name: string, of: Shape): Shape => ({ kind: "named", name, of });
export const bytes = (types: string): Shape => ({ kind: "bytes", types });

/** SPEC §3 User, as register, login, `/auth/me`, profile and settings answer it. */
export const User = named(
  "User",
  obj({
    _id: id,
    username: str,
    email: str,
    displayName: str,
    pgyLevel: str,
    specialty: str,
    institution: str,
    isAdmin: bool,
    settings: obj({ shareUsageData: bool, publicProfile: bool }),
    createdAt: str,
    lastLogin: nullable(str),
    questionsAdded: num,
  }),
);

/** SPEC §3 Question. `creator` is null when the author keeps their profile private. */
export const Question = named(
  "Question",
  obj({
    _id: id,
    creator: nullable(str),
    text: str,
    options: dict(str),
    correctAnswer: str,
    correctAnswers: arr(str),
    numCorrectAnswers: num,
    questionType: str,
    back: str,
    source: str,
    images: arr(str),
    instructions: str,
    explanation: str,
    generatedExplanation: str,
    category: str,
    part: str,
    year: num,
    number: nullable(num),
    isPublic: bool,
    createdAt: str,
    studyData: arr(obj({ user: str, easeFactor: num })),
  }),
);

/** Days until a card comes back for each rating (issue 19; a flashcard's four buttons, issue 17). */
const NextIntervals = named("NextIntervals", obj({ again: num, hard: num, good: num, easy: num }));

/** SPEC §3 Parsed question: a draft, not saved yet (no `_id`). */
export const ParsedQuestion = named(
  "ParsedQuestion",
  obj({
    number: nullable(num),
    part: str,
    year: num,
    text: str,
    options: dict(str),
    correctAnswer: str,
    explanation: str,
    category: str,
  }),
);

/** SPEC §3 PRITE score record. */
export const Score = named(
  "Score",
  obj({
    _id: id,
    year: str,
    overallPercentile: num,
    psychiatryPercentile: nullable(num),
    neurosciencePercentile: nullable(num),
    somaPercentile: nullable(num),
    growthPercentile: nullable(num),
    sections: arr(obj({ name: str, percentile: num })),
    notes: str,
  }),
);

const rankingFields = {
  percentile: nullable(num),
  totalUsers: nullable(num),
  averageScore: nullable(num),
};
/** SPEC §3 Comparative data: where the caller stands. */
const Ranking = named("Ranking", obj(rankingFields));

export const AnswerKey = named(
  "AnswerKey",
  obj({ _id: id, part: str, year: num, answers: dict(str), count: num, createdAt: str }),
);

/** Issue 16: one question's answer as the taker left it. */
const ExamAnswer = named(
  "ExamAnswer",
  obj({
    selected: arr(str),
    flagged: bool,
    eliminated: arr(str),
    timeSpentMs: num,
    answeredAt: nullable(str),
  }),
);
const ExamFeedback = named(
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
const ExamReport = named(
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
const ExamReviewItem = named(
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
const MockResults = named(
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

/** How a call is authorised: anyone, a signed-in user (token in `x-auth-token`), or an admin. */
export type Access = "public" | "user" | "admin";

export interface RestCall {
  method: RestMethod;
  /** As registered: `:name` marks a path parameter. */
  path: string;
  /** A call of SPEC §7, made by the original client; the others are ours, for REST clients and scripts. */
  spec: boolean;
  access: Access;
  /** What the client sends (body fields, or `query:` parameters); `—` for nothing. */
  request: string;
  status: number;
  response: Shape;
  /** Failures also carry `error` (the explanation and AI paths, whose clients read it). */
  errorField?: true;
}

const success = (fields: Record<string, Shape>) => obj({ success: bool, ...fields });

export const REST_CALLS: readonly RestCall[] = [
  // SPEC §7, in its order.
  {
    method: "POST",
    path: "/api/auth/register",
    spec: true,
    access: "public",
    request: "{username, email, password, pgyLevel}",
    status: 201,
    response: obj({ token: str, user: User }),
  },
  {
    method: "POST",
    path: "/api/auth/login",
    spec: true,
    access: "public",
    request: "{username, password}",
    status: 200,
    response: obj({ token: str, user: User }),
  },
  {
    method: "GET",
    path: "/api/auth/me",
    spec: true,
    access: "user",
    request: "—",
    status: 200,
    response: User,
  },
  {
    method: "GET",
    path: "/api/questions",
    spec: true,
    access: "user",
    request: "query: page, pageSize",
    status: 200,
    response: arr(Question),
  },
  {
    method: "GET",
    path: "/api/questions/due",
    spec: true,
    access: "user",
    request: "query: category, limit, offset",
    status: 200,
    response: arr(Question),
  },
  {
    method: "GET",
    path: "/api/questions/search",
    spec: true,
    access: "user",
    request:
      "query: text, part, category, visibility, type (multipleChoice, flashcard), source, page, pageSize",
    status: 200,
    response: arr(Question),
  },
  {
    method: "GET",
    path: "/api/questions/category-stats",
    spec: true,
    access: "user",
    request: "—",
    status: 200,
    response: arr(
      named(
        "CategoryStat",
        obj({ category: str, total: num, mastered: num, due: num, accuracy: nullable(num) }),
      ),
    ),
  },
  {
    method: "POST",
    path: "/api/parser/questions",
    spec: true,
    access: "user",
    request: "{ocrText, part, year?}",
    status: 200,
    response: arr(ParsedQuestion),
  },
  {
    method: "POST",
    path: "/api/questions/bulk",
    spec: true,
    access: "user",
    request: "{questions: [{text, options, correctAnswer, category, part, year, number?, _id?}]}",
    status: 201,
    response: arr(Question),
  },
  {
    method: "POST",
    path: "/api/questions",
    spec: true,
    access: "user",
    request:
      'a question: {text, options, correctAnswer, category, part, year, …}; a flashcard: {questionType: "flashcard", front, back, category, part, year, source, isPublic}',
    status: 201,
    response: Question,
  },
  {
    method: "PUT",
    path: "/api/questions/:id",
    spec: true,
    access: "user",
    request:
      "{text, options A-O, correctAnswer, correctAnswers, explanation, category, part, year, isPublic, number, questionType, instructions, numCorrectAnswers}",
    status: 200,
    response: Question,
  },
  {
    method: "PATCH",
    path: "/api/questions/:id/study",
    spec: true,
    access: "user",
    request: "{difficulty: 0 Hard | 1 Medium | 2 Easy}",
    status: 200,
    response: Question,
  },
  {
    method: "GET",
    path: "/api/users/prite-scores",
    spec: true,
    access: "user",
    request: "—",
    status: 200,
    response: obj({ scores: arr(Score) }),
  },
  {
    method: "GET",
    path: "/api/users/prite-scores/:id",
    spec: true,
    access: "user",
    request: "—",
    status: 200,
    response: obj({ score: Score }),
  },
  {
    method: "POST",
    path: "/api/users/prite-scores",
    spec: true,
    access: "user",
    request:
      "{year, overallPercentile, psychiatryPercentile, neurosciencePercentile, somaPercentile, growthPercentile, sections, notes}",
    status: 201,
    response: obj({ score: Score }),
  },
  {
    method: "PUT",
    path: "/api/users/prite-scores/:id",
    spec: true,
    access: "user",
    request: "the same body as POST",
    status: 200,
    response: obj({ score: Score }),
  },
  {
    method: "DELETE",
    path: "/api/users/prite-scores/:id",
    spec: true,
    access: "user",
    request: "—",
    status: 200,
    response: obj({ message: str }),
  },
  {
    method: "POST",
    path: "/api/explanation/generate",
    spec: true,
    access: "user",
    request: "{question, options, correctAnswer}",
    status: 200,
    response: obj({ explanation: str }),
    errorField: true,
  },
  {
    method: "POST",
    path: "/api/explanation/save",
    spec: true,
    access: "user",
    request: "{questionId, explanation}",
    status: 200,
    response: obj({ message: str, question: Question }),
    errorField: true,
  },
  {
    method: "POST",
    path: "/api/openai",
    spec: true,
    access: "user",
    request: "{text, format: json | text, prompt?}",
    status: 200,
    response: success({ data: union(str, arr(any), dict(any)), error: nullable(str) }),
    errorField: true,
  },
  {
    method: "GET",
    path: "/api/stats/comparative",
    spec: true,
    access: "user",
    request: "—",
    status: 200,
    response: success({
      data: obj({
        overall: Ranking,
        pgyLevel: named("PgyRanking", obj({ ...rankingFields, level: str })),
        timeBasedRanking: Ranking,
      }),
    }),
  },
  {
    method: "PUT",
    path: "/api/users/profile",
    spec: true,
    access: "user",
    request: "{username, email, pgyLevel, specialty, institution, displayName}",
    status: 200,
    response: success({ user: User, message: str }),
  },
  {
    method: "PUT",
    path: "/api/users/settings",
    spec: true,
    access: "user",
    request: "{settings: {shareUsageData, publicProfile}}",
    status: 200,
    response: success({ user: User, message: str }),
  },
  {
    method: "GET",
    path: "/api/users/export/study-data",
    spec: true,
    access: "user",
    request: "—",
    status: 200,
    response: success({ data: dict(any), message: str }),
  },
  {
    method: "GET",
    path: "/api/users/export/questions",
    spec: true,
    access: "user",
    request: "—",
    status: 200,
    response: success({ questions: arr(obj({ _id: id, text: str })), message: str }),
  },
  {
    method: "GET",
    path: "/api/users/export/anki",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: success({
      package: str,
      fileName: str,
      counts: obj({ multipleChoice: num, flashcards: num, images: num }),
      message: str,
    }),
  },
  {
    method: "POST",
    path: "/api/users/reset-study-progress",
    spec: true,
    access: "user",
    request: "—",
    status: 200,
    response: success({ message: str }),
  },
  {
    method: "DELETE",
    path: "/api/users/account",
    spec: true,
    access: "user",
    request: "—",
    status: 200,
    response: success({ message: str }),
  },
  {
    method: "GET",
    path: "/api/admin/users",
    spec: true,
    access: "admin",
    request: "—",
    status: 200,
    response: arr(
      named(
        "AdminUser",
        obj({
          _id: id,
          username: str,
          email: str,
          pgyLevel: str,
          createdAt: str,
          lastLogin: nullable(str),
          questionsAdded: num,
          isAdmin: bool,
        }),
      ),
    ),
  },

  // Ours, beyond SPEC §7.
  {
    method: "POST",
    path: "/api/auth/logout",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: obj({ success: bool }),
  },
  {
    method: "POST",
    path: "/api/study/sync",
    spec: false,
    access: "user",
    request:
      "{reviews: [{id (uuid), questionId, selected (or a flashcard's rating), timeSpentMs, reviewedAt, difficulty 0-2 | null}]}; at most 200.",
    status: 200,
    response: obj({
      results: arr(obj({ id: str, status: str })),
      applied: num,
      duplicates: num,
      refused: num,
    }),
  },
  {
    method: "POST",
    path: "/api/questions/:id/flashcard-rating",
    spec: false,
    access: "user",
    request: "{rating: again | hard | good | easy, timeSpentMs?, sessionId?}",
    status: 200,
    response: obj({ isCorrect: bool, question: Question, nextIntervals: NextIntervals }),
  },
  {
    method: "GET",
    path: "/api/questions/:id/next-intervals",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: obj({ scheduler: str, nextIntervals: NextIntervals }),
  },
  {
    method: "GET",
    path: "/api/questions/categories",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: arr(str),
  },
  {
    method: "GET",
    path: "/api/questions/sources",
    spec: false,
    access: "user",
    request: "— (the sources, e.g. Anki deck names, of the questions the caller may see)",
    status: 200,
    response: arr(str),
  },
  {
    method: "GET",
    path: "/api/questions/:id",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: Question,
  },
  {
    method: "DELETE",
    path: "/api/questions/:id",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: obj({ message: str }),
  },
  {
    method: "GET",
    path: "/api/admin/stats",
    spec: false,
    access: "admin",
    request: "—",
    status: 200,
    response: dict(any),
  },
  {
    method: "POST",
    path: "/api/answer-keys",
    spec: false,
    access: "user",
    request: "{part, year, answers: {number: letter}} or {part, year, text}",
    status: 201,
    response: AnswerKey,
  },
  {
    method: "GET",
    path: "/api/answer-keys",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: arr(AnswerKey),
  },
  {
    method: "GET",
    path: "/api/answer-keys/:part/:year",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: AnswerKey,
  },
  {
    method: "POST",
    path: "/api/answer-keys/:part/:year/apply",
    spec: false,
    access: "user",
    request: "{overwrite?}",
    status: 200,
    response: obj({ matched: num, applied: num, kept: num, skippedMultipleCorrect: num }),
  },
  {
    method: "DELETE",
    path: "/api/answer-keys/:part/:year",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: obj({ message: str }),
  },
  // Issue 16: practice and mock exams.
  {
    method: "POST",
    path: "/api/exams",
    spec: false,
    access: "user",
    request: "{size?, part?, categories?, pool?, mode?, secondsPerQuestion?}",
    status: 201,
    response: obj({ exam: Exam, notice: nullable(str) }),
  },
  {
    method: "GET",
    path: "/api/exams",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: arr(ExamSummary),
  },
  {
    method: "GET",
    path: "/api/exams/:id",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: Exam,
  },
  {
    method: "DELETE",
    path: "/api/exams/:id",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: success({}),
  },
  {
    method: "POST",
    path: "/api/exams/:id/answer",
    spec: false,
    access: "user",
    request: "{questionId, selected, timeSpentMs?}",
    status: 200,
    response: obj({
      questionId: id,
      answer: ExamAnswer,
      remainingMs: nullable(num),
      feedback: nullable(ExamFeedback),
    }),
  },
  {
    method: "POST",
    path: "/api/exams/:id/flag",
    spec: false,
    access: "user",
    request: "{questionId, flagged}",
    status: 200,
    response: ExamAnswer,
  },
  {
    method: "POST",
    path: "/api/exams/:id/eliminate",
    spec: false,
    access: "user",
    request: "{questionId, eliminated}",
    status: 200,
    response: ExamAnswer,
  },
  {
    method: "POST",
    path: "/api/exams/:id/submit",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: ExamSummary,
  },
  {
    method: "GET",
    path: "/api/exams/:id/report",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: ExamReport,
  },
  {
    method: "GET",
    path: "/api/exams/:id/review",
    spec: false,
    access: "user",
    request: "query: filter (all, incorrect, flagged, unanswered)",
    status: 200,
    response: obj({ exam: ExamSummary, filter: str, items: arr(ExamReviewItem) }),
  },
  {
    method: "POST",
    path: "/api/exams/:id/study-incorrect",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: obj({ added: num, questionIds: arr(str) }),
  },
  {
    method: "POST",
    path: "/api/exams/:id/share",
    spec: false,
    access: "user",
    request: "—",
    status: 201,
    response: obj({ mockExam: MockExam, notice: nullable(str) }),
  },
  {
    method: "POST",
    path: "/api/exams/join",
    spec: false,
    access: "user",
    request: "{code}",
    status: 200,
    response: Exam,
  },
  {
    method: "GET",
    path: "/api/exams/mocks",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: arr(MockExam),
  },
  {
    method: "GET",
    path: "/api/exams/mocks/:code/results",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: MockResults,
  },
  {
    method: "POST",
    path: "/api/exams/mocks/:code/close",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: MockExam,
  },
  {
    method: "GET",
    path: "/api/media/:sha256",
    spec: false,
    access: "user",
    request: "— (an image shown by a question the caller can see; 404 otherwise)",
    status: 200,
    response: bytes("image/png, jpeg, gif, webp or svg+xml"),
  },
  {
    method: "GET",
    path: "/api/admin/mock-exams",
    spec: false,
    access: "admin",
    request: "—",
    status: 200,
    response: arr(MockExam),
  },
  // Issue 33: password recovery and sessions (rest/password-reset.ts); one block, to move as a whole.
  {
    method: "POST",
    path: "/api/auth/forgot-password",
    spec: false,
    access: "public",
    request:
      "{email}; the same answer whether or not an account has it. 503 when the server sends no mail.",
    status: 200,
    response: obj({ success: bool, message: str }),
  },
  {
    method: "POST",
    path: "/api/auth/reset-password",
    spec: false,
    access: "public",
    request: "{token, password}: the token of the link; every session of the account ends.",
    status: 200,
    response: obj({ success: bool, message: str }),
  },
  {
    method: "GET",
    path: "/api/auth/sessions",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: arr(obj({ device: str, createdAt: str, lastUsedAt: str, current: bool })),
  },
  {
    method: "POST",
    path: "/api/auth/sessions/sign-out-others",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: obj({ success: bool }),
  },
  {
    method: "POST",
    path: "/api/admin/users/reset-link",
    spec: false,
    access: "admin",
    request: "{username}: a one-time link valid 24 hours; `url` is null without PUBLIC_URL.",
    status: 200,
    response: obj({ username: str, path: str, url: nullable(str), expiresAt: str }),
  },
];

export const callKey = (call: Pick<RestCall, "method" | "path">) => `${call.method} ${call.path}`;

/** The failure body of a call: `{message}`, `success: false` where its answer has `success`, `error` where read. */
export function errorBodyKeys(call: RestCall): string[] {
  const keys = ["message"];
  if (call.response.kind === "object" && "success" in call.response.fields) keys.push("success");
  if (call.errorField) keys.push("error");
  return keys;
}

/** Where `value` departs from `shape`, one line per difference (empty: it conforms). */
export function checkShape(shape: Shape, value: unknown, at = "body"): string[] {
  switch (shape.kind) {
    case "any":
      return value === undefined ? [`${at}: missing`] : [];
    case "bytes":
      return value instanceof Uint8Array && value.length > 0
        ? []
        : [`${at}: ${describe(value)}, not bytes`];
    case "string":
    case "number":
    case "boolean":
      return typeof value === shape.kind ? [] : [`${at}: ${describe(value)}, not ${shape.kind}`];
    case "id":
      return typeof value === "string" && value !== ""
        ? []
        : [`${at}: ${describe(value)}, not an id`];
    case "nullable":
      return value === null ? [] : checkShape(shape.of, value, at);
    case "named":
      return checkShape(shape.of, value, at);
    case "union":
      return shape.of.some((s) => checkShape(s, value, at).length === 0)
        ? []
        : [`${at}: ${describe(value)}, not ${render(shape)}`];
    case "array":
      return Array.isArray(value)
        ? value.flatMap((v, i) => checkShape(shape.of, v, `${at}[${i}]`))
        : [`${at}: ${describe(value)}, not an array`];
    case "dict":
      return isRecord(value)
        ? Object.entries(value).flatMap(([k, v]) => checkShape(shape.of, v, `${at}.${k}`))
        : [`${at}: ${describe(value)}, not an object`];
    case "object":
      return isRecord(value)
        ? Object.entries(shape.fields).flatMap(([k, s]) =>
            k in value ? checkShape(s, value[k], `${at}.${k}`) : [`${at}.${k}: missing`],
          )
        : [`${at}: ${describe(value)}, not an object`];
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value === undefined) return "missing";
  return typeof value === "object" ? "an object" : typeof value;
}

/** A shape in the README's notation; named shapes print their name (the README defines each below). */
export function render(shape: Shape, expandNamed = false): string {
  switch (shape.kind) {
    case "id":
      return "id";
    case "string":
    case "number":
    case "boolean":
    case "any":
      return shape.kind;
    case "nullable":
      return `${render(shape.of)} | null`;
    case "array":
      return shape.of.kind === "union" || shape.of.kind === "nullable"
        ? `(${render(shape.of)})[]`
        : `${render(shape.of)}[]`;
    case "dict":
      return `{[key]: ${render(shape.of)}}`;
    case "union":
      return shape.of.map((s) => render(s)).join(" | ");
    case "named":
      return expandNamed ? render(shape.of) : shape.name;
    case "bytes":
      return `bytes (${shape.types})`;
    case "object":
      return `{${Object.entries(shape.fields)
        .map(([k, s]) => `${k}: ${render(s)}`)
        .join(", ")}}`;
  }
}

function namedShapes(shape: Shape, found: Map<string, Shape>): void {
  switch (shape.kind) {
    case "named":
      if (!found.has(shape.name)) {
        found.set(shape.name, shape);
        namedShapes(shape.of, found);
      }
      return;
    case "nullable":
    case "array":
    case "dict":
      return namedShapes(shape.of, found);
    case "union":
      return shape.of.forEach((s) => namedShapes(s, found));
    case "object":
      return Object.values(shape.fields).forEach((s) => namedShapes(s, found));
    default:
      return;
  }
}

/** A table cell: GitHub's tables need `|` escaped, in code spans too. */
const cell = (text: string) => text.replaceAll("|", "\\|");

const ACCESS_TEXT: Record<Access, string> = { public: "anyone", user: "signed in", admin: "admin" };

/** The README's REST section, between its markers (markdown before prettier's table padding). */
export function renderRestReadme(calls: readonly RestCall[] = REST_CALLS): string {
  const row = (c: RestCall) =>
    `| \`${c.method} ${c.path.replace(/:(\w+)/g, "{$1}")}\` | ${ACCESS_TEXT[c.access]} | ${cell(c.request)} | ${c.status} \`${cell(render(c.response))}\` |`;
  const table = (rows: readonly RestCall[]) => [
    "| call | who | request | answer |",
    "| --- | --- | --- | --- |",
    ...rows.map(row),
  ];
  const found = new Map<string, Shape>();
  for (const c of calls) namedShapes(c.response, found);
  const objects = [...found.values()].map((s) => `- \`${render(s)}\`: \`${render(s, true)}\``);
  return [
    "Every call of SPEC §7, with the fields its client reads (the server may send more). The token goes in",
    "`x-auth-token` (or `Authorization: Bearer`). A failure answers its HTTP status with `{message}`, plus",
    "`success: false` where the answer has `success` and `error` on the explanation and AI paths; 401 means",
    "the token is missing, expired or revoked.",
    "",
    ...table(calls.filter((c) => c.spec)),
    "",
    "Also served, for REST clients and scripts:",
    "",
    ...table(calls.filter((c) => !c.spec)),
    "",
    "Objects:",
    "",
    ...objects,
  ].join("\n");
}

export const README_BEGIN =
  "<!-- rest-contract:begin (generated: npx tsx scripts/rest-readme.ts) -->";
export const README_END = "<!-- rest-contract:end -->";
