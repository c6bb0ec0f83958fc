/**
 * Issue 34 evidence (pure computation, no database): a resident with a 3,000-question bank, 120 days
 * to the exam, 40 minutes a day. Arms:
 *   - plan: FSRS with the exam date (target 0.90), the pace from `examPace` (20 a day raised as
 *     needed, at most 100), load balancing on;
 *   - plan 0.95: the same with a target recall of 0.95 on the exam day;
 *   - FSRS: plain FSRS, no date, 20 new a day;
 *   - SM-2: the app's SM-2, no date, 20 new a day.
 * Time per item (our assumption, recorded in bench/RESULTS.md, "Study plan (issue 34)"): a review 20 s, a new
 * question 60 s (read, answer, read the explanation). Each day: due reviews first, oldest due first,
 * then new questions at the pace, within the 2,400 s; what does not fit waits for the next day.
 * The resident's true memory: FSRS-6 with default parameters; recall drawn from it; a right answer is
 * rated Good, a wrong one is a lapse. The exam-day figure is FSRS's retrievability of each question on
 * the exam day under that true memory (never seen = 0).
 *
 *   npx tsx bench/study-plan-sim.ts [--seed 1]
 */
import { parseArgs } from "node:util";
import { Rating } from "ts-fsrs";
import { DIFFICULTY } from "../src/core/constants";
import { initialStudyState, type StudyState } from "../src/core/srs";
import { examPace, placeReview, recallAfter, DAY_MS } from "../src/core/srs/exam-plan";
import { DEFAULT_FSRS_SETTINGS, fsrsScheduler, type SchedulerSettings } from "../src/core/srs/fsrs";
import { answerState, rateState, SM2_SETTINGS } from "../src/core/srs/schedule";
import { localDayKey } from "../src/core/stats/days";

const { values } = parseArgs({ options: { seed: { type: "string", default: "1" } } });
const BANK = 3000;
const DAYS = 120;
const BUDGET_S = 40 * 60;
const REVIEW_S = 20;
const NEW_S = 60;
const START = Date.parse("2027-01-04T12:00:00Z");
const EXAM_AT = START - 12 * 3_600_000 + DAYS * DAY_MS; // midnight UTC of exam day
const examDate = new Date(EXAM_AT).toISOString().slice(0, 10);
const truth = fsrsScheduler(DEFAULT_FSRS_SETTINGS);

interface Arm {
  name: string;
  settings: SchedulerSettings;
  plan: boolean;
  loadBalance: boolean;
}

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 4_294_967_296;
  };
}

function run(arm: Arm, seed: number) {
  const random = rng(seed);
  const states: StudyState[] = [];
  const memory: { s: number; d: number; last: number }[] = [];
  const loads = new Map<string, number>();
  const dayKey = (t: number) => localDayKey(new Date(t), "UTC");
  const perDay: number[] = [];
  let introduced = 0;
  for (let day = 0; day < DAYS; day++) {
    const now = START + day * DAY_MS;
    let budget = BUDGET_S;
    const due = states
      .map((st, i) => ({ st, i }))
      .filter(({ st }) => st.dueAt!.getTime() <= now)
      .sort((a, b) => a.st.dueAt!.getTime() - b.st.dueAt!.getTime());
    let reviews = 0;
    for (const { st, i } of due) {
      if (budget < REVIEW_S) break;
      budget -= REVIEW_S;
      reviews += 1;
      const m = memory[i]!;
      const elapsed = (now - m.last) / DAY_MS;
      const right = random() < recallAfter(m.s, elapsed);
      const next = truth.next_state(
        { stability: m.s, difficulty: m.d },
        elapsed,
        right ? Rating.Good : Rating.Again,
      );
      memory[i] = { s: next.stability, d: next.difficulty, last: now };
      const at = new Date(now);
      let after = right
        ? rateState(st, DIFFICULTY.MEDIUM, at, arm.settings)
        : answerState(st, false, at, arm.settings);
      if (arm.loadBalance) {
        const prev = dayKey(st.dueAt!.getTime());
        loads.set(prev, (loads.get(prev) ?? 1) - 1);
        after = placeReview(
          after,
          at,
          elapsed,
          arm.settings,
          { loadBalance: true, easyDays: [], timeZone: "UTC" },
          (k) => loads.get(k) ?? 0,
        );
      }
      const k = dayKey(after.dueAt!.getTime());
      loads.set(k, (loads.get(k) ?? 0) + 1);
      states[i] = after;
    }
    const pace = arm.plan
      ? examPace({
          unseen: BANK - introduced,
          today: dayKey(now),
          examDate,
          newPerDay: 20,
          maxNewPerDay: 100,
        }).perDay
      : 20;
    let fresh = 0;
    while (fresh < pace && introduced < BANK && budget >= NEW_S) {
      budget -= NEW_S;
      fresh += 1;
      const at = new Date(now);
      // A new question answered (right or wrong by chance, as a first sight would be) then rated.
      const right = random() < 0.6;
      let st = right
        ? rateState(initialStudyState(), DIFFICULTY.MEDIUM, at, arm.settings)
        : answerState(initialStudyState(), false, at, arm.settings);
      const first = truth.next_state(null, 0, right ? Rating.Good : Rating.Again);
      memory.push({ s: first.stability, d: first.difficulty, last: now });
      if (arm.loadBalance)
        st = placeReview(
          st,
          at,
          0,
          arm.settings,
          { loadBalance: true, easyDays: [], timeZone: "UTC" },
          (k) => loads.get(k) ?? 0,
        );
      const k = dayKey(st.dueAt!.getTime());
      loads.set(k, (loads.get(k) ?? 0) + 1);
      states.push(st);
      introduced += 1;
    }
    perDay.push(reviews + fresh);
  }
  let atTarget = 0;
  let recallSum = 0;
  for (const m of memory) {
    const r = recallAfter(m.s, (EXAM_AT - m.last) / DAY_MS);
    recallSum += r;
    if (r >= 0.9) atTarget += 1;
  }
  const reviewsOnly = perDay;
  return {
    arm: arm.name,
    seen: introduced,
    shareAt90: atTarget / BANK,
    meanRecall: recallSum / BANK,
    perDayMean: reviewsOnly.reduce((a, b) => a + b, 0) / DAYS,
    perDayMax: Math.max(...reviewsOnly),
  };
}

const FSRS: SchedulerSettings = { ...DEFAULT_FSRS_SETTINGS, scheduler: "fsrs" };
const exam = (target: number) => ({ at: EXAM_AT, targetRetention: target });
const arms: Arm[] = [
  {
    name: "plan (exam date, target 0.90)",
    settings: { ...FSRS, exam: exam(0.9) },
    plan: true,
    loadBalance: true,
  },
  {
    name: "plan (exam date, target 0.95)",
    settings: { ...FSRS, exam: exam(0.95) },
    plan: true,
    loadBalance: true,
  },
  { name: "plain FSRS, no date", settings: FSRS, plan: false, loadBalance: false },
  { name: "SM-2, no date", settings: SM2_SETTINGS, plan: false, loadBalance: false },
];
const seed = Number(values.seed);
console.log(
  `| arm | seen by the exam | share of the bank with recall ≥ 0.90 on the exam day | mean recall (bank) | items/day mean | items/day max |`,
);
console.log(`| --- | --- | --- | --- | --- | --- |`);
for (const arm of arms) {
  const t = performance.now();
  const r = run(arm, seed);
  console.log(
    `| ${r.arm} | ${r.seen} | ${(r.shareAt90 * 100).toFixed(1)} % | ${r.meanRecall.toFixed(3)} | ${r.perDayMean.toFixed(1)} | ${r.perDayMax} |`,
  );
  console.error(`${arm.name}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
