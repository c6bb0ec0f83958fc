import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addQuestion } from "../../src/server/features/study/test-fixtures";
import { createHarness, type Harness } from "../../src/server/test/harness";
import { main } from "../index";
import { apiFromCaller, type Api } from "../runtime";
import { captureRun } from "../test-output";
import { formatPlan, studyPlanCommand } from "./study";

/** `prite study plan` (issue 34) over the procedures, on the test database (PGlite or PostgreSQL). */
let h: Harness;
let api: Api;
const NOW = new Date("2026-03-02T15:00:00Z");

beforeAll(async () => {
  h = await createHarness({ now: () => NOW });
  const u = await h.user();
  api = apiFromCaller(await h.callerFor(u.user, { now: () => NOW }));
  for (let i = 0; i < 12; i++) {
    await addQuestion(h.db.db, u.user.id, { category: i % 3 ? "Neuroscience" : "Ethics" });
  }
});
afterAll(() => h.close());

describe("prite study plan", () => {
  it("sets the exam date and pace it is given and answers the plan in --json's shape", async () => {
    const { human, json } = await studyPlanCommand(api, {
      examDate: "2026-03-31",
      newPerDay: "0",
    });
    expect(json.settings).toMatchObject({ examDate: "2026-03-31", newPerDay: 0 });
    expect(json.days.length).toBe(30);
    expect(json.days[0]).toEqual({ date: "2026-03-02", reviews: 0, new: 1 });
    expect(json.days.reduce((n, d) => n + d.new, 0)).toBe(12);
    expect(Object.keys(json.recallByCategory)).toEqual(["Ethics", "Neuroscience"]);
    expect(json.recallByCategory.Ethics).toMatchObject({ total: 4, seen: 4 });
    expect(json.pace).toMatchObject({ perDay: 1, covered: true });
    expect(human).toContain("Exam: 2026-03-31, target recall 90%.");
    expect(human).toContain("Predicted recall on the exam day:");

    // Nothing given: reads without changing.
    const again = await studyPlanCommand(api, {});
    expect(again.json.settings.examDate).toBe("2026-03-31");
    expect(formatPlan(await api.study.plan.query())).toContain("Next days:");
  });

  it("refuses a malformed date or count as a usage error before any database", async () => {
    const r = await captureRun(() =>
      main(["node", "prite", "--json", "study", "plan", "--exam-date", "31/03/2026"]),
    );
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toEqual({ error: "--exam-date must be a date (YYYY-MM-DD)." });
    const n = await captureRun(() =>
      main(["node", "prite", "study", "plan", "--new-per-day", "lots"]),
    );
    expect(n.code).toBe(2);
  });
});
