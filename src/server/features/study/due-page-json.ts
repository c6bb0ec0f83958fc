/**
 * The due page as the study service answers it: its questions as PostgreSQL's JSON text, parsed only
 * when something reads them (due-page.service.ts builds it).
 */
import type { QuestionJson } from "../questions/question-json";

export interface DuePage {
  questions: QuestionJson[];
  /** Every question of the day's list, not just this page. */
  total: number;
  /** Of the total: reviews due, and today's new questions. */
  reviewCount: number;
  newCount: number;
  limit: number;
  offset: number;
}

const PAGE_JSON = Symbol("due page JSON text");

/**
 * A due page whose questions are parsed from PostgreSQL's JSON text only when something reads them:
 * the REST answer sends the text as it came (`duePageJson`), tRPC's serializer reads `questions`.
 */
export function duePage(
  json: string,
  total: number,
  limit: number,
  offset: number,
  counts: { reviews: number; fresh: number },
): DuePage {
  let parsed: QuestionJson[] | undefined;
  const page = {
    get questions(): QuestionJson[] {
      return (parsed ??= JSON.parse(json) as QuestionJson[]);
    },
    total,
    reviewCount: counts.reviews,
    newCount: counts.fresh,
    limit,
    offset,
  };
  Object.defineProperty(page, PAGE_JSON, { value: json, enumerable: false });
  return page;
}

/** The questions of a page from `listDueQuestions` as JSON text, ready to send. */
export function duePageJson(page: DuePage): string | undefined {
  return (page as { [PAGE_JSON]?: string })[PAGE_JSON];
}
