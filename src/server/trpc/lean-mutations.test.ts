import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../db/schema";
import { addQuestion } from "../features/study/test-fixtures";
import { createHarness, type Harness, type TestUser } from "../test/harness";
import { leanCalls } from "./lean-mutations";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

/** `application/json` exactly takes the lean path; with a charset the call goes to tRPC's handler. */
const LEAN = "application/json";
const TRPC = "application/json; charset=utf-8";

async function call(
  procedure: string,
  input: unknown,
  contentType: string,
  user?: TestUser,
  batch = false,
): Promise<LightMyRequestResponse> {
  const app = await h.app();
  const body = typeof input === "string" ? input : JSON.stringify(batch ? { 0: input } : input);
  return app.inject({
    method: "POST",
    url: `/trpc/${procedure}${batch ? "?batch=1" : ""}`,
    payload: body,
    headers: { ...user?.headers, "content-type": contentType },
  });
}

/** What a client sees of a response: status, the headers tRPC sets, and the body. */
const seen = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  contentType: res.headers["content-type"],
  vary: res.headers["vary"],
  body: res.json() as unknown,
});

/** Ids and times differ between two users' answers to the same question; the rest must not. */
function normalized(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v: unknown) => {
    if (key === "reviewId") return 0;
    if (typeof v !== "string") return v;
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-/.test(v)) return "<id>";
    if (/^\d{4}-\d{2}-\d{2}T/.test(v)) return "<time>";
    return v;
  });
}

async function sm2User() {
  const u = await h.user();
  await h.db.db.update(users).set({ scheduler: "sm2" }).where(eq(users.id, u.user.id));
  return u;
}

describe("study.answer and study.rate called one at a time (decision 407)", () => {
  it.each([false, true])(
    "answer as tRPC's handler does, for the same call of two users (as a batch of one: %s)",
    async (batch) => {
      const owner = await h.user();
      const q = await addQuestion(h.db.db, owner.user.id, { isPublic: true });
      const [a, b] = [await sm2User(), await sm2User()];
      const before = leanCalls.count;
      const answer = { questionId: q.id, selected: ["B"], timeSpentMs: 900 };
      const lean = await call("study.answer", answer, LEAN, a, batch);
      const trpc = await call("study.answer", answer, TRPC, b, batch);
      expect(leanCalls.count).toBe(before + 1);
      expect(seen(lean).status).toBe(200);
      expect(normalized(seen(lean))).toEqual(normalized(seen(trpc)));

      const rating = { questionId: q.id, difficulty: 1 };
      const leanRate = await call("study.rate", rating, LEAN, a, batch);
      const trpcRate = await call("study.rate", rating, TRPC, b, batch);
      expect(leanCalls.count).toBe(before + 2);
      expect(seen(leanRate).status).toBe(200);
      expect(normalized(seen(leanRate))).toEqual(normalized(seen(trpcRate)));
    },
  );

  it("refuse as tRPC's handler does: no session, bad input, no such question, not an option", async () => {
    const me = await sm2User();
    const q = await addQuestion(h.db.db, me.user.id);
    const cases: [string, unknown, TestUser | undefined][] = [
      ["study.answer", { questionId: q.id, selected: ["B"], timeSpentMs: 1 }, undefined],
      ["study.rate", { questionId: q.id, difficulty: 1 }, undefined],
      ["study.answer", { questionId: "not an id", selected: ["B"], timeSpentMs: 1 }, me],
      ["study.answer", { questionId: q.id, selected: [], timeSpentMs: -1 }, me],
      ["study.rate", { questionId: q.id, difficulty: 7 }, me],
      ["study.rate", null, me],
      ["study.answer", { questionId: randomUUID(), selected: ["B"], timeSpentMs: 1 }, me],
      ["study.rate", { questionId: randomUUID(), difficulty: 1 }, me],
      ["study.answer", { questionId: q.id, selected: ["Z"], timeSpentMs: 1 }, me],
    ];
    for (const batch of [false, true]) {
      for (const [procedure, body, user] of cases) {
        const what = `${JSON.stringify(body)}, batch ${batch}`;
        const before = leanCalls.count;
        const lean = seen(await call(procedure, body, LEAN, user, batch));
        expect(leanCalls.count, what).toBe(before + 1);
        const trpc = seen(await call(procedure, body, TRPC, user, batch));
        expect(lean.status, what).toBeGreaterThanOrEqual(400);
        expect(lean, what).toEqual(trpc);
      }
    }
  });

  it("leaves batches of two, other procedures and bodies that are not JSON to tRPC's handler", async () => {
    const me = await sm2User();
    const q = await addQuestion(h.db.db, me.user.id);
    const before = leanCalls.count;
    // Two calls in one batch.
    const app = await h.app();
    const two = await app.inject({
      method: "POST",
      url: "/trpc/study.answer,study.rate?batch=1",
      payload: JSON.stringify({
        0: { questionId: q.id, selected: ["B"], timeSpentMs: 1 },
        1: { questionId: q.id, difficulty: 1 },
      }),
      headers: { ...me.headers, "content-type": LEAN },
    });
    expect(two.statusCode).toBe(200);
    expect(two.json()).toMatchObject([
      { result: { data: { isCorrect: true } } },
      { result: { data: { _id: q.id } } },
    ]);
    for (const batch of [false, true]) {
      for (const body of ["{not json", "", "[1]"]) {
        if (body === "[1]" && !batch) continue;
        const broken = await call("study.rate", body, LEAN, me, batch);
        expect(broken.statusCode).toBe(400);
      }
    }
    const finish = await call("study.finishSession", { sessionId: randomUUID() }, LEAN, me);
    expect(finish.statusCode).toBe(404);
    expect(leanCalls.count).toBe(before);
  });
});
