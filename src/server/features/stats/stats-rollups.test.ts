/**
 * Issue 20 item 2 (decision 220): the dashboard and the rankings read figures that drizzle/0022's
 * triggers keep as answers arrive. These tests hold them to the computation they replaced — the whole
 * review log read per request (answerLog + computeStudyStats, answerCountsByUser per cohort), kept
 * in whole-log.ts as the oracle — on random histories, on whichever database the suite runs on (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL).
 */
import { and, eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { studyStatsFromRollups } from "../../../core/stats";
import type { Db } from "../../db/client";
import { examAnswers, exams, reviews, studySessions, users } from "../../db/schema";
import { createHarness, type Harness } from "../../test/harness";
import { expectRollupsMatchLog } from "../../test/kept-figures";
import { historyDraws, RandomHistory, startExam, type HistoryOp } from "../../test/random-history";
import { addQuestion } from "../study/test-fixtures";
import { loadStudyRollups } from "./rollups";
import { comparativeStats, studySummary } from "./stats.service";
import { comparativeFromLog, studyStatsFromLog } from "./whole-log";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const DAY = 86_400_000;
const QUARTER = 15 * 60_000;
/** A fixed "now" near the real one, so the window the migration started is in play. */
const BASE = Math.floor(Date.now() / QUARTER) * QUARTER;

// ---------------------------------------------------------------------------------------------------
// Random histories

const CATEGORIES = ["Neuroscience", "", "Uncategorized", " Psychiatry ", "Psychiatry", "__proto__"];
const ZONES = [
  "UTC",
  "America/New_York",
  "Asia/Kathmandu", // +5:45
  "Australia/Lord_Howe", // a half-hour change of offset
  "Pacific/Chatham", // +12:45 / +13:45
  "America/St_Johns", // -3:30
  "Africa/Monrovia", // -0:44:30 until 1972: quarters that straddle midnight
  "Europe/Amsterdam",
];
/** Instants from old offsets that are not whole quarter hours, around local midnight. */
const OLD_INSTANTS = [
  Date.parse("1971-06-01T00:44:30Z"),
  Date.parse("1971-06-02T00:44:30Z"),
  Date.parse("1930-06-01T22:40:28Z"),
];

const instant = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -12 * DAY, max: 2 * DAY }).map((d) => BASE + d) },
  {
    // On and around quarter-hour boundaries, where the buckets split.
    weight: 3,
    arbitrary: fc
      .tuple(fc.integer({ min: -12 * 96, max: 2 * 96 }), fc.constantFrom(-1, 0, 1, QUARTER - 1))
      .map(([k, ms]) => BASE + k * QUARTER + ms),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...OLD_INSTANTS),
        fc.constantFrom(-20 * 60_000, -31_000, -1, 0, 1, 29_000, 31_000, 20 * 60_000),
      )
      .map(([t, d]) => t + d),
  },
);

const USERS = 7;
const QUESTIONS = 6;
const userIx = fc.integer({ min: 0, max: USERS - 1 });
const otherIx = fc.integer({ min: 1, max: USERS - 1 });
const questionIx = fc.integer({ min: 0, max: QUESTIONS - 1 });
const category = fc.constantFrom(...CATEGORIES);

const answerItem = fc.record({ q: questionIx, correct: fc.boolean(), at: instant, category });

type AnswerItem = { q: number; correct: boolean; at: number; category: string };
type ExamFields = {
  answers: {
    q: number;
    correct: boolean;
    at: number;
    chosen: boolean;
    timed: boolean;
    category: string;
  }[];
};
type OwnOp =
  | { kind: "session"; user: number; at: number }
  | { kind: "updateReview"; pick: number; correct: boolean; at: number; category: string }
  | { kind: "deleteSession"; user: number }
  | { kind: "profile"; user: number; share: boolean; pgy: string };
type Op = HistoryOp<AnswerItem, ExamFields, OwnOp>;

const draw = historyDraws({ user: userIx, other: otherIx, question: questionIx });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: draw.answers(answerItem) },
  {
    weight: 3,
    arbitrary: draw.exam({
      answers: fc.uniqueArray(
        fc.record({
          q: questionIx,
          correct: fc.boolean(),
          at: instant,
          chosen: fc.boolean(),
          timed: fc.boolean(),
          category,
        }),
        { selector: (a) => a.q, maxLength: 5 },
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("session" as const), user: userIx, at: instant }),
  },
  { weight: 2, arbitrary: draw.deleteReview },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("updateReview" as const),
      pick: fc.nat(),
      correct: fc.boolean(),
      at: instant,
      category,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("deleteSession" as const), user: userIx }),
  },
  { weight: 1, arbitrary: draw.deleteQuestion },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("profile" as const),
      user: userIx,
      share: fc.boolean(),
      pgy: fc.constantFrom("1", "2", ""),
    }),
  },
  { weight: 1, arbitrary: draw.reset },
  { weight: 1, arbitrary: draw.deleteUser },
);

/** Exam answers of one run get distinct milliseconds: the old log's order among equal ones was the database's. */
let examTick = 0;

async function play(db: Db, ops: readonly Op[]) {
  const history = await RandomHistory.start(db, {
    prefix: "rollup",
    users: USERS,
    questions: QUESTIONS,
    profile: (i) => ({ pgyLevel: i % 2 === 0 ? "1" : "2", shareUsageData: i !== 1 }),
  });
  const qs = history.questions;
  await history.play<AnswerItem, ExamFields, OwnOp>(ops, {
    review: (a) => ({
      category: a.category,
      isCorrect: a.correct,
      selected: ["B"],
      timeSpentMs: 1000 + a.q,
      reviewedAt: new Date(a.at),
    }),
    // No account is deleted once every question is (user 0, their owner, is never deleted).
    skip: (o) => o.kind === "deleteUser" && !qs.some(Boolean),
    own: async (o, user) => {
      switch (o.kind) {
        case "exam": {
          const answers = o.answers.filter((a) => qs[a.q]);
          const examId = await startExam(db, {
            userId: user!,
            count: answers.length,
            startedAt: new Date(BASE),
          });
          for (const a of answers) {
            examTick += 1;
            await db.insert(examAnswers).values({
              examId,
              questionId: qs[a.q]!,
              userId: user!,
              selected: a.chosen ? ["A"] : [],
              isCorrect: a.correct,
              category: a.category,
              timeSpentMs: 2000,
              answeredAt: a.timed ? new Date(a.at + (examTick % 997)) : null,
            });
          }
          if (o.lapse && answers[0]) {
            await history.writeReviews([
              {
                userId: user!,
                questionId: qs[answers[0].q]!,
                category: answers[0].category,
                isCorrect: false,
                reviewedAt: new Date(answers[0].at),
                examId,
              },
            ]);
          }
          if (o.status !== "in_progress") {
            await db.update(exams).set({ status: o.status }).where(eq(exams.id, examId));
          }
          // Deleting the exam takes its answers away and turns its lapse records into study reviews.
          if (o.remove) await db.delete(exams).where(eq(exams.id, examId));
          break;
        }
        case "session":
          await db.insert(studySessions).values({ userId: user!, startedAt: new Date(o.at) });
          break;
        case "updateReview":
          await history.updateReview(o.pick, {
            isCorrect: o.correct,
            reviewedAt: new Date(o.at),
            category: o.category,
          });
          break;
        case "deleteSession": {
          const [s] = await db
            .select({ id: studySessions.id })
            .from(studySessions)
            .where(eq(studySessions.userId, user!))
            .limit(1);
          if (s) await db.delete(studySessions).where(eq(studySessions.id, s.id));
          break;
        }
        case "profile":
          await db
            .update(users)
            .set({ shareUsageData: o.share, pgyLevel: o.pgy })
            .where(eq(users.id, user!));
          break;
      }
    },
  });
  return history.users;
}

describe("kept figures against the whole-log computation (decision 220)", () => {
  it("the dashboard's statistics and the three rankings agree on random histories", async () => {
    const db = h.db.db;
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 25 }),
        fc.constantFrom(...ZONES),
        // Always one whose day does not start on a quarter hour (in the past) or not on the hour.
        fc.constantFrom("Africa/Monrovia", "Asia/Kathmandu", "Australia/Lord_Howe"),
        fc.integer({ min: -3 * DAY, max: 12 * DAY }),
        async (ops, zoneA, zoneB, nowOffset) => {
          const ids = await play(db, ops);
          await expectRollupsMatchLog(db);
          const now = new Date(BASE + nowOffset);
          for (const userId of ids.filter((id): id is string => id !== null).slice(0, 3)) {
            for (const timeZone of [zoneA, zoneB]) {
              const kept = studyStatsFromRollups(await loadStudyRollups(db, { userId, timeZone }), {
                timeZone,
                now,
              });
              expect(kept).toEqual(await studyStatsFromLog(db, { userId, timeZone, now }));
            }
          }
          const viewer = ids[0]!;
          const [row] = await db.select().from(users).where(eq(users.id, viewer));
          // Two moments: the window's start moves forward with the first and is behind the second.
          for (const at of [now, new Date(BASE - 2 * DAY + (nowOffset % QUARTER))]) {
            const opts = { userId: viewer, pgyLevel: row!.pgyLevel, now: at };
            expect(await comparativeStats(db, opts)).toEqual(await comparativeFromLog(db, opts));
          }
          await expectRollupsMatchLog(db);
        },
      ),
      { numRuns: 25, seed: 2_220, endOnFailure: true },
    );
  }, 600_000);

  it("stats.summary shows the whole-log figures for a user with reviews, exam answers and sessions", async () => {
    const db = h.db.db;
    const [ids] = [await play(db, [])];
    const me = ids[0]!;
    const q = await addQuestion(db, me, { category: "Psychiatry" });
    const times = ["2025-03-09T06:59:00Z", "2025-03-09T07:01:00Z", "2025-03-10T03:00:00Z"];
    for (const [i, at] of times.entries()) {
      await db.insert(reviews).values({
        userId: me,
        questionId: q.id,
        category: i === 0 ? "" : "Psychiatry",
        isCorrect: i !== 1,
        reviewedAt: new Date(at),
      });
    }
    await db
      .insert(studySessions)
      .values({ userId: me, startedAt: new Date("2025-03-11T12:00:00Z") });
    const now = new Date("2025-03-11T15:00:00Z");
    for (const timeZone of ["America/New_York", "Asia/Kathmandu", "UTC"]) {
      const summary = await studySummary(db, { userId: me, timeZone, now });
      const oracle = await studyStatsFromLog(db, { userId: me, timeZone, now });
      expect(summary).toMatchObject(JSON.parse(JSON.stringify(oracle)));
      expect(summary.studyHistory.length).toBeGreaterThan(1);
    }
  });
});

describe("answers at once (decision 220)", () => {
  it("two writers answering for the same user at the same time, while the week window moves, leave exact figures", async () => {
    const me = await h.user({ pgyLevel: "3" });
    await h.db.db.update(users).set({ shareUsageData: true }).where(eq(users.id, me.user.id));
    const qs = await Promise.all(
      Array.from({ length: 24 }, () => addQuestion(h.db.db, me.user.id)),
    );
    // Two callers of the same user, each answering half of the questions, all at once; a third
    // reads the rankings at moments that move the window's start forward a quarter at a time.
    const callers = await Promise.all([h.callerFor(me.user), h.callerFor(me.user)]);
    const reader = async (i: number) => {
      const at = new Date(Date.now() + i * QUARTER);
      await comparativeStats(h.db.db, { userId: me.user.id, pgyLevel: "3", now: at });
    };
    await Promise.all([
      ...qs.map((q, i) =>
        callers[i % 2]!.study.answer({ questionId: q.id, selected: ["B"], timeSpentMs: 1000 }),
      ),
      ...[1, 2, 3, 4].map(reader),
    ]);
    await expectRollupsMatchLog(h.db.db);
    const kept = await h.db.db
      .select()
      .from(reviews)
      .where(
        and(
          eq(reviews.userId, me.user.id),
          inArray(
            reviews.questionId,
            qs.map((q) => q.id),
          ),
        ),
      );
    expect(kept).toHaveLength(24);
    const now = new Date();
    expect(await comparativeStats(h.db.db, { userId: me.user.id, pgyLevel: "3", now })).toEqual(
      await comparativeFromLog(h.db.db, { userId: me.user.id, pgyLevel: "3", now }),
    );
    const s = await studySummary(h.db.db, { userId: me.user.id, timeZone: "UTC", now });
    expect(s.totalStudied).toBe(24);
  });
});
