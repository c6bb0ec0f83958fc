import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAM_LIMITS } from "../../../core/exams";
import { buildApp } from "../../app";
import { examAnswers, exams } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { addQuestion } from "../study/test-fixtures";
import { EXAM_ERRORS } from "./exams.service";

/**
 * The server-side deadline of issue 16 through HTTP, as a REST client meets it: the server's own clock
 * (buildApp's `now`) is a fake one the test moves, and the server's own sweep timer runs every 20 ms.
 */
const clock = { now: new Date() };
const advance = (ms: number) => {
  clock.now = new Date(clock.now.getTime() + ms);
};

let h: Harness;
let app: FastifyInstance;
beforeAll(async () => {
  h = await createHarness({ now: () => clock.now });
  app = await buildApp({
    handle: h.db,
    config: { throttle: { maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 }, aiModel: null },
    webDir: null,
    now: () => clock.now,
    examSweepMs: 20,
  });
});
afterAll(async () => {
  await app.close();
  await h.close();
});

function call(user: TestUser, method: "GET" | "POST", url: string, payload?: object) {
  return app.inject({ method, url, headers: user.headers, payload });
}

async function timedExam(user: TestUser) {
  for (let i = 0; i < 5; i++)
    await addQuestion(h.db.db, user.user.id, { category: "Ethics", isPublic: false });
  const created = await call(user, "POST", "/api/exams", {
    size: 5,
    mode: "timed",
    secondsPerQuestion: 30,
  });
  expect(created.statusCode).toBe(201);
  return created.json().exam as {
    id: string;
    remainingMs: number;
    endsAt: string;
    questions: { questionId: string }[];
  };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the exam deadline over HTTP, with the server's clock moved", () => {
  it("takes an answer within the grace, refuses one after with the product's words, and changes nothing", async () => {
    const me = await h.user();
    const exam = await timedExam(me);
    expect(exam.remainingMs).toBe(150_000);
    const [q1, q2] = exam.questions;

    advance(60_000);
    const resumed = await call(me, "GET", `/api/exams/${exam.id}`);
    expect(resumed.json()).toMatchObject({ status: "in_progress", remainingMs: 90_000 });

    advance(90_000 + EXAM_LIMITS.GRACE_MS - 1000);
    const late = await call(me, "POST", `/api/exams/${exam.id}/answer`, {
      questionId: q1!.questionId,
      selected: ["B"],
    });
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({ remainingMs: 0, answer: { selected: ["B"] } });

    advance(2000);
    const before = await h.db.db.select().from(examAnswers).where(eq(examAnswers.examId, exam.id));
    const refused = await call(me, "POST", `/api/exams/${exam.id}/answer`, {
      questionId: q2!.questionId,
      selected: ["C"],
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: EXAM_ERRORS.TIME_UP });
    expect(await h.db.db.select().from(examAnswers).where(eq(examAnswers.examId, exam.id))).toEqual(
      before,
    );

    const after = await call(me, "GET", `/api/exams/${exam.id}`);
    expect(after.json()).toMatchObject({
      status: "expired",
      correctCount: 1,
      submittedAt: exam.endsAt,
    });
    const submit = await call(me, "POST", `/api/exams/${exam.id}/submit`);
    expect(submit.statusCode).toBe(409);
    expect(submit.json()).toMatchObject({ message: EXAM_ERRORS.TIME_UP });
  });

  it("is submitted by the server's own sweep while no client asks, at its deadline", async () => {
    const me = await h.user();
    const exam = await timedExam(me);
    await call(me, "POST", `/api/exams/${exam.id}/answer`, {
      questionId: exam.questions[0]!.questionId,
      selected: ["B"],
    });

    // Nobody reads the exam from here on: only the server's timer can submit it.
    advance(150_000 + EXAM_LIMITS.GRACE_MS + 1);
    const row = await until(
      async () => (await h.db.db.select().from(exams).where(eq(exams.id, exam.id)))[0]!,
      (r) => r.status !== "in_progress",
    );
    expect(row.status).toBe("expired");
    expect(row.submittedAt).toEqual(new Date(exam.endsAt));
    expect(row.correctCount).toBe(1);

    const history = await call(me, "GET", "/api/exams");
    expect(history.json()).toEqual([
      expect.objectContaining({ id: exam.id, status: "expired", correctCount: 1 }),
    ]);
  });
});
