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
import { evaluateLog, parameterProblem } from "../../../core/srs/fsrs";

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
  /** With the fitted parameters. */
  after: Metrics;
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

export function buildItems(reviews: readonly LogReview[]): OptimizerItem[] {
  const byCard = new Map<string, LogReview[]>();
  for (const r of reviews) {
    if (fsrsRatingOf(r) === null) continue;
    const list = byCard.get(r.questionId) ?? [];
    list.push(r);
    byCard.set(r.questionId, list);
  }
  const items: OptimizerItem[] = [];
  for (const list of byCard.values()) {
    list.sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
    const history: [number, number][] = [];
    let prev: Date | null = null;
    for (const r of list) {
      const deltaT = prev ? Math.floor((r.reviewedAt.getTime() - prev.getTime()) / DAY_MS) : 0;
      history.push([fsrsRatingOf(r)!, deltaT]);
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

/** Fits parameters to `train` and reports both parameter sets on `test` (the same reviews by default). */
export async function optimizeParameters(
  train: readonly LogReview[],
  current: readonly number[] | null,
  test: readonly LogReview[] = train,
): Promise<OptimizeResult> {
  const trainItems = buildItems(train);
  if (trainItems.length === 0) throw new Error(OPTIMIZE_FAILED);
  let parameters: number[];
  try {
    parameters = await computeInChild(trainItems);
  } catch {
    throw new Error(OPTIMIZE_FAILED);
  }
  if (parameterProblem(parameters) !== null) throw new Error(OPTIMIZE_FAILED);
  return {
    reviewCount: train.length,
    parameters,
    before: evaluateParameters(test, current),
    defaults: evaluateParameters(test, null),
    after: evaluateParameters(test, parameters),
  };
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
