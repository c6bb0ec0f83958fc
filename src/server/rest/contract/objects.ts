import { arr, bool, dict, id, named, nullable, num, obj, str } from "./shape";

/** The objects REST answers carry, beyond exams (`exam-objects.ts`). */

/** docs/product/data.md User, as register, login, `/auth/me`, profile and settings answer it. */
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

/** docs/product/data.md Question. `creator` is null when the author keeps their profile private. */
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
    visibility: str,
    createdAt: str,
    studyData: arr(obj({ user: str, easeFactor: num })),
    // Issue 36: open wrong-answer reports ("Reported: the key may be wrong"), and a copyright takedown.
    reported: nullable(obj({ count: num, comment: str, reportedAt: str })),
    takenDownAt: nullable(str),
  }),
);

/** Days until a card comes back for each rating (issue 19; a flashcard's four buttons, issue 17). */
export const NextIntervals = named(
  "NextIntervals",
  obj({ again: num, hard: num, good: num, easy: num }),
);

/** docs/product/data.md Parsed question: a draft, not saved yet (no `_id`). */
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

/** docs/product/data.md PRITE score record. */
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

export const rankingFields = {
  percentile: nullable(num),
  totalUsers: nullable(num),
  averageScore: nullable(num),
};
/** docs/product/data.md Comparative data: where the caller stands. */
export const Ranking = named("Ranking", obj(rankingFields));

export const AnswerKey = named(
  "AnswerKey",
  obj({ _id: id, part: str, year: num, answers: dict(str), count: num, createdAt: str }),
);
