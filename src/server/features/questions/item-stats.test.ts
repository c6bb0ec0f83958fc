/**
 * Issue 36 item 5 (decisions 390-393): item statistics kept by drizzle's item_stats triggers, held to
 * the from-scratch computation (itemSumsFromLog) on random histories — study answers in one statement
 * or several, edits and deletions of reviews, exams finished, left running and deleted, their lapse
 * records, deleted questions, reset progress and deleted accounts — on whichever database the suite
 * runs on (PGlite, or PostgreSQL with TEST_DATABASE_URL); and who may see them.
 */
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ITEM_STATS_MIN_ANSWERED,
  ITEM_STATS_MIN_EXAMS,
  type ItemSums,
} from "../../../core/item-stats";
import type { Db } from "../../db/client";
import { queryRows } from "../../db/raw";
import { examAnswers, examQuestions, exams, leechMarks, questions, reviews } from "../../db/schema";
import { createHarness, type Harness } from "../../test/harness";
import { historyDraws, RandomHistory, startExam, type HistoryOp } from "../../test/random-history";
import { addQuestion } from "../study/test-fixtures";
import { ITEM_STATS_FORBIDDEN, itemSumsFromLog, keptItemSums } from "./item-stats.service";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

/** Kept and from-scratch sums of every question: counts exactly, the rest-score sums to rounding. */
async function expectKeptMatchesLog(db: Db) {
  const ids = (await db.select({ id: questions.id }).from(questions)).map((r) => r.id);
  const kept = await keptItemSums(db, ids);
  const fromLog = await itemSumsFromLog(db, ids);
  const norm = (s: ItemSums | undefined) => {
    const picks = Object.fromEntries(Object.entries(s?.picks ?? {}).filter(([, n]) => n !== 0));
    return {
      answered: s?.answered ?? 0,
      correct: s?.correct ?? 0,
      timeMsSum: s?.timeMsSum ?? 0,
      picks,
      examN: s?.examN ?? 0,
      examSx: s?.examSx ?? 0,
    };
  };
  for (const id of ids) {
    const k = kept.get(id);
    const l = fromLog.get(id);
    expect(norm(k), id).toEqual(norm(l));
    expect(k?.examSy ?? 0).toBeCloseTo(l?.examSy ?? 0, 9);
    expect(k?.examSyy ?? 0).toBeCloseTo(l?.examSyy ?? 0, 9);
    expect(k?.examSxy ?? 0).toBeCloseTo(l?.examSxy ?? 0, 9);
  }
  // No kept row outlives its question (the cascades).
  const [orphans] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int n from question_item_stats s
      where not exists (select 1 from questions q where q.id = s.question_id)`,
  );
  expect(orphans!.n).toBe(0);
}

const USERS = 5;
const QUESTIONS = 5;
const LETTERS = ["A", "B", "C", "D", "E", "a"];
const userIx = fc.integer({ min: 0, max: USERS - 1 });
const otherIx = fc.integer({ min: 1, max: USERS - 1 });
const questionIx = fc.integer({ min: 0, max: QUESTIONS - 1 });
const selection = fc.uniqueArray(fc.constantFrom(...LETTERS), { maxLength: 3 });
const answer = fc.record({
  q: questionIx,
  correct: fc.boolean(),
  selected: selection,
  time: fc.integer({ min: 0, max: 120_000 }),
});
const draw = historyDraws({ user: userIx, other: otherIx, question: questionIx });

type Answer = { q: number; correct: boolean; selected: string[]; time: number };
type ExamFields = {
  questions: number[];
  answers: (Answer & { timed: boolean })[];
  /** An answer changed after the exam closed. */
  changeAfter: boolean;
};
type OwnOp = {
  kind: "updateReview";
  pick: number;
  correct: boolean;
  selected: string[];
  time: number;
};
type Op = HistoryOp<Answer, ExamFields, OwnOp>;

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: draw.answers(answer) },
  {
    weight: 5,
    arbitrary: draw.exam(
      {
        questions: fc.uniqueArray(questionIx, { minLength: 1, maxLength: QUESTIONS }),
        answers: fc.array(
          fc.record({
            q: questionIx,
            correct: fc.boolean(),
            selected: selection,
            time: fc.nat(60_000),
            timed: fc.boolean(),
          }),
          { maxLength: QUESTIONS },
        ),
      },
      { changeAfter: fc.boolean() },
    ),
  },
  { weight: 2, arbitrary: draw.deleteReview },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("updateReview" as const),
      pick: fc.nat(),
      correct: fc.boolean(),
      selected: selection,
      time: fc.nat(60_000),
    }),
  },
  { weight: 1, arbitrary: draw.deleteQuestion },
  { weight: 1, arbitrary: draw.reset },
  { weight: 1, arbitrary: draw.deleteUser },
);

/** The count right as closing an exam sets it (exams.service.ts closeExams). */
const correctCountOf = (examId: string) => sql`(select count(*)::int from exam_answers
  where exam_id = ${examId} and is_correct and cardinality(selected) > 0)`;

async function play(db: Db, ops: readonly Op[]) {
  const history = await RandomHistory.start(db, {
    prefix: "items",
    users: USERS,
    questions: QUESTIONS,
  });
  const qs = history.questions;
  await history.play<Answer, ExamFields, OwnOp>(ops, {
    review: (a) => ({ isCorrect: a.correct, selected: a.selected, timeSpentMs: a.time }),
    own: async (o, user) => {
      switch (o.kind) {
        case "exam": {
          const held = o.questions.filter((q) => qs[q]);
          if (held.length === 0) break;
          const examId = await startExam(db, {
            userId: user!,
            count: held.length,
            startedAt: new Date(),
          });
          await db
            .insert(examQuestions)
            .values(held.map((q, position) => ({ examId, position, questionId: qs[q]! })));
          const answered = new Set<number>();
          for (const a of o.answers) {
            if (!held.includes(a.q) || answered.has(a.q)) continue;
            answered.add(a.q);
            await db.insert(examAnswers).values({
              examId,
              questionId: qs[a.q]!,
              userId: user!,
              selected: a.selected,
              isCorrect: a.correct,
              timeSpentMs: a.time,
              answeredAt: a.timed ? new Date() : null,
            });
          }
          if (o.lapse) {
            await history.writeReviews([
              { userId: user!, questionId: qs[held[0]!]!, isCorrect: false, examId },
            ]);
          }
          if (o.status !== "in_progress") {
            await db
              .update(exams)
              .set({ status: o.status, correctCount: correctCountOf(examId) })
              .where(eq(exams.id, examId));
          }
          // An answer changed after the exam closed (no screen does it; the triggers must hold anyway).
          if (o.changeAfter && answered.size > 0) {
            await db
              .update(examAnswers)
              .set({ isCorrect: sql`not ${examAnswers.isCorrect}`, selected: ["C"] })
              .where(eq(examAnswers.examId, examId));
          }
          // Deleting the exam takes its answers and pairs away and turns its lapse record into a review.
          if (o.remove) await db.delete(exams).where(eq(exams.id, examId));
          break;
        }
        case "updateReview":
          await history.updateReview(o.pick, {
            isCorrect: o.correct,
            selected: o.selected,
            timeSpentMs: o.time,
          });
          break;
      }
    },
  });
}

describe("kept item statistics against the from-scratch computation (decision 391)", () => {
  it("agree on random histories of study answers, exams and deletions", async () => {
    const db = h.db.db;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 20 }), async (ops) => {
        await play(db, ops);
        await expectKeptMatchesLog(db);
      }),
      { numRuns: 20, seed: 3_690, endOnFailure: true },
    );
    // The histories reached every part: pairs, picks, and a change of an answer after an exam closed.
    const [seen] = await queryRows<{ pairs: number; picks: number; answered: number }>(
      db,
      sql`select (select count(*) from question_item_stats where exam_n > 0)::int pairs,
        (select count(*) from question_option_picks where picks > 0)::int picks,
        (select count(*) from question_item_stats where answered > 0)::int answered`,
    );
    expect(seen!.pairs).toBeGreaterThan(0);
    expect(seen!.picks).toBeGreaterThan(0);
    expect(seen!.answered).toBeGreaterThan(0);
  }, 600_000);

  it("the migration's backfill equals the log too", async () => {
    const db = h.db.db;
    // Empty the kept figures and refill them the way the migration does.
    await db.execute(sql`delete from question_item_stats`);
    await db.execute(sql`delete from question_option_picks`);
    await db.execute(sql`select item_answers_apply(1, array_agg(question_id), array_agg(is_correct),
      array_agg(time_spent_ms), array_agg(to_jsonb(selected))) from reviews where exam_id is null`);
    await db.execute(sql`select item_answers_apply(1, array_agg(a.question_id), array_agg(a.is_correct),
      array_agg(a.time_spent_ms), array_agg(to_jsonb(a.selected)))
      from exam_answers a join exams e on e.id = a.exam_id
      where e.status <> 'in_progress' and cardinality(a.selected) > 0 and a.answered_at is not null`);
    await db.execute(sql`select item_exams_apply(array_agg(id), array_agg(1), array_agg(correct_count),
      array_agg(question_count)) from exams where status <> 'in_progress'`);
    await expectKeptMatchesLog(db);
  });
});

describe("answers at once (decision 391)", () => {
  it("residents answering the same questions at the same time leave exact figures", async () => {
    const owner = await h.user();
    const residents = await Promise.all([h.user(), h.user(), h.user()]);
    const qs = await Promise.all(
      Array.from({ length: 6 }, () => addQuestion(h.db.db, owner.user.id, { isPublic: true })),
    );
    await Promise.all(
      residents.flatMap((r, i) =>
        qs.map((q, j) =>
          r.caller.study.answer({
            questionId: q.id,
            selected: [(i + j) % 2 === 0 ? "B" : "C"],
            timeSpentMs: 1000 * (i + 1),
          }),
        ),
      ),
    );
    await expectKeptMatchesLog(h.db.db);
    const stats = await owner.caller.questions.itemStats({ id: qs[0]!.id });
    expect(stats).toMatchObject({ answered: 3, correct: 2, meanTimeMs: 2000 });
  });
});

describe("who sees item statistics (decision 390)", () => {
  it("owner, the program's directors and admins (public questions); others are refused", async () => {
    const owner = await h.user();
    const admin = await h.user({ isAdmin: true });
    const other = await h.user();
    const publicQ = await addQuestion(h.db.db, owner.user.id, { isPublic: true });
    const privateQ = await addQuestion(h.db.db, owner.user.id, { isPublic: false });
    await h.db.db.insert(reviews).values([
      {
        userId: other.user.id,
        questionId: publicQ.id,
        isCorrect: true,
        selected: ["B"],
        timeSpentMs: 3000,
      },
      {
        userId: owner.user.id,
        questionId: publicQ.id,
        isCorrect: false,
        selected: ["a", "C"],
        timeSpentMs: 5000,
      },
    ]);
    await h.db.db.insert(leechMarks).values({ userId: other.user.id, questionId: publicQ.id });
    const stats = await owner.caller.questions.itemStats({ id: publicQ.id });
    expect(stats).toMatchObject({
      answered: 2,
      correct: 1,
      shareCorrect: 0.5,
      meanTimeMs: 4000,
      leeches: 1,
    });
    expect(stats.options.find((o) => o.letter === "A")).toEqual({
      letter: "A",
      picks: 1,
      share: 0.5,
    });
    expect(stats.discrimination).toBeNull();
    expect(await admin.caller.questions.itemStats({ id: publicQ.id })).toEqual(stats);
    await expect(other.caller.questions.itemStats({ id: publicQ.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: ITEM_STATS_FORBIDDEN,
    });
    // Another user's private question is missing, for the admin too.
    for (const u of [other, admin]) {
      await expect(u.caller.questions.itemStats({ id: privateQ.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
    }
    await expect(owner.caller.questions.itemStats({ id: "nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("a program's questions (decision 390)", () => {
  it("their statistics are the writer's and the program's directors', not its residents'", async () => {
    const director = await h.user();
    const writer = await h.user();
    const resident = await h.user();
    const program = await director.caller.programs.create({ name: "Item statistics program" });
    const { code } = await director.caller.programs.get({ id: program.id });
    await writer.caller.programs.join({ code: code! });
    await resident.caller.programs.join({ code: code! });
    const q = await addQuestion(h.db.db, writer.user.id, {
      isPublic: false,
      programId: program.id,
    });
    await h.db.db.insert(reviews).values({
      userId: resident.user.id,
      questionId: q.id,
      isCorrect: false,
      selected: ["D"],
      timeSpentMs: 7000,
    });
    for (const u of [writer, director]) {
      expect(await u.caller.questions.itemStats({ id: q.id })).toMatchObject({
        answered: 1,
        shareCorrect: 0,
      });
    }
    await expect(resident.caller.questions.itemStats({ id: q.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const listed = await director.caller.questions.search({ stats: "mostMissed" });
    expect(listed.items.map((x) => x._id)).not.toContain(q.id); // answered once: below the minimum
    // Made public, it is the admins' to review, no longer the directors'.
    await h.db.db.update(questions).set({ isPublic: true }).where(eq(questions.id, q.id));
    await expect(director.caller.questions.itemStats({ id: q.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect((await writer.caller.questions.itemStats({ id: q.id })).answered).toBe(1);
  });
});

describe("Browse's statistics filters (decision 393)", () => {
  it("most missed and negative discrimination, over the viewer's questions only", async () => {
    const owner = await h.user();
    const taker = await h.user();
    const stranger = await h.user();
    const hard = await addQuestion(h.db.db, owner.user.id, { isPublic: true, category: "Hard" });
    const easy = await addQuestion(h.db.db, owner.user.id, { isPublic: true, category: "Hard" });
    const few = await addQuestion(h.db.db, owner.user.id, { isPublic: true, category: "Hard" });
    const answers = (q: string, right: number, wrong: number) =>
      Array.from({ length: right + wrong }, (_, i) => ({
        userId: taker.user.id,
        questionId: q,
        isCorrect: i < right,
        selected: [i < right ? "B" : "A"],
      }));
    await h.db.db
      .insert(reviews)
      .values([
        ...answers(hard.id, 1, 5),
        ...answers(easy.id, 5, 1),
        ...answers(few.id, 0, ITEM_STATS_MIN_ANSWERED - 1),
      ]);
    const missed = await owner.caller.questions.search({ stats: "mostMissed", category: "Hard" });
    expect(missed.items.map((q) => q._id)).toEqual([hard.id, easy.id]);
    expect(missed.stats![hard.id]).toMatchObject({ answered: 6, shareCorrect: 1 / 6 });
    const theirs = await stranger.caller.questions.search({
      stats: "mostMissed",
      category: "Hard",
    });
    expect(theirs.total).toBe(0);

    // Exams where the strong takers miss `hard` and the weak ones get it: r < 0.
    for (let i = 0; i < ITEM_STATS_MIN_EXAMS + 1; i++) {
      const strong = i % 2 === 0;
      const examId = await startExam(h.db.db, {
        userId: taker.user.id,
        count: 3,
        startedAt: new Date(),
        mode: "tutor",
      });
      const held = [hard.id, easy.id, few.id];
      await h.db.db
        .insert(examQuestions)
        .values(held.map((questionId, position) => ({ examId, position, questionId })));
      for (const questionId of held) {
        const right = questionId === hard.id ? !strong : strong;
        await h.db.db.insert(examAnswers).values({
          examId,
          questionId,
          userId: taker.user.id,
          selected: ["B"],
          isCorrect: right,
          answeredAt: new Date(),
        });
      }
      await h.db.db
        .update(exams)
        .set({ status: "submitted", correctCount: correctCountOf(examId) })
        .where(eq(exams.id, examId));
    }
    const negative = await owner.caller.questions.search({
      stats: "negativeDiscrimination",
      category: "Hard",
    });
    expect(negative.items.map((q) => q._id)).toEqual([hard.id]);
    expect(negative.stats![hard.id]!.discrimination).toBeLessThan(0);
    const panel = await owner.caller.questions.itemStats({ id: hard.id });
    expect(panel.discrimination).toBeCloseTo(negative.stats![hard.id]!.discrimination!, 9);
    expect(panel.examAttempts).toBe(ITEM_STATS_MIN_EXAMS + 1);
    await expectKeptMatchesLog(h.db.db);
  });

  it("reported: questions with open reports, among those whose statistics the viewer sees", async () => {
    const owner = await h.user();
    const reader = await h.user();
    const q = await addQuestion(h.db.db, owner.user.id, { isPublic: true, category: "Reported" });
    await addQuestion(h.db.db, owner.user.id, { isPublic: true, category: "Reported" });
    await reader.caller.reports.create({ questionId: q.id, kind: "wrong_answer", comment: "" });
    const page = await owner.caller.questions.search({ stats: "reported", category: "Reported" });
    expect(page.items.map((x) => x._id)).toEqual([q.id]);
    const none = await reader.caller.questions.search({ stats: "reported", category: "Reported" });
    expect(none.total).toBe(0);
  });
});
