/**
 * Issue 19 evidence, pure computation (no database):
 *
 * (a) Prediction quality of the default vs fitted FSRS parameters on a held-out 20% of each synthetic
 *     user's reviews (the last 20% in time): log loss and RMSE over 20 bins of predicted recall.
 *     Memory model of the synthetic users: FSRS-6 with each user's own parameters (the defaults with
 *     log-normal noise, σ 0.35, clipped to FSRS's ranges); recall drawn from that user's true
 *     retrievability; a right answer rated Hard / Good / Easy with probability 0.15 / 0.70 / 0.15; the
 *     cards scheduled by the app's SM-2 (what today's users' logs look like), 20 new cards a day.
 * (b) One-year simulation of a 5,000-card bank at desired retention 0.90: reviews per day and total for
 *     FSRS (default parameters) vs the app's SM-2. Memory model: FSRS-6 default parameters as the true
 *     memory of the student; 50 new cards a day until the bank is introduced (100 days); every due card
 *     reviewed the day it is due; same rating distribution as (a).
 *
 *   npx tsx bench/fsrs-bench.ts [--users 20] [--days 365]
 */
import { parseArgs } from "node:util";
import { CLAMP_PARAMETERS, W17_W18_Ceiling } from "ts-fsrs";
import type { Difficulty } from "../src/core/constants";
import { initialStudyState, type StudyState } from "../src/core/srs";
import {
  DEFAULT_FSRS_PARAMETERS,
  DEFAULT_FSRS_SETTINGS,
  evaluateLog,
  retrievability,
  type SchedulerSettings,
} from "../src/core/srs/fsrs";
import { answerState, rateState } from "../src/core/srs/schedule";
import { optimizeParameters, type LogReview } from "../src/server/features/study/fsrs-optimizer";

const { values: args } = parseArgs({
  options: {
    users: { type: "string", default: "20" },
    days: { type: "string", default: "365" },
  },
});

const DAY = 86_400_000;
const T0 = Date.parse("2025-01-01T08:00:00Z");

let seed = 20_251_125;
function rnd(): number {
  // xorshift32: the same figures on every run.
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4_294_967_296;
}
function gauss(): number {
  return Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
}

function rating(): Difficulty {
  const u = rnd();
  return u < 0.15 ? 0 : u < 0.85 ? 1 : 2;
}

const FSRS_090: SchedulerSettings = { ...DEFAULT_FSRS_SETTINGS, scheduler: "fsrs" };
const SM2: SchedulerSettings = { ...FSRS_090, scheduler: "sm2" };

interface SimCard {
  state: StudyState; // the app's schedule
  truth: StudyState; // the student's true memory (FSRS with the true parameters)
}

/**
 * Simulates `days` of study: `newPerDay` new cards until `cards` are introduced, every due card
 * reviewed on its day; returns the review log and reviews per day.
 */
function simulate(opts: {
  cards: number;
  newPerDay: number;
  days: number;
  scheduler: SchedulerSettings;
  trueParameters: readonly number[];
}) {
  const truthSettings: SchedulerSettings = {
    ...FSRS_090,
    parameters: opts.trueParameters,
  };
  const cards: SimCard[] = [];
  const log: LogReview[] = [];
  const perDay: number[] = [];
  for (let d = 0; d < opts.days; d++) {
    const dayStart = T0 + d * DAY;
    for (let k = 0; k < opts.newPerDay && cards.length < opts.cards; k++) {
      cards.push({ state: initialStudyState(), truth: initialStudyState() });
    }
    let n = 0;
    cards.forEach((card, id) => {
      const due = card.state.dueAt === null || card.state.dueAt.getTime() <= dayStart + DAY - 1;
      if (!due) return;
      const now = new Date(dayStart + (n % 600) * 60_000);
      n += 1;
      const r =
        card.truth.stability == null || card.truth.lastReviewedAt == null
          ? 0.5 // first sight: a coin toss whether the resident already knew it
          : retrievability(
              card.truth.stability,
              Math.floor((now.getTime() - card.truth.lastReviewedAt.getTime()) / DAY),
              opts.trueParameters,
            );
      const isCorrect = rnd() < r;
      const difficulty = isCorrect ? rating() : 1;
      log.push({ questionId: String(id), isCorrect, difficulty, reviewedAt: now });
      const step = (s: StudyState, settings: SchedulerSettings) =>
        isCorrect ? rateState(s, difficulty, now, settings) : answerState(s, false, now, settings);
      card.state = step(card.state, opts.scheduler);
      card.truth = step(card.truth, truthSettings);
    });
    perDay.push(n);
  }
  // What the student knows at the end: the mean true retrievability over the introduced cards.
  const end = T0 + opts.days * DAY;
  const known =
    cards.reduce((sum, c) => {
      if (c.truth.stability == null || c.truth.lastReviewedAt == null) return sum;
      const elapsed = Math.floor((end - c.truth.lastReviewedAt.getTime()) / DAY);
      return sum + retrievability(c.truth.stability, elapsed, opts.trueParameters);
    }, 0) / Math.max(1, cards.length);
  return { log, perDay, known };
}

function userParameters(): number[] {
  const ranges = CLAMP_PARAMETERS(W17_W18_Ceiling, false);
  return DEFAULT_FSRS_PARAMETERS.map((w, i) => {
    if (i === 20 || i === 19) return w; // decay and short-term weight: kept
    const noisy = w * Math.exp(0.35 * gauss());
    return Math.min(ranges[i]![1]!, Math.max(ranges[i]![0]!, noisy));
  });
}

function byCard(log: readonly LogReview[]) {
  const map = new Map<string, LogReview[]>();
  for (const r of log) map.set(r.questionId, [...(map.get(r.questionId) ?? []), r]);
  return [...map.values()];
}

async function partA(users: number) {
  console.log(`## (a) default vs fitted parameters, ${users} synthetic users, last 20% held out\n`);
  console.log(
    "| user | reviews (train / test) | log loss default | log loss fitted | RMSE default | RMSE fitted |",
  );
  console.log("| --- | --- | --- | --- | --- | --- |");
  const sums = { ld: 0, lf: 0, rd: 0, rf: 0, n: 0 };
  for (let u = 0; u < users; u++) {
    const truth = userParameters();
    const { log } = simulate({
      cards: 1_000,
      newPerDay: 20,
      days: 180,
      scheduler: SM2,
      trueParameters: truth,
    });
    const cut = log[Math.floor(log.length * 0.8)]!.reviewedAt;
    const train = log.filter((r) => r.reviewedAt < cut);
    const fitted = (await optimizeParameters(train, null)).parameters;
    const cards = byCard(log);
    const d = evaluateLog(cards, null, cut);
    const f = evaluateLog(cards, fitted, cut);
    sums.ld += d.logLoss;
    sums.lf += f.logLoss;
    sums.rd += d.rmse;
    sums.rf += f.rmse;
    sums.n += 1;
    console.log(
      `| ${u + 1} | ${train.length} / ${log.length - train.length} | ${d.logLoss.toFixed(4)} | ${f.logLoss.toFixed(4)} | ${d.rmse.toFixed(4)} | ${f.rmse.toFixed(4)} |`,
    );
  }
  const m = (x: number) => (x / sums.n).toFixed(4);
  console.log(
    `| **mean** | | **${m(sums.ld)}** | **${m(sums.lf)}** | **${m(sums.rd)}** | **${m(sums.rf)}** |\n`,
  );
}

function partB(days: number) {
  console.log(`## (b) ${days}-day simulation, 5,000 cards, desired retention 0.90\n`);
  console.log(
    "| scheduler | total reviews | reviews/day (mean) | reviews/day (max) | mean reviews/day, last 30 days | mean recall at the end |",
  );
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const [name, scheduler] of [
    ["FSRS (default parameters)", FSRS_090],
    ["SM-2 (the app's)", SM2],
  ] as const) {
    seed = 4242; // the same student and the same coin tosses for both schedulers
    const { log, perDay, known } = simulate({
      cards: 5_000,
      newPerDay: 50,
      days,
      scheduler,
      trueParameters: DEFAULT_FSRS_PARAMETERS,
    });
    const last = perDay.slice(-30);
    console.log(
      `| ${name} | ${log.length} | ${(log.length / days).toFixed(1)} | ${Math.max(...perDay)} | ${(last.reduce((a, b) => a + b, 0) / last.length).toFixed(1)} | ${known.toFixed(3)} |`,
    );
  }
}

async function main() {
  const started = performance.now();
  await partA(Number(args.users));
  partB(Number(args.days));
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

void main();
