/**
 * FSRS parameters fitted to a user's review log with the FSRS project's own optimizer
 * (`@open-spaced-repetition/binding`, fsrs-rs compiled for Node; prebuilt for linux-x64, nothing
 * downloaded at install). The fit runs in a child process (scripts/fsrs-optimize-child.mjs), off the
 * request thread and out of the server's process, since fsrs-rs aborts its process on a panic
 * (decision 133); building the items and the metrics (evaluateLog, src/core) run on the caller's thread.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Difficulty } from "../../../core/constants";
import { DEFAULT_FSRS_PARAMETERS, evaluateLog, parameterProblem } from "../../../core/srs/fsrs";

/** Reviews needed before "Optimize" is offered (as Anki asks for a few hundred). */
export const MIN_REVIEWS_TO_OPTIMIZE = 400;

export interface LogReview {
  questionId: string;
  isCorrect: boolean;
  difficulty: Difficulty | null;
  reviewedAt: Date;
}

export interface Metrics {
  logLoss: number;
  rmse: number;
}

export interface OptimizeResult {
  reviewCount: number;
  parameters: number[];
  /** With the parameters in use before (the defaults if none were fitted). */
  before: Metrics;
  /** With the FSRS defaults. */
  defaults: Metrics;
  /** With the fitted parameters (those in use before when the defaults were kept). */
  after: Metrics;
  /** Why the optimizer kept FSRS's defaults (no fit of this user's own), else null. */
  keptDefaults: string | null;
}

const DAY_MS = 86_400_000;

/** FSRS rating 1-4 of a logged review; null for a right answer never rated (not a grade). */
export function fsrsRatingOf(review: Pick<LogReview, "isCorrect" | "difficulty">): number | null {
  if (!review.isCorrect) return 1;
  return review.difficulty === null ? null : review.difficulty + 2;
}

/**
 * The optimizer's items: per card, one item per review after the first, each holding that card's
 * history up to it (elapsed whole days, first 0), as the FSRS benchmark builds them.
 */
export type OptimizerItem = [rating: number, deltaT: number][];

/** Each card's graded reviews, oldest first. */
function gradedByCard(reviews: readonly LogReview[]): LogReview[][] {
  const byCard = new Map<string, LogReview[]>();
  for (const r of reviews) {
    if (fsrsRatingOf(r) === null) continue;
    const list = byCard.get(r.questionId) ?? [];
    list.push(r);
    byCard.set(r.questionId, list);
  }
  const cards = [...byCard.values()];
  for (const list of cards) list.sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
  return cards;
}

const daysBetween = (a: Date, b: Date) => Math.floor((b.getTime() - a.getTime()) / DAY_MS);

export function buildItems(reviews: readonly LogReview[]): OptimizerItem[] {
  const items: OptimizerItem[] = [];
  for (const list of gradedByCard(reviews)) {
    const history: [number, number][] = [];
    let prev: Date | null = null;
    for (const r of list) {
      history.push([fsrsRatingOf(r)!, prev ? daysBetween(prev, r.reviewedAt) : 0]);
      prev = r.reviewedAt;
      // fsrs-rs aborts the process on an item without a day between reviews: keep only those with one.
      if (history.length > 1 && history.some(([, d]) => d > 0)) {
        items.push([...history]);
      }
    }
  }
  return items;
}

/** Log loss and RMSE (by bins) of a parameter set on a review log, as the app would predict it. */
export function evaluateParameters(
  reviews: readonly LogReview[],
  parameters: readonly number[] | null,
): Metrics {
  const byCard = new Map<string, LogReview[]>();
  for (const r of reviews) {
    const list = byCard.get(r.questionId) ?? [];
    list.push(r);
    byCard.set(r.questionId, list);
  }
  const { logLoss, rmse } = evaluateLog([...byCard.values()], parameters);
  return { logLoss, rmse };
}

export const NOT_ENOUGH_REVIEWS = `Optimizing needs at least ${MIN_REVIEWS_TO_OPTIMIZE} reviews.`;
export const OPTIMIZE_FAILED = "Your parameters could not be fitted; the current ones are kept.";

/**
 * fsrs-rs fits to questions answered again on a later day, grouped by their first rating: per rating
 * it sets aside the smallest groups of questions that waited the same number of days first, until 20
 * are set aside, and any group under 6; with fewer than 8 reviews left it answers with its defaults,
 * unchanged (issue 31). That is no fit, and must not be reported as one.
 */
export const ALIKE_QUESTIONS_NEEDED = 20;

/** Questions answered again on a later day, and the most of them that share a first rating. */
export function repeatedQuestions(reviews: readonly LogReview[]): { count: number; alike: number } {
  const byFirstRating = new Map<number, number>();
  let count = 0;
  for (const list of gradedByCard(reviews)) {
    if (!list.some((r, i) => i > 0 && daysBetween(list[i - 1]!.reviewedAt, r.reviewedAt) > 0))
      continue;
    count++;
    const first = fsrsRatingOf(list[0]!)!;
    byFirstRating.set(first, (byFirstRating.get(first) ?? 0) + 1);
  }
  return { count, alike: Math.max(0, ...byFirstRating.values()) };
}

export function keptDefaultsReason(reviews: readonly LogReview[], earlierFit: boolean): string {
  const { count, alike } = repeatedQuestions(reviews);
  const stays = earlierFit ? " Your parameters fitted earlier stay in use." : "";
  return `Kept the default parameters: FSRS fits to questions answered again on a later day, and needs at least ${ALIKE_QUESTIONS_NEEDED} that began alike (the same first rating, and 6 or more with the same wait in days). You have ${count} such ${count === 1 ? "question" : "questions"}, at most ${alike} with the same first rating. Keep studying and optimize again later.${stays}`;
}

/** The FSRS defaults as fsrs-rs returns them (32-bit floats). */
function isDefaultParameters(parameters: readonly number[]): boolean {
  return (
    parameters.length === DEFAULT_FSRS_PARAMETERS.length &&
    parameters.every((p, i) => Math.abs(p - DEFAULT_FSRS_PARAMETERS[i]!) <= 1e-5)
  );
}

/**
 * Fits parameters to `train` and reports both parameter sets on `test` (the same reviews by default).
 * When the optimizer keeps FSRS's defaults, `parameters` and `after` are those in use before (the
 * defaults, or an earlier fit, which stays: decision 281).
 */
export async function optimizeParameters(
  train: readonly LogReview[],
  current: readonly number[] | null,
  test: readonly LogReview[] = train,
): Promise<OptimizeResult> {
  const trainItems = buildItems(train);
  const parameters = trainItems.length > 0 ? await fitted(trainItems) : null;
  const keptDefaults =
    parameters === null || isDefaultParameters(parameters)
      ? keptDefaultsReason(train, current !== null)
      : null;
  const before = evaluateParameters(test, current);
  return {
    reviewCount: train.length,
    parameters: keptDefaults ? [...(current ?? DEFAULT_FSRS_PARAMETERS)] : parameters!,
    before,
    defaults: evaluateParameters(test, null),
    after: keptDefaults ? before : evaluateParameters(test, parameters),
    keptDefaults,
  };
}

async function fitted(trainItems: OptimizerItem[]): Promise<number[]> {
  let parameters: number[];
  try {
    parameters = await computeInChild(trainItems);
  } catch {
    throw new Error(OPTIMIZE_FAILED);
  }
  if (parameterProblem(parameters) !== null) throw new Error(OPTIMIZE_FAILED);
  return parameters;
}

const CHILD = path.join("scripts", "fsrs-optimize-child.mjs");
const CHILD_TIMEOUT_MS = 5 * 60_000;

/** The project root: the nearest folder above this module (src/… or dist/…) holding the child script. */
function childScript(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, CHILD);
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${CHILD} not found`);
    dir = parent;
  }
}

/** Runs fsrs-rs's computeParameters in a child Node process; rejects if it fails, crashes or hangs. */
export function computeInChild(items: OptimizerItem[]): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript()], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), CHILD_TIMEOUT_MS);
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d.slice(0, 10_000)));
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0)
        return reject(new Error(`optimizer exited with ${code}: ${err.slice(0, 500)}`));
      try {
        resolve((JSON.parse(out) as { parameters: number[] }).parameters);
      } catch (e) {
        reject(e as Error);
      }
    });
    child.stdin.end(JSON.stringify({ items }));
  });
}
