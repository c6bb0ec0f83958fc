import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { questions } from "../../src/server/db/schema";
import { createHarness, type Harness, type TestUser } from "../../src/server/test/harness";
import { apiFromCaller, type Api } from "../runtime";
import {
  checkImportFlags,
  formatImportSummary,
  parseColumn,
  runImport,
  type ImportOptions,
} from "./import";

const REAL = path.resolve(__dirname, "../../fixtures/real");
const MMLU = path.join(REAL, "mmlu_clinical_knowledge_dev.csv");
const MIR = path.join(REAL, "mir_medmcqa_style_test-en.csv");
const GISELLE = path.join(REAL, "quizserver_science_quiz_giselle.xlsx");
const MULTI = path.join(REAL, "quizserver_multisheet_data.xlsx");

let h: Harness;
let tmp: string;

beforeAll(async () => {
  h = await createHarness();
  await h.user(); // the first account is the admin; the tests below act as ordinary residents
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cli-import-"));
});
afterAll(async () => {
  await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function resident(): Promise<{ user: TestUser; api: Api }> {
  const user = await h.user();
  return { user, api: apiFromCaller(user.caller) };
}

const opts = (extra: ImportOptions = {}): ImportOptions => ({ part: "1", year: "2024", ...extra });

describe("prite import: the real fixtures", () => {
  it("mmlu_clinical_knowledge_dev.csv (no header) imports 5 questions", async () => {
    const { user, api } = await resident();
    const summary = await runImport(api, [MMLU], opts());
    expect(summary).toMatchObject({ total: 5, duplicates: 0, merged: 0, imported: 5, skipped: 0 });
    expect(summary.errors).toEqual([]);
    expect(await h.questionsCreatedBy(user.user.id)).toBe(5);
  });

  it("mir_medmcqa_style_test-en.csv imports its 508 questions, every one with its answer", async () => {
    const { user, api } = await resident();
    const summary = await runImport(api, [MIR], opts());
    expect(summary).toMatchObject({
      total: 508,
      duplicates: 0,
      merged: 0,
      imported: 508,
      skipped: 0,
      errors: [],
      warnings: [],
    });
    expect(summary.files).toEqual([
      {
        file: "mir_medmcqa_style_test-en.csv",
        sheet: expect.any(String),
        questions: 508,
        errors: 0,
        warnings: 0,
      },
    ]);
    expect(await h.questionsCreatedBy(user.user.id)).toBe(508);
    const [answered] = await h.db.db
      .select({ n: count() })
      .from(questions)
      .where(sql`${questions.creatorId} = ${user.user.id} and ${questions.correctAnswer} <> ''`);
    expect(Number(answered!.n)).toBe(508);
  });

  it("quizserver_multisheet_data.xlsx without --sheet reads the first sheet, 'Demo Questions' (3)", async () => {
    const { user, api } = await resident();
    const summary = await runImport(api, [MULTI], opts());
    expect(summary.files).toEqual([
      {
        file: "quizserver_multisheet_data.xlsx",
        sheet: "Demo Questions",
        questions: 3,
        errors: 0,
        warnings: 0,
      },
    ]);
    expect(summary).toMatchObject({ total: 3, imported: 3, errors: [], warnings: [] });
    expect(await h.questionsCreatedBy(user.user.id)).toBe(3);
  });

  it("quizserver_multisheet_data.xlsx --sheet 'Cyber Security': 7 imported, rows 6-8 as warnings", async () => {
    const { user, api } = await resident();
    const summary = await runImport(api, [MULTI], opts({ sheet: "Cyber Security" }));
    expect(summary).toMatchObject({ total: 7, imported: 7, skipped: 0, errors: [] });
    const file = "quizserver_multisheet_data.xlsx";
    expect(summary.warnings).toEqual(
      [
        [6, "1, 2, 3, 2"],
        [7, "1, 2, 3, 3"],
        [8, "1, 2, 3, 4"],
      ].map(([row, answer]) => ({
        file,
        row,
        message: `Row ${row}: the answer '${answer}' names several options; the question was imported without an answer`,
      })),
    );
    expect(summary.files).toEqual([
      { file, sheet: "Cyber Security", questions: 7, errors: 0, warnings: 3 },
    ]);
    const text = formatImportSummary(summary);
    expect(text).toContain("errors: 0");
    expect(text).toContain(
      `Warnings: 3\n  ${file} row 6: the answer '1, 2, 3, 2' names several options; the question was imported without an answer`,
    );
    expect(await h.questionsCreatedBy(user.user.id)).toBe(7);
    const rows = await h.db.db
      .select({ answer: questions.correctAnswer })
      .from(questions)
      .where(eq(questions.creatorId, user.user.id));
    expect(rows.filter((r) => r.answer === "")).toHaveLength(3);
  });

  it("quizserver_science_quiz_giselle.xlsx imports the 10 questions of sheet 'Questions'", async () => {
    const { user, api } = await resident();
    const summary = await runImport(api, [GISELLE], opts());
    expect(summary.files).toEqual([
      {
        file: "quizserver_science_quiz_giselle.xlsx",
        sheet: "Questions",
        questions: 10,
        errors: 0,
        warnings: 0,
      },
    ]);
    expect(summary.imported).toBe(10);
    expect(await h.questionsCreatedBy(user.user.id)).toBe(10);
  });

  it.each([
    ["Tesla Coils", 6],
    ["Advanced Manufacturing", 10],
    ["Autonomous Vehicle", 8],
  ])("quizserver_multisheet_data.xlsx --sheet '%s' imports %i questions", async (sheet, n) => {
    const { user, api } = await resident();
    const summary = await runImport(api, [MULTI], opts({ sheet }));
    expect(summary.imported).toBe(n);
    expect(await h.questionsCreatedBy(user.user.id)).toBe(n);
  });

  it("several files go in one commit", async () => {
    const { user, api } = await resident();
    const summary = await runImport(api, [MMLU, GISELLE], opts());
    expect(summary).toMatchObject({ total: 15, imported: 15 });
    expect(await h.questionsCreatedBy(user.user.id)).toBe(15);
  });
});

describe("prite import: duplicates on a re-import", () => {
  let owner: { user: TestUser; api: Api };
  beforeAll(async () => {
    owner = await resident();
    await runImport(owner.api, [MMLU], opts());
  });

  it("--dry-run writes nothing and says what would happen", async () => {
    const before = await h.questionsCreatedBy(owner.user.user.id);
    const summary = await runImport(owner.api, [MMLU, GISELLE], opts({ dryRun: true }));
    expect(summary).toMatchObject({ dryRun: true, total: 15, duplicates: 5, imported: 10 });
    expect(await h.questionsCreatedBy(owner.user.user.id)).toBe(before);
    expect(formatImportSummary(summary)).toContain("Dry run, nothing saved.");
  });

  it("skip (the default) adds nothing", async () => {
    const summary = await runImport(owner.api, [MMLU], opts());
    expect(summary).toMatchObject({ total: 5, duplicates: 5, merged: 0, imported: 0, skipped: 5 });
    expect(await h.questionsCreatedBy(owner.user.user.id)).toBe(5);
  });

  it("newer merges into the caller's own questions", async () => {
    const summary = await runImport(owner.api, [MMLU], opts({ onDuplicate: "newer" }));
    expect(summary).toMatchObject({ duplicates: 5, merged: 5, imported: 0, skipped: 0 });
    expect(await h.questionsCreatedBy(owner.user.user.id)).toBe(5);
  });

  it("metadata merges too", async () => {
    const summary = await runImport(
      owner.api,
      [MMLU],
      opts({ onDuplicate: "metadata", year: "2025" }),
    );
    expect(summary).toMatchObject({ duplicates: 5, merged: 5, imported: 0 });
    expect(await h.questionsCreatedBy(owner.user.user.id)).toBe(5);
  });

  it("keep-both adds a second copy of each", async () => {
    const summary = await runImport(owner.api, [MMLU], opts({ onDuplicate: "keep-both" }));
    expect(summary).toMatchObject({ duplicates: 5, merged: 0, imported: 5, skipped: 0 });
    expect(await h.questionsCreatedBy(owner.user.user.id)).toBe(10);
  });

  it("another user's public questions are never merged: newer skips them, keep-both adds", async () => {
    const sharer = await resident();
    await runImport(sharer.api, [GISELLE], opts({ public: true }));
    const other = await resident();
    const merged = await runImport(other.api, [GISELLE], opts({ onDuplicate: "newer" }));
    expect(merged).toMatchObject({ duplicates: 10, merged: 0, skipped: 10, notMergeable: 10 });
    expect(formatImportSummary(merged)).toContain("another user's question");
    expect(await h.questionsCreatedBy(other.user.user.id)).toBe(0);
    const kept = await runImport(other.api, [GISELLE], opts({ onDuplicate: "keep-both" }));
    expect(kept).toMatchObject({ duplicates: 10, imported: 10 });
    expect(await h.questionsCreatedBy(other.user.user.id)).toBe(10);
    expect(await h.questionsCreatedBy(sharer.user.user.id)).toBe(10);
  });
});

describe("prite import: settings and errors", () => {
  it("reports rows that cannot be imported by row number and imports the rest", async () => {
    const file = path.join(tmp, "mixed.csv");
    fs.writeFileSync(
      file,
      [
        "Question,A,B,C,D,Answer",
        "Which drug is an SSRI used first for panic disorder?,Sertraline,Haloperidol,Lithium,Clozapine,A",
        "A question that lost its options somewhere along the way?,,,,,B",
        "Which lobe holds the primary visual cortex of the brain?,Frontal,Occipital,Parietal,Temporal,B",
      ].join("\n"),
    );
    const { api } = await resident();
    const summary = await runImport(api, [file], opts());
    expect(summary.imported).toBe(2);
    expect(summary.errors).toEqual([
      { file: "mixed.csv", row: 3, message: "Row 3: at least options A and B are required" },
    ]);
    expect(formatImportSummary(summary)).toContain("mixed.csv row 3");
  });

  it("column flags override the detection (letters or numbers)", async () => {
    expect(parseColumn("answer-col", "F")).toBe(5);
    expect(parseColumn("answer-col", "6")).toBe(5);
    expect(parseColumn("answer-col", "AA")).toBe(26);
    expect(() => parseColumn("answer-col", "?")).toThrow(/not a column/);
    const file = path.join(tmp, "columns.csv");
    fs.writeFileSync(
      file,
      [
        "Which neurotransmitter is low in Parkinson disease patients?,x,Dopamine,Serotonin,GABA,Glycine,A",
        "Which drug class does buspirone belong to in most references?,y,Azapirone,Benzodiazepine,SSRI,TCA,A",
      ].join("\n"),
    );
    const { user, api } = await resident();
    const summary = await runImport(
      api,
      [file],
      opts({ header: false, questionCol: "A", optionCols: "C,D,E,F", answerCol: "G" }),
    );
    expect(summary.imported).toBe(2);
    const rows = await h.db.db
      .select({ options: questions.options, answer: questions.correctAnswer })
      .from(questions)
      .where(eq(questions.creatorId, user.user.id));
    expect(rows.map((r) => (r.options as Record<string, string>).A).sort()).toEqual([
      "Azapirone",
      "Dopamine",
    ]);
  });

  it("checkImportFlags finds usage errors without files or a database", () => {
    expect(() => checkImportFlags({ onDuplicate: "merge" })).toThrow(/--on-duplicate/);
    expect(() => checkImportFlags({ headerRow: "0" })).toThrow(/--header-row/);
    expect(() => checkImportFlags({ optionCols: "B" })).toThrow(/--option-cols/);
    expect(() => checkImportFlags({ part: "2", year: "2023", answerCol: "G" })).not.toThrow();
    // The years the server accepts (2000 to next year), not a wider range the server then refuses.
    const next = new Date().getFullYear() + 1;
    expect(() => checkImportFlags({ year: "1999" })).toThrow(
      `--year must be a year from 2000 to ${next}`,
    );
    expect(() => checkImportFlags({ year: String(next + 1) })).toThrow(/--year/);
    expect(() => checkImportFlags({ year: String(next) })).not.toThrow();
  });

  it("refuses bad flags as usage errors (exit code 2) before reading anything", async () => {
    const { api } = await resident();
    await expect(runImport(api, [MMLU], opts({ onDuplicate: "merge" }))).rejects.toMatchObject({
      exitCode: 2,
    });
    await expect(runImport(api, [MMLU], opts({ part: "3" }))).rejects.toMatchObject({
      exitCode: 2,
    });
    await expect(runImport(api, [MMLU], opts({ year: "24" }))).rejects.toMatchObject({
      exitCode: 2,
    });
  });

  it("a missing file or a file that is not a spreadsheet fails in the product's words", async () => {
    const { api } = await resident();
    await expect(runImport(api, [path.join(tmp, "nope.csv")], opts())).rejects.toThrow(
      /Cannot read .*nope\.csv/,
    );
    const fake = path.join(tmp, "fake.xlsx");
    fs.writeFileSync(fake, "not a workbook at all");
    await expect(runImport(api, [fake], opts())).rejects.toThrow(/fake\.xlsx: /);
  });
});

describe("prite import: all or nothing", () => {
  it("a commit that fails mid-way (after rows were written) leaves no rows", async () => {
    // A trigger makes the database itself fail on the last question of the second file, after every
    // earlier question of the same commit has been inserted.
    await h.db.db.execute(sql`
      create or replace function cli_test_boom() returns trigger language plpgsql as $$
      begin
        if new.text like 'BOOM%' then raise exception 'boom'; end if;
        return new;
      end $$`);
    await h.db.db.execute(sql`
      create trigger cli_test_boom before insert on questions
      for each row execute function cli_test_boom()`);
    try {
      const rows = Array.from(
        { length: 300 },
        (_, i) => `Question number ${i} about a psychiatric topic of some kind?,Yes,No,Maybe,A`,
      );
      rows.push("BOOM this question makes the database fail mid-way?,Yes,No,Maybe,A");
      const file = path.join(tmp, "boom.csv");
      fs.writeFileSync(file, ["Question,A,B,C,Answer", ...rows].join("\n"));
      const { user, api } = await resident();
      await expect(runImport(api, [MMLU, file], opts())).rejects.toThrow();
      expect(await h.questionsCreatedBy(user.user.id)).toBe(0);
    } finally {
      await h.db.db.execute(sql`drop trigger if exists cli_test_boom on questions`);
      await h.db.db.execute(sql`drop function if exists cli_test_boom()`);
    }
  });
});
