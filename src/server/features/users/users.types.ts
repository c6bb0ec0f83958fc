import type { StudyDataJson } from "../questions/question-json";
import type { PriteScoreJson } from "../scores/score-json";
import type { UserJson } from "./user-json";

/** Messages in docs/product/errors.md (Settings) that the server sends with a success. */
export const USER_MESSAGES = {
  PROFILE_UPDATED: "Profile updated successfully",
  SETTINGS_UPDATED: "Settings updated successfully",
  STUDY_DATA_EXPORTED: "Study data exported successfully",
  QUESTIONS_EXPORTED: "Questions exported successfully",
  PROGRESS_RESET: "Study progress reset successfully",
  ACCOUNT_DELETED: "Account deleted successfully",
  EMAIL_TAKEN: "An account with this email already exists",
  USER_NOT_FOUND: "User not found",
} as const;

export const STUDY_DATA_FORMAT = "prite-study/study-data";
export const QUESTIONS_FORMAT = "prite-study/questions";
export const EXPORT_VERSION = 1;

/** The caller's SM-2 state for one question: the study entry of Question JSON, keyed by question. */
export type StudyStateExport = { questionId: string } & Omit<StudyDataJson, "user">;

export interface ReviewExport {
  id: number;
  questionId: string;
  sessionId: string | null;
  category: string;
  /** 0 Hard, 1 Medium, 2 Easy; null when the answer was never rated. */
  difficulty: number | null;
  isCorrect: boolean;
  selected: string[];
  timeSpentMs: number;
  reviewedAt: string;
}

export interface StudySessionExport {
  _id: string;
  category: string | null;
  questionCount: number;
  startedAt: string;
  endedAt: string | null;
}

export interface AnswerKeyExport {
  part: string;
  year: number;
  answers: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** Everything the server keeps about the user's studying (the `data` of GET /users/export/study-data). */
export interface StudyDataExport {
  format: typeof STUDY_DATA_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  /** Profile and privacy settings. */
  user: UserJson;
  studyStates: StudyStateExport[];
  reviews: ReviewExport[];
  studySessions: StudySessionExport[];
  priteScores: PriteScoreJson[];
  answerKeys: AnswerKeyExport[];
}
