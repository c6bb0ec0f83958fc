import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addQuestion } from "../../src/server/features/study/test-fixtures";
import { createHarness, type Harness, type TestUser } from "../../src/server/test/harness";
import { apiFromCaller } from "../runtime";
import { createExamCommand, formatExams, formatResults, listExamsCommand, writeCsv } from "./exams";

let h: Harness;
let chief: TestUser;
let tmp: string;

beforeAll(async () => {
  h = await createHarness();
  chief = await h.user();
  for (const [category, n] of [
    ["Neuroscience", 6],
    ["Ethics", 4],
  ] as const) {
    for (let i = 0; i < n; i++) {
      await addQuestion(h.db.db, chief.user.id, { category, isPublic: true });
      await addQuestion(h.db.db, chief.user.id, { category, isPublic: true, part: "2" });
    }
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-exams-"));
});
afterAll(async () => {
  await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("prite exams", () => {
  it("create --shared prints the join code; --json has the question ids; no personal exam is kept", async () => {
    const api = apiFromCaller(chief.caller);
    const { human, json } = await createExamCommand(api, {
      size: "10",
      part: "1",
      mode: "timed",
      secondsPerQuestion: "90",
      shared: true,
    });
    const shared = json as { code: string; questionIds: string[]; questionCount: number };
    expect(human.split("\n")[0]).toBe(`Join code: ${shared.code}`);
    expect(shared.questionIds).toHaveLength(10);
    expect(shared.questionCount).toBe(10);
    expect(await api.exams.list.query()).toEqual([]);

    // Two residents take it; the chief reads the results as a table, JSON and CSV.
    for (const [i, resident] of [await h.user(), await h.user()].entries()) {
      const exam = await resident.caller.exams.join({ code: shared.code });
      await resident.caller.exams.answer({
        examId: exam.id,
        questionId: exam.questions[0]!.questionId,
        selected: [i === 0 ? "B" : "A"],
      });
      await resident.caller.exams.submit({ examId: exam.id });
    }
    const results = await api.exams.mockResults.query({ code: shared.code });
    const text = formatResults(results);
    expect(text).toContain(`Mock exam ${shared.code}: 10 questions, 2 finished`);
    expect(text).toContain("Item analysis:");
    expect(text).toContain("p-value");
    const file = path.join(tmp, "results.csv");
    expect(writeCsv(results.csv, file)).toBe(file);
    expect(fs.readFileSync(file, "utf8").split("\r\n")[0]).toBe(
      "username,status,correct,total,percent,time_used_seconds,submitted_at",
    );
  });

  it("create prints the exam, list shows the history, and bad settings get the server's words", async () => {
    const me = await h.user();
    const api = apiFromCaller(me.caller);
    const { human, json } = await createExamCommand(api, { size: "5", mode: "tutor" });
    expect(human).toMatch(/^Created exam [0-9a-f-]{36}: 5 questions \(tutor, untimed\)\.$/);
    expect((json as { questionIds: string[] }).questionIds).toHaveLength(5);
    const list = await api.exams.list.query();
    expect(formatExams(list)).toContain("in progress");
    expect(formatExams([])).toBe("No exams yet: create one with prite exams create.");
    await expect(createExamCommand(api, { size: "500" })).rejects.toThrow(
      "Number of questions must be a whole number from 5 to 150",
    );
  });

  // Issue 31: the list hid the mock exams the user gave.
  it("list shows the exams you take and the mock exams you gave, with code, takers and status", async () => {
    const giver = await h.user();
    const api = apiFromCaller(giver.caller);
    const own = await createExamCommand(api, { size: "5", mode: "tutor" });
    const shared = (await createExamCommand(api, { size: "5", part: "1", shared: true })).json as {
      code: string;
    };
    const closed = (await createExamCommand(api, { size: "5", part: "2", shared: true })).json as {
      code: string;
    };
    await api.exams.close.mutate({ code: closed.code });
    const finished = (await h.user()).caller;
    const done = await finished.exams.join({ code: shared.code });
    await finished.exams.submit({ examId: done.id });
    await (await h.user()).caller.exams.join({ code: shared.code });

    const { human, json } = await listExamsCommand(api);
    const lines = human.split("\n");
    expect(lines[0]).toBe("Exams you take:");
    expect(human).toContain((own.json as { id: string }).id);
    const given = lines.slice(lines.indexOf("Mock exams you gave:") + 1);
    expect(given[0]).toMatch(/^created\s+code\s+mode\s+size\s+takers\s+in progress\s+status$/);
    expect(given.find((l) => l.includes(shared.code))).toMatch(/\s5\s+1\s+1\s+open$/);
    expect(given.find((l) => l.includes(closed.code))).toMatch(/\s5\s+0\s+0\s+closed$/);

    const data = json as {
      exams: { id: string }[];
      mockExams: { code: string; takers: number; inProgress: number; status: string }[];
    };
    expect(data.exams.map((e) => e.id)).toEqual([(own.json as { id: string }).id]);
    expect(data.mockExams.map((m) => [m.code, m.takers, m.inProgress, m.status])).toEqual([
      [closed.code, 0, 0, "closed"],
      [shared.code, 1, 1, "open"],
    ]);
  });

  it("list with only mock exams given shows them, and nothing at all says how to start", async () => {
    const giver = await h.user();
    const api = apiFromCaller(giver.caller);
    expect((await listExamsCommand(api)).human).toBe(
      "No exams yet: create one with prite exams create.",
    );
    const shared = (await createExamCommand(api, { size: "5", shared: true })).json as {
      code: string;
    };
    const { human } = await listExamsCommand(api);
    expect(human.split("\n")[0]).toBe("Mock exams you gave:");
    expect(human).toContain(shared.code);
    expect(human).toContain("prite exams results CODE");
  });
});
