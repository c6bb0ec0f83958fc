import { TRPCError } from "@trpc/server";
import { and, count, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { EXAM_LIMITS } from "../../../core/exams";
import { examAnswers, exams, questions, reviews, studyStates, users } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { errorMessage } from "../../trpc/init";
import { setQuestionMedia, storeMedia } from "../media/media.service";
import { addFlashcard, addQuestion } from "../study/test-fixtures";
import { NOT_ENOUGH_COHORT } from "./exam-report.service";
import { EXAM_ERRORS, sweepExpiredExams } from "./exams.service";
import { MOCK_ERRORS } from "./mock-exams.service";

/** The clock every caller of this file reads (ctx.now): tests move it instead of sleeping. */
const clock = { now: new Date("2026-03-01T12:00:00Z") };
const advance = (ms: number) => {
  clock.now = new Date(clock.now.getTime() + ms);
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ now: () => clock.now });
});
afterAll(async () => {
  await h.close();
});
// Public questions would join every later test's pool: each test starts from a private world.
afterEach(async () => {
  await h.db.db.update(questions).set({ isPublic: false });
});

async function errorOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof TRPCError) return { code: err.code, message: errorMessage(err) };
    throw err;
  }
  throw new Error("expected a refusal");
}

/** `n` questions of the user's in each category given. */
async function bank(
  user: TestUser,
  perCategory: Record<string, number>,
  extra: Parameters<typeof addQuestion>[2] = {},
) {
  const made = [];
  for (const [category, n] of Object.entries(perCategory)) {
    for (let i = 0; i < n; i++)
      made.push(await addQuestion(h.db.db, user.user.id, { category, ...extra }));
  }
  return made;
}

async function examCount(userId: string) {
  const [row] = await h.db.db.select({ n: count() }).from(exams).where(eq(exams.userId, userId));
  return Number(row!.n);
}

describe("creating an exam", () => {
  it("draws a balanced exam by the pool's shares, without repeats, with its seed stored", async () => {
    const me = await h.user();
    await bank(me, { Neuroscience: 30, Ethics: 20, Genetics: 10 });
    const { exam, notice } = await me.caller.exams.create({ size: 12, mode: "tutor" });
    expect(notice).toBeNull();
    expect(exam.questions).toHaveLength(12);
    expect(new Set(exam.questions.map((q) => q.questionId)).size).toBe(12);
    const per = (c: string) => exam.questions.filter((q) => q.category === c).length;
    // 12 × 30/60, 12 × 20/60, 12 × 10/60.
    expect([per("Neuroscience"), per("Ethics"), per("Genetics")]).toEqual([6, 4, 2]);
    expect(exam).toMatchObject({
      mode: "tutor",
      status: "in_progress",
      endsAt: null,
      remainingMs: null,
      requestedSize: 12,
      questionCount: 12,
    });
    expect(Number.isInteger(exam.seed)).toBe(true);
    // Positions 1..n; timed mode hides the key, tutor mode too until answered.
    expect(exam.questions.map((q) => q.position)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(exam.questions.every((q) => q.feedback === null)).toBe(true);
    expect(JSON.stringify(exam.questions[0])).not.toContain("correctAnswer");
  });

  it("uses the defaults of the issue: 40 questions, both parts, timed at 90 s each", async () => {
    const me = await h.user();
    await bank(me, { Neuroscience: 45 });
    const { exam } = await me.caller.exams.create({});
    expect(exam).toMatchObject({
      questionCount: 40,
      part: "both",
      pool: "all",
      mode: "timed",
      secondsPerQuestion: 90,
      remainingMs: 40 * 90_000,
    });
    expect(new Date(exam.endsAt!).getTime() - new Date(exam.startedAt).getTime()).toBe(40 * 90_000);
  });

  it("never puts a flashcard in an exam (issue 17)", async () => {
    const me = await h.user();
    const mcq = await bank(me, { Ethics: 3 });
    for (let i = 0; i < 4; i++)
      await addFlashcard(h.db.db, me.user.id, { category: "Ethics", isPublic: true });
    const { exam, notice } = await me.caller.exams.create({ size: 7, pool: "all" });
    expect(exam.questions.map((q) => q.questionId).sort()).toEqual(mcq.map((q) => q.id).sort());
    expect(notice).toBe("Only 3 questions match these settings, so this exam has 3 instead of 7.");

    const onlyCards = await h.user();
    for (let i = 0; i < 2; i++)
      await addFlashcard(h.db.db, onlyCards.user.id, { category: "Genetics" });
    expect(
      await errorOf(onlyCards.caller.exams.create({ categories: ["Genetics"], size: 5 })),
    ).toEqual({ code: "BAD_REQUEST", message: "No questions match these settings." });
  });

  it("is smaller and says so when too few questions match; none: a clear error and nothing created", async () => {
    const me = await h.user();
    await bank(me, { Ethics: 3 });
    await bank(me, { Ethics: 2 }, { part: "2" });
    const small = await me.caller.exams.create({ size: 10, part: "1" });
    expect(small.exam.questionCount).toBe(3);
    expect(small.notice).toBe(
      "Only 3 questions match these settings, so this exam has 3 instead of 10.",
    );
    const before = await examCount(me.user.id);
    expect(await errorOf(me.caller.exams.create({ categories: ["Genetics"] }))).toEqual({
      code: "BAD_REQUEST",
      message: "No questions match these settings.",
    });
    expect(await examCount(me.user.id)).toBe(before);
  });

  it("takes only questions with an answer that the caller may see, of the chosen categories", async () => {
    const me = await h.user();
    const other = await h.user();
    const mine = await bank(me, { Ethics: 2, Genetics: 2 });
    await bank(other, { Ethics: 5 }); // private to the other user
    await addQuestion(h.db.db, me.user.id, {
      category: "Ethics",
      correctAnswer: "",
      correctAnswers: [],
    });
    const { exam } = await me.caller.exams.create({ size: 5, categories: ["Ethics"] });
    expect(exam.questions.map((q) => q.questionId).sort()).toEqual(
      mine
        .filter((q) => q.category === "Ethics")
        .map((q) => q.id)
        .sort(),
    );
  });

  it("refuses sizes and times out of range with the product's words", async () => {
    const me = await h.user();
    expect((await errorOf(me.caller.exams.create({ size: 4 }))).message).toBe(
      "Number of questions must be a whole number from 5 to 150",
    );
    expect((await errorOf(me.caller.exams.create({ size: 151 }))).message).toBe(
      "Number of questions must be a whole number from 5 to 150",
    );
    expect((await errorOf(me.caller.exams.create({ secondsPerQuestion: 29 }))).message).toBe(
      "Seconds per question must be a whole number from 30 to 180",
    );
    expect((await errorOf(me.caller.exams.create({ mode: "speed" as never }))).message).toBe(
      "Mode must be tutor or timed",
    );
    expect(await examCount(me.user.id)).toBe(0);
  });

  it("draws from the unused, incorrect and flagged pools of the caller", async () => {
    const me = await h.user();
    const qs = await bank(me, { Neuroscience: 8 });
    const first = await me.caller.exams.create({ size: 5, mode: "tutor" });
    const [a, b, c] = first.exam.questions;
    await me.caller.exams.answer({
      examId: first.exam.id,
      questionId: a!.questionId,
      selected: ["B"],
    });
    await me.caller.exams.answer({
      examId: first.exam.id,
      questionId: b!.questionId,
      selected: ["A"],
    });
    await me.caller.exams.flag({ examId: first.exam.id, questionId: c!.questionId, flagged: true });
    await me.caller.exams.submit({ examId: first.exam.id });

    const unused = await me.caller.exams.create({ size: 5, pool: "unused" });
    const inFirst = new Set(first.exam.questions.map((q) => q.questionId));
    expect(unused.exam.questions.map((q) => q.questionId).sort()).toEqual(
      qs
        .map((q) => q.id)
        .filter((id) => !inFirst.has(id))
        .sort(),
    );
    const incorrect = await me.caller.exams.create({ size: 5, pool: "incorrect" });
    expect(incorrect.exam.questions.map((q) => q.questionId)).toEqual([b!.questionId]);
    const flagged = await me.caller.exams.create({ size: 5, pool: "flagged" });
    expect(flagged.exam.questions.map((q) => q.questionId)).toEqual([c!.questionId]);
  });
});

describe("taking an exam", () => {
  it("saves each answer as given, hides the key while timed, then scores once on submit", async () => {
    const me = await h.user();
    await bank(me, { Neuroscience: 5 });
    const multi = await addQuestion(h.db.db, me.user.id, {
      questionType: "multipleCorrect",
      category: "Neuroscience",
    });
    const { exam } = await me.caller.exams.create({ size: 6 });
    const others = exam.questions.filter((q) => q.questionId !== multi.id);
    const saved = await me.caller.exams.answer({
      examId: exam.id,
      questionId: others[0]!.questionId,
      selected: ["a"],
      timeSpentMs: 4000,
    });
    expect(saved).toMatchObject({ answer: { selected: ["A"], timeSpentMs: 4000 }, feedback: null });
    // Changed while the exam runs: the last answer counts.
    await me.caller.exams.answer({
      examId: exam.id,
      questionId: others[0]!.questionId,
      selected: ["B"],
    });
    await me.caller.exams.answer({
      examId: exam.id,
      questionId: others[1]!.questionId,
      selected: ["C"],
    });
    // Multiple correct: right only with every answer (the study rule).
    await me.caller.exams.answer({ examId: exam.id, questionId: multi.id, selected: ["A", "C"] });
    await me.caller.exams.eliminate({
      examId: exam.id,
      questionId: others[2]!.questionId,
      eliminated: ["d", "e"],
    });

    const resumed = await me.caller.exams.get({ examId: exam.id });
    expect(
      resumed.questions.find((q) => q.questionId === others[0]!.questionId)!.answer.selected,
    ).toEqual(["B"]);
    expect(
      resumed.questions.find((q) => q.questionId === others[2]!.questionId)!.answer.eliminated,
    ).toEqual(["D", "E"]);
    expect(resumed.questions.find((q) => q.questionId === multi.id)!.answer.selected).toEqual([
      "A",
      "C",
    ]);
    expect(resumed.questions.every((q) => q.feedback === null)).toBe(true);

    const submitted = await me.caller.exams.submit({ examId: exam.id });
    expect(submitted).toMatchObject({ status: "submitted", correctCount: 1, scorePercent: 17 });
    expect(await errorOf(me.caller.exams.submit({ examId: exam.id }))).toEqual({
      code: "CONFLICT",
      message: EXAM_ERRORS.SUBMITTED,
    });
    const before = await h.db.db.select().from(examAnswers).where(eq(examAnswers.examId, exam.id));
    expect(
      await errorOf(
        me.caller.exams.answer({
          examId: exam.id,
          questionId: others[3]!.questionId,
          selected: ["B"],
        }),
      ),
    ).toEqual({ code: "CONFLICT", message: EXAM_ERRORS.SUBMITTED });
    expect(await h.db.db.select().from(examAnswers).where(eq(examAnswers.examId, exam.id))).toEqual(
      before,
    );
    const after = await me.caller.exams.get({ examId: exam.id });
    expect(after.questions.every((q) => q.feedback !== null)).toBe(true);
  });

  it("refuses a question that is not in the exam and a letter that is not an option", async () => {
    const me = await h.user();
    await bank(me, { Ethics: 5 });
    const outside = await addQuestion(h.db.db, me.user.id, { category: "Genetics" });
    const { exam } = await me.caller.exams.create({ size: 5, categories: ["Ethics"] });
    expect(
      await errorOf(
        me.caller.exams.answer({ examId: exam.id, questionId: outside.id, selected: ["B"] }),
      ),
    ).toEqual({ code: "BAD_REQUEST", message: EXAM_ERRORS.NOT_IN_EXAM });
    expect(
      (
        await errorOf(
          me.caller.exams.answer({
            examId: exam.id,
            questionId: exam.questions[0]!.questionId,
            selected: ["O"],
          }),
        )
      ).message,
    ).toBe("Please select one of the question's options");
  });

  it("in tutor mode shows the answer and explanation at once and keeps the first answer", async () => {
    const me = await h.user();
    await bank(me, { Ethics: 5 }, { explanation: "Because beta." });
    const { exam } = await me.caller.exams.create({ size: 5, mode: "tutor" });
    const q = exam.questions[0]!.questionId;
    const saved = await me.caller.exams.answer({ examId: exam.id, questionId: q, selected: ["B"] });
    expect(saved.feedback).toEqual({
      isCorrect: true,
      correctAnswers: ["B"],
      explanation: "Because beta.",
      generatedExplanation: "",
    });
    expect(
      await errorOf(me.caller.exams.answer({ examId: exam.id, questionId: q, selected: ["A"] })),
    ).toEqual({
      code: "CONFLICT",
      message: EXAM_ERRORS.TUTOR_FINAL,
    });
  });

  it("answers racing the submission are saved and counted, or refused; never saved after it", async () => {
    const me = await h.user();
    await bank(me, { Ethics: 30 });
    const { exam } = await me.caller.exams.create({ size: 30 });
    // Every question's key is B (addQuestion): each saved answer is a correct one.
    const answers = exam.questions.map((q) =>
      me.caller.exams.answer({ examId: exam.id, questionId: q.questionId, selected: ["B"] }).then(
        () => "saved",
        (err: unknown) => (err instanceof TRPCError ? errorMessage(err) : String(err)),
      ),
    );
    const submitted = me.caller.exams.submit({ examId: exam.id });
    const outcomes = await Promise.all(answers);
    const { correctCount } = await submitted;
    expect(outcomes.every((o) => o === "saved" || o === EXAM_ERRORS.SUBMITTED)).toBe(true);
    const stored = await h.db.db.select().from(examAnswers).where(eq(examAnswers.examId, exam.id));
    expect(stored).toHaveLength(outcomes.filter((o) => o === "saved").length);
    expect(correctCount).toBe(stored.length);
  });

  it("in tutor mode keeps one of two answers sent at once to the same question", async () => {
    const me = await h.user();
    await bank(me, { Ethics: 5 });
    const { exam } = await me.caller.exams.create({ size: 5, mode: "tutor" });
    const q = exam.questions[0]!.questionId;
    const outcomes = await Promise.all(
      ["A", "B"].map((letter) =>
        me.caller.exams.answer({ examId: exam.id, questionId: q, selected: [letter] }).then(
          (saved) => saved.answer.selected[0],
          (err: unknown) => (err instanceof TRPCError ? errorMessage(err) : String(err)),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === EXAM_ERRORS.TUTOR_FINAL)).toHaveLength(1);
    const [kept] = await h.db.db
      .select()
      .from(examAnswers)
      .where(and(eq(examAnswers.examId, exam.id), eq(examAnswers.questionId, q)));
    expect(outcomes).toContain(kept!.selected[0]);
  });

  it("is its taker's alone: another user and an admin get 404 and change nothing", async () => {
    const me = await h.user();
    const other = await h.user();
    await bank(me, { Ethics: 5 });
    const { exam } = await me.caller.exams.create({ size: 5 });
    const q = exam.questions[0]!.questionId;
    // One at a time: each call starts only when the previous one has been refused.
    const calls = [
      () => other.caller.exams.get({ examId: exam.id }),
      () => other.caller.exams.answer({ examId: exam.id, questionId: q, selected: ["B"] }),
      () => other.caller.exams.submit({ examId: exam.id }),
      () => other.caller.exams.delete({ examId: exam.id }),
      () => other.caller.exams.report({ examId: exam.id }),
    ];
    for (const call of calls) {
      expect(await errorOf(call())).toEqual({ code: "NOT_FOUND", message: "Exam not found" });
    }
    expect((await me.caller.exams.get({ examId: exam.id })).status).toBe("in_progress");
  });
});

describe("the deadline, enforced by the server", () => {
  it("takes answers within the grace, refuses them after, and submits the exam on the next read", async () => {
    const me = await h.user();
    await bank(me, { Ethics: 5 });
    const { exam } = await me.caller.exams.create({ size: 5, secondsPerQuestion: 30 });
    expect(exam.remainingMs).toBe(150_000);
    advance(60_000);
    expect((await me.caller.exams.get({ examId: exam.id })).remainingMs).toBe(90_000);
    const [q1, q2] = exam.questions;
    advance(90_000 + EXAM_LIMITS.GRACE_MS - 1000);
    const late = await me.caller.exams.answer({
      examId: exam.id,
      questionId: q1!.questionId,
      selected: ["B"],
    });
    expect(late.remainingMs).toBe(0);
    advance(2000);
    expect(
      await errorOf(
        me.caller.exams.answer({ examId: exam.id, questionId: q2!.questionId, selected: ["B"] }),
      ),
    ).toEqual({ code: "CONFLICT", message: EXAM_ERRORS.TIME_UP });
    const expired = await me.caller.exams.get({ examId: exam.id });
    expect(expired).toMatchObject({ status: "expired", correctCount: 1, submittedAt: exam.endsAt });
    expect(await errorOf(me.caller.exams.submit({ examId: exam.id }))).toEqual({
      code: "CONFLICT",
      message: EXAM_ERRORS.TIME_UP,
    });
  });

  it("is swept when nobody has the exam open, each exam exactly once by concurrent sweeps", async () => {
    const me = await h.user();
    await bank(me, { Ethics: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push((await me.caller.exams.create({ size: 5, secondsPerQuestion: 30 })).exam.id);
    const tutor = (await me.caller.exams.create({ size: 5, mode: "tutor" })).exam.id;
    // Not yet: inside the grace nothing is submitted.
    advance(150_000 + EXAM_LIMITS.GRACE_MS - 1);
    // (Exams other tests left running may be swept here: only this test's are checked.)
    const early = await sweepExpiredExams(h.db.db, { now: clock.now });
    expect(early.filter((id) => ids.includes(id))).toEqual([]);
    advance(10);
    const sweeps = await Promise.all([
      sweepExpiredExams(h.db.db, { now: clock.now, batch: 4 }),
      sweepExpiredExams(h.db.db, { now: clock.now, batch: 4 }),
      sweepExpiredExams(h.db.db, { now: clock.now, batch: 4 }),
    ]);
    const rest = await sweepExpiredExams(h.db.db, { now: clock.now });
    const swept = [...sweeps.flat(), ...rest];
    expect(swept.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    expect(new Set(swept).size).toBe(swept.length);
    expect(await sweepExpiredExams(h.db.db, { now: clock.now })).toEqual([]);
    const rows = await h.db.db.select().from(exams).where(eq(exams.userId, me.user.id));
    for (const row of rows) {
      if (row.id === tutor) expect(row.status).toBe("in_progress");
      else expect([row.status, row.submittedAt]).toEqual(["expired", row.endsAt]);
    }
  });
});

describe("images (issue 17)", () => {
  it("shows a question's images, in order, while taking the exam and in its review", async () => {
    const me = await h.user();
    const [withImages] = await bank(me, { Ethics: 5 });
    const files = [1, 2].map(
      (n) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, n, 0xe7]),
    );
    const hashes: string[] = [];
    for (const bytes of files)
      hashes.push((await storeMedia(h.db.db, { bytes, uploadedBy: me.user.id })).sha256);
    await setQuestionMedia(h.db.db, withImages!.id, [hashes[1]!, hashes[0]!]);

    const { exam } = await me.caller.exams.create({ size: 5, mode: "tutor" });
    const shown = (id: string) => exam.questions.find((q) => q.questionId === id)!.images;
    expect(shown(withImages!.id)).toEqual([hashes[1], hashes[0]]);
    expect(exam.questions.filter((q) => q.images.length === 0)).toHaveLength(4);

    await me.caller.exams.submit({ examId: exam.id });
    const { items } = await me.caller.exams.review({ examId: exam.id, filter: "all" });
    expect(items.find((i) => i.questionId === withImages!.id)!.images).toEqual([
      hashes[1],
      hashes[0],
    ]);
  });
});

describe("report, review and study", () => {
  it("reports score, time and categories beside study accuracy, and the cohort only with 5 others", async () => {
    const me = await h.user();
    const [studied] = await bank(me, { Ethics: 4, Genetics: 2 });
    await me.caller.study.answer({ questionId: studied!.id, selected: ["A"], timeSpentMs: 1 });
    const { exam } = await me.caller.exams.create({ size: 6, mode: "tutor" });
    for (const q of exam.questions) {
      await me.caller.exams.answer({
        examId: exam.id,
        questionId: q.questionId,
        selected: [q.category === "Ethics" ? "B" : "A"],
        timeSpentMs: q.category === "Genetics" ? 50_000 : 10_000,
      });
    }
    await expect(me.caller.exams.report({ examId: exam.id })).rejects.toThrow(
      EXAM_ERRORS.NOT_FINISHED,
    );
    await me.caller.exams.submit({ examId: exam.id });
    const report = await me.caller.exams.report({ examId: exam.id });
    expect(report).toMatchObject({
      correct: 4,
      total: 6,
      percent: 67,
      timeUsedMs: 140_000,
      averageMsPerQuestion: 23_333,
      slowestCategory: "Genetics",
      mostMissedCategory: "Genetics",
    });
    expect(report.categories.find((c) => c.category === "Ethics")).toMatchObject({
      percent: 100,
      studyAccuracy: 0,
      cohortMean: null,
      cohortNote: NOT_ENOUGH_COHORT,
    });

    // Five other users who share usage data answer Genetics: the cohort mean appears.
    const q = await addQuestion(h.db.db, me.user.id, { category: "Genetics", isPublic: true });
    for (let i = 0; i < 5; i++) {
      const other = await h.user();
      await h.db.db.update(users).set({ shareUsageData: true }).where(eq(users.id, other.user.id));
      await other.caller.study.answer({
        questionId: q.id,
        selected: [i < 2 ? "B" : "A"],
        timeSpentMs: 1,
      });
    }
    const withCohort = await me.caller.exams.report({ examId: exam.id });
    expect(withCohort.categories.find((c) => c.category === "Genetics")).toMatchObject({
      percent: 0,
      studyAccuracy: null,
      cohortMean: 40,
      cohortUsers: 5,
      cohortNote: null,
    });
  });

  it("reviews with filters, sends the incorrect ones to study as due today with a lapse, once", async () => {
    const me = await h.user();
    await h.db.db.update(users).set({ scheduler: "sm2" }).where(eq(users.id, me.user.id));
    await bank(me, { Ethics: 5 });
    const { exam } = await me.caller.exams.create({ size: 5 });
    const [right, wrong, , flagged] = exam.questions;
    await me.caller.exams.answer({
      examId: exam.id,
      questionId: right!.questionId,
      selected: ["B"],
      timeSpentMs: 3000,
    });
    await me.caller.exams.answer({
      examId: exam.id,
      questionId: wrong!.questionId,
      selected: ["C"],
      timeSpentMs: 7000,
    });
    await me.caller.exams.flag({ examId: exam.id, questionId: flagged!.questionId, flagged: true });
    const summaryBefore = await me.caller.stats.summary();
    await me.caller.exams.submit({ examId: exam.id });

    const ids = async (filter: "all" | "incorrect" | "flagged" | "unanswered") =>
      (await me.caller.exams.review({ examId: exam.id, filter })).items.map((i) => i.questionId);
    expect(await ids("all")).toHaveLength(5);
    expect(await ids("incorrect")).toEqual([wrong!.questionId]);
    expect(await ids("flagged")).toEqual([flagged!.questionId]);
    expect(await ids("unanswered")).toHaveLength(3);
    const [item] = (await me.caller.exams.review({ examId: exam.id, filter: "incorrect" })).items;
    expect(item).toMatchObject({
      selected: ["C"],
      correctAnswers: ["B"],
      isCorrect: false,
      timeSpentMs: 7000,
    });

    // Exam answers count once in the dashboard, in their category.
    const summary = await me.caller.stats.summary();
    expect(summary.totalStudied - summaryBefore.totalStudied).toBe(2);
    expect(summary.categoryPerformance.Ethics).toMatchObject({ total: 2, correct: 1 });

    expect(await me.caller.exams.studyIncorrect({ examId: exam.id })).toEqual({
      added: 1,
      questionIds: [wrong!.questionId],
    });
    const [state] = await h.db.db
      .select()
      .from(studyStates)
      .where(
        and(eq(studyStates.userId, me.user.id), eq(studyStates.questionId, wrong!.questionId)),
      );
    expect(state).toMatchObject({ lapses: 1, repetitions: 0, dueAt: clock.now });
    const due = await me.caller.study.due();
    expect(due.questions.map((q) => q._id)).toContain(wrong!.questionId);
    const logged = await h.db.db.select().from(reviews).where(eq(reviews.examId, exam.id));
    expect(logged).toHaveLength(1);
    // Still counted once, and sent once.
    expect((await me.caller.stats.summary()).totalStudied).toBe(summary.totalStudied);
    expect(await me.caller.exams.studyIncorrect({ examId: exam.id })).toEqual({
      added: 0,
      questionIds: [],
    });
  });

  it("lists the history newest first and deletes an exam with its answers", async () => {
    const me = await h.user();
    await bank(me, { Ethics: 5 });
    const first = (await me.caller.exams.create({ size: 5, mode: "tutor" })).exam;
    advance(1000);
    const second = (await me.caller.exams.create({ size: 5 })).exam;
    await me.caller.exams.answer({
      examId: second.id,
      questionId: second.questions[0]!.questionId,
      selected: ["B"],
    });
    await me.caller.exams.submit({ examId: second.id });
    const list = await me.caller.exams.list();
    expect(list.map((e) => [e.id, e.mode, e.status, e.questionCount, e.scorePercent])).toEqual([
      [second.id, "timed", "submitted", 5, 20],
      [first.id, "tutor", "in_progress", 5, null],
    ]);
    expect(await me.caller.exams.delete({ examId: second.id })).toEqual({ success: true });
    expect((await me.caller.exams.list()).map((e) => e.id)).toEqual([first.id]);
    expect(
      await h.db.db.select().from(examAnswers).where(eq(examAnswers.examId, second.id)),
    ).toEqual([]);
  });
});

describe("shared mock exams", () => {
  it("shares public questions under a join code; takers join, the creator and admins see the results", async () => {
    const chief = await h.user();
    const admin = await h.user({ isAdmin: true });
    await bank(chief, { Ethics: 6, Genetics: 3 }, { isPublic: true });
    const privateOnes = await bank(chief, { Ethics: 5 });
    const own = (await chief.caller.exams.create({ size: 9, secondsPerQuestion: 60 })).exam;
    const { mockExam, notice } = await chief.caller.exams.share({ examId: own.id });
    expect(notice).toBeNull();
    expect(mockExam).toMatchObject({
      questionCount: 9,
      mode: "timed",
      secondsPerQuestion: 60,
      closed: false,
    });
    expect(mockExam.code).toMatch(/^[A-Z2-9]{8}$/);

    const takers = [await h.user(), await h.user(), await h.user()];
    const attempts = [];
    for (const [i, taker] of takers.entries()) {
      const exam = await taker.caller.exams.join({ code: mockExam.code.toLowerCase() });
      expect(exam.questions.map((q) => q.questionId)).not.toContain(privateOnes[0]!.id);
      attempts.push(exam);
      // Taker i answers the first i+1 questions right.
      for (const q of exam.questions.slice(0, i + 1)) {
        await taker.caller.exams.answer({
          examId: exam.id,
          questionId: q.questionId,
          selected: ["B"],
        });
      }
      advance(1000);
      await taker.caller.exams.submit({ examId: exam.id });
    }
    // Every taker got the same fixed set in the same order; joining again resumes.
    expect(
      new Set(attempts.map((a) => a.questions.map((q) => q.questionId).join())),
    ).toHaveProperty("size", 1);
    expect((await takers[0]!.caller.exams.join({ code: mockExam.code })).id).toBe(attempts[0]!.id);

    const results = await chief.caller.exams.mockResults({ code: mockExam.code });
    expect(results.takers.map((t) => [t.username, t.correct])).toEqual([
      [takers[2]!.user.username, 3],
      [takers[1]!.user.username, 2],
      [takers[0]!.user.username, 1],
    ]);
    expect(results.spread.count).toBe(3);
    // Percents 11, 22 and 33.
    expect(results.spread.mean).toBe(22);
    expect(results.items[0]).toMatchObject({ position: 1, pValue: 1, discrimination: null });
    expect(results.items[2]!.pValue).toBeCloseTo(1 / 3, 5);
    expect(results.items[2]!.discrimination).toBeGreaterThan(0);
    expect(results.items[2]!.optionShares.B).toBeCloseTo(1 / 3, 5);
    expect(results.csv.split("\r\n")[0]).toBe(
      "username,status,correct,total,percent,time_used_seconds,submitted_at",
    );
    expect(results.csv).toContain(
      "position,question_id,category,correct_answers,p_value,discrimination",
    );
    expect((await admin.caller.exams.mockResults({ code: mockExam.code })).takers).toHaveLength(3);
    expect(await errorOf(takers[0]!.caller.exams.mockResults({ code: mockExam.code }))).toEqual({
      code: "FORBIDDEN",
      message: MOCK_ERRORS.NOT_CREATOR,
    });
    expect((await chief.caller.exams.mocks())[0]).toMatchObject({ code: mockExam.code, takers: 3 });
    expect((await admin.caller.exams.allMocks()).map((m) => m.code)).toContain(mockExam.code);

    // Closed: no new takers; a taker who joined before still reaches their attempt.
    expect(await errorOf(takers[0]!.caller.exams.close({ code: mockExam.code }))).toEqual({
      code: "FORBIDDEN",
      message: MOCK_ERRORS.NOT_CREATOR_CLOSE,
    });
    expect((await chief.caller.exams.close({ code: mockExam.code })).closed).toBe(true);
    const late = await h.user();
    expect(await errorOf(late.caller.exams.join({ code: mockExam.code }))).toEqual({
      code: "BAD_REQUEST",
      message: MOCK_ERRORS.CLOSED,
    });
    expect(await examCount(late.user.id)).toBe(0);
    expect((await takers[1]!.caller.exams.join({ code: mockExam.code })).id).toBe(attempts[1]!.id);
  });

  it("refuses unknown and malformed codes clearly", async () => {
    const me = await h.user();
    expect(await errorOf(me.caller.exams.join({ code: "ZZZZZZZZ" }))).toEqual({
      code: "NOT_FOUND",
      message: MOCK_ERRORS.UNKNOWN_CODE,
    });
    expect((await errorOf(me.caller.exams.join({ code: "abc" }))).message).toBe(
      "Join code must be 8 letters and digits",
    );
  });
});
