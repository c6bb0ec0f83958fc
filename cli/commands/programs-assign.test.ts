import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProgram, putInProgram } from "../../src/server/test/programs.fixtures";
import { addQuestion } from "../../src/server/features/study/test-fixtures";
import { createHarness, type Harness, type TestUser } from "../../src/server/test/harness";
import { CliError } from "../output";
import { apiFromCaller } from "../runtime";
import {
  assignCommand,
  assignInput,
  closeCommand,
  extendCommand,
  listAssignmentsCommand,
  registerAssignmentCommands,
  reserveCommand,
} from "./programs-assign";

let h: Harness;
let chief: TestUser;
let resident: TestUser;
let programId: string;

beforeAll(async () => {
  h = await createHarness();
  await h.user();
  chief = await h.user();
  resident = await h.user({ pgyLevel: "2" });
  programId = await makeProgram(h.db.db, "CLI program");
  await putInProgram(h.db.db, chief.user.id, programId, "director");
  await putInProgram(h.db.db, resident.user.id, programId, "resident", { pgyLevel: "2" });
  for (let i = 0; i < 8; i++) {
    await addQuestion(h.db.db, chief.user.id, { programId, category: "Ethics" });
  }
});
afterAll(async () => {
  await h.close();
});

describe("prite programs assign and friends", () => {
  it("refuses bad options as usage errors (2) in the procedure's words", () => {
    const usage = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return err instanceof CliError ? [err.exitCode, err.message] : err;
      }
      return "no error";
    };
    expect(usage(() => assignInput({ due: "2099-01-01" }))).toEqual([
      2,
      "Choose one: --exam or --study.",
    ]);
    expect(usage(() => assignInput({ exam: true }))).toEqual([
      2,
      "A due date is required: --due YYYY-MM-DD.",
    ]);
    expect(usage(() => assignInput({ exam: true, size: "2", due: "2099-01-01" }))).toEqual([
      2,
      "Number of questions must be a whole number from 5 to 150",
    ]);
    expect(usage(() => assignInput({ study: true, count: "5", due: "soon" }))).toEqual([
      2,
      "Due date must be a date (YYYY-MM-DD) or a date and time",
    ]);
  });

  it("assigns an exam and a study set, lists statuses, closes and extends, reserves and releases", async () => {
    const api = apiFromCaller(chief.caller);
    const exam = await assignCommand(api, {
      exam: true,
      size: "5",
      mode: "timed",
      due: "2099-01-01",
      pgy: "2",
      title: "Mock",
    });
    expect(exam.human).toMatch(/^Assigned a timed exam of 5 questions for PGY-2, due 2099-01-01/);
    const study = await assignCommand(api, {
      study: true,
      categories: "Ethics,Neuroscience",
      count: "10",
      due: "2099-01-02",
    });
    expect(study.human).toContain(
      "a study set of 10 answers in Ethics, Neuroscience for the whole program",
    );
    const studyId = (study.json as { id: string }).id;

    const listed = await listAssignmentsCommand(api);
    expect(listed.human).toContain("Not started 1");
    expect(listed.human).toContain(resident.user.username);
    const mine = await listAssignmentsCommand(apiFromCaller(resident.caller));
    expect(mine.human).toContain("Not started");
    expect((mine.json as { role: string }).role).toBe("resident");

    expect((await closeCommand(api, studyId)).human).toMatch(/^Closed .*: it takes no new work\.$/);
    const extended = await extendCommand(api, studyId, "2099-02-01");
    expect(extended.human).toContain("is now due 2099-02-01");
    await expect(extendCommand(api, studyId, undefined)).rejects.toThrow("A new due date");

    const [q] = await h.db.db.query.questions.findMany({
      limit: 1,
      where: (t, { eq }) => eq(t.programId, programId),
    });
    expect((await reserveCommand(api, q!.id, true)).human).toBe(
      "Reserved 1 question for assessments: residents no longer see them outside an exam.",
    );
    expect((await reserveCommand(api, q!.id, false)).human).toBe(
      "Released 1 question: residents see them again.",
    );
    // A resident is refused in the product's words.
    await expect(reserveCommand(apiFromCaller(resident.caller), q!.id, true)).rejects.toThrow(
      "Only the program's directors can do that",
    );
  });

  it("adds its subcommands to a programs command", () => {
    const programs = new Command("programs");
    registerAssignmentCommands(programs);
    expect(programs.commands.map((c) => c.name())).toEqual([
      "assign",
      "assignments",
      "close",
      "extend",
      "reserve",
      "release",
    ]);
  });
});
