import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app";
import { exams } from "../../db/schema";
import { createHarness, type Harness } from "../../test/harness";
import { addQuestion } from "../study/test-fixtures";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const statusOf = async (id: string) =>
  (await h.db.db.select({ status: exams.status }).from(exams).where(eq(exams.id, id)))[0]!.status;

describe("the deadline sweep of a server process", () => {
  it("starts with the app, submits an exam nobody has open once its time is up, and stops on close", async () => {
    const me = await h.user();
    for (let i = 0; i < 5; i++) await addQuestion(h.db.db, me.user.id);
    // Begun an hour ago at 30 s a question: its 2.5 minutes are long gone.
    const past = await h.callerFor(me.user, { now: () => new Date(Date.now() - 3_600_000) });
    const overdue = (await past.exams.create({ size: 5, secondsPerQuestion: 30 })).exam.id;
    const running = (await me.caller.exams.create({ size: 5, secondsPerQuestion: 30 })).exam.id;

    const app = await buildApp({
      handle: h.db,
      config: { throttle: { maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 }, aiModel: null },
      webDir: null,
      examSweepMs: 20,
    });
    try {
      for (let i = 0; i < 200 && (await statusOf(overdue)) === "in_progress"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await statusOf(overdue)).toBe("expired");
      expect(await statusOf(running)).toBe("in_progress");
    } finally {
      await app.close();
    }
    // Stopped: an exam that runs out now stays as it is until someone reads it.
    const later = (await past.exams.create({ size: 5, secondsPerQuestion: 30 })).exam.id;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await statusOf(later)).toBe("in_progress");
  });
});
