import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reviews } from "../../src/server/db/schema";
import { addQuestion } from "../../src/server/features/study/test-fixtures";
import { createHarness, type Harness, type TestUser } from "../../src/server/test/harness";
import { apiFromCaller } from "../runtime";
import { formatOptimizations, toUserOptimization } from "./fsrs";

let h: Harness;
let me: TestUser;
let few: TestUser;
const DAY = 86_400_000;

beforeAll(async () => {
  h = await createHarness();
  me = await h.user();
  let seed = 3;
  const rnd = () => {
    seed = (seed * 16_807) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  for (let c = 0; c < 45; c++) {
    const q = await addQuestion(h.db.db, me.user.id);
    let t = Date.parse("2024-02-01T10:00:00Z") + c * 60_000;
    let interval = 1;
    const rows = [];
    for (let k = 0; k < 10; k++) {
      // Every card begins alike (Good), as FSRS needs to fit rather than keep its defaults.
      const isCorrect = k === 0 || rnd() < Math.exp(-interval / (6 + 10 * k)) + 0.2;
      rows.push({
        userId: me.user.id,
        questionId: q.id,
        isCorrect,
        difficulty: k === 0 ? 1 : isCorrect ? Math.floor(rnd() * 3) : 1,
        reviewedAt: new Date(t),
      });
      interval = isCorrect ? interval * 2 + 1 : 1;
      t += interval * DAY;
    }
    await h.db.db.insert(reviews).values(rows);
  }
  // 400 reviews, but only 5 questions answered again on a later day.
  few = await h.user();
  for (let c = 0; c < 5; c++) {
    const q = await addQuestion(h.db.db, few.user.id);
    const t = Date.parse("2024-02-01T10:00:00Z") + c * 3_600_000;
    await h.db.db.insert(reviews).values(
      Array.from({ length: 80 }, (_, k) => ({
        userId: few.user.id,
        questionId: q.id,
        isCorrect: true,
        difficulty: 1,
        reviewedAt: new Date(k === 79 ? t + 2 * DAY : t + k * 60_000),
      })),
    );
  }
}, 120_000);
afterAll(async () => {
  await h.close();
});

describe("prite fsrs optimize", () => {
  it("reports log loss and RMSE with the default and the fitted parameters (--json shape)", async () => {
    const api = apiFromCaller(me.caller);
    const r = await api.study.optimize.mutate();
    const row = toUserOptimization(me.user.username, r);
    expect(row).toMatchObject({ username: me.user.username, reviewCount: 450 });
    expect(row.parameters).toHaveLength(21);
    expect(row.keptDefaults).toBeNull();
    expect(row.fitted!.logLoss).toBeLessThanOrEqual(row.default.logLoss + 1e-6);
    expect(formatOptimizations([row])).toContain("log loss (fitted)");
    expect(formatOptimizations([])).toBe("No account has 400 reviews yet.");
  }, 120_000);

  // Issue 31: figures "fitted" equal to the defaults, when the optimizer had kept them.
  it("says when it kept the default parameters and why: no fitted figures, nothing stored", async () => {
    const api = apiFromCaller(few.caller);
    const row = toUserOptimization(few.user.username, await api.study.optimize.mutate());
    const text = formatOptimizations([row]);
    expect(text).toMatch(/^Kept the default parameters: /);
    expect(text).toContain("You have 5 such questions, at most 5 with the same first rating.");
    expect(text).not.toContain("fitted)");
    expect(row).toMatchObject({ fitted: null, parameters: null, reviewCount: 400 });
    expect(row.keptDefaults).toBe(text);
    expect((await api.study.scheduler.query()).customParameters).toBe(false);
    const both = formatOptimizations([
      toUserOptimization(me.user.username, await apiFromCaller(me.caller).study.optimize.mutate()),
      row,
    ]);
    expect(both).toContain("log loss (fitted)");
    expect(both).toContain(`\n${few.user.username}: kept the default parameters: `);
  }, 120_000);
});
