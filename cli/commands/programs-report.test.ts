import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCsv } from "../../src/core/import/csv";
import { makeProgram, putInProgram } from "../../src/server/test/programs.fixtures";
import { addQuestion } from "../../src/server/features/study/test-fixtures";
import { reviews } from "../../src/server/db/schema";
import { createHarness, type Harness, type TestUser } from "../../src/server/test/harness";
import { apiFromCaller } from "../runtime";
import { addProgramReportCommand, programReportCommand } from "./programs-report";

let h: Harness;
let chief: TestUser;
let resident: TestUser;

beforeAll(async () => {
  h = await createHarness();
  await h.user();
  chief = await h.user();
  resident = await h.user({ username: "ann_resident", pgyLevel: "2" });
  const programId = await makeProgram(h.db.db, "Riverside Psychiatry");
  await putInProgram(h.db.db, chief.user.id, programId, "director");
  await putInProgram(h.db.db, resident.user.id, programId, "resident");
  const q = await addQuestion(h.db.db, resident.user.id, { category: "Ethics" });
  await h.db.db.insert(reviews).values(
    Array.from({ length: 6 }, (_, i) => ({
      userId: resident.user.id,
      questionId: q.id,
      category: "Ethics",
      isCorrect: i < 3,
      selected: ["B"],
      reviewedAt: new Date(Date.now() - i * 60_000),
    })),
  );
});
afterAll(async () => {
  await h.close();
});

describe("prite programs report", () => {
  it("registers on the programs command with --csv, --table and -o", () => {
    const programs = new Command("programs");
    addProgramReportCommand(programs);
    const report = programs.commands.find((c) => c.name() === "report")!;
    expect(report).toBeDefined();
    expect(report.options.map((o) => o.long)).toEqual(["--csv", "--table", "--output"]);
    expect(report.options.find((o) => o.long === "--output")!.short).toBe("-o");
  });

  it("prints the roster and the means, answers JSON, and writes the roster or heatmap CSV", async () => {
    const api = apiFromCaller(chief.caller);
    const { human, json, csv } = await programReportCommand(api, {});
    expect(human).toContain("Riverside Psychiatry: 1 residents.");
    expect(human).toMatch(/2\s+ann_resident\s+\d{4}-\d\d-\d\d\s+6\s+6\s+50%/);
    expect(json.residents[0]!.cells.Ethics).toEqual({ answered: 6, accuracy: 50 });
    expect(parseCsv(csv)[1]!.slice(0, 3)).toEqual(["ann_resident", "", "2"]);
    const heat = await programReportCommand(api, { csv: true, table: "heatmap" });
    expect(parseCsv(heat.csv)).toEqual([
      ["username", "pgy", "Ethics accuracy_percent", "Ethics answered"],
      ["ann_resident", "2", "50", "6"],
    ]);
    await expect(programReportCommand(api, { table: "people" })).rejects.toThrow(
      "--table must be roster or heatmap",
    );
  });

  it("is refused to a resident in the server's words", async () => {
    await expect(programReportCommand(apiFromCaller(resident.caller), {})).rejects.toThrow(
      "Only the program's directors can do that",
    );
  });
});
