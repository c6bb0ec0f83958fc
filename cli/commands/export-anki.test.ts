import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertAnkiPackage, readAnkiPackage, sqlJsLoader } from "../../src/core/import/anki";
import { validQuestion } from "../../src/server/features/questions/questions.fixtures";
import { createHarness, type Harness, type TestUser } from "../../src/server/test/harness";
import { apiFromCaller } from "../runtime";
import { defaultExportFile, NOTHING_TO_EXPORT, runExport } from "./export";

/** `prite export anki` (decision 245): the .apkg of Settings > Data "Export for Anki", to a file. */

let h: Harness;
let resident: TestUser;
let tmp: string;
const loadSqlite = sqlJsLoader();

beforeAll(async () => {
  h = await createHarness();
  await h.user();
  resident = await h.user();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-cli-anki-"));
});
afterAll(async () => {
  await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("prite export anki", () => {
  it("with no questions, says so and writes nothing", async () => {
    const out = path.join(tmp, "empty.apkg");
    await expect(runExport(apiFromCaller(resident.caller), "anki", out)).rejects.toThrow(
      NOTHING_TO_EXPORT,
    );
    expect(fs.existsSync(out)).toBe(false);
  });

  it("-o bank.apkg writes a deck the Anki reader opens, holding the resident's questions", async () => {
    await resident.caller.questions.create(validQuestion() as never);
    await resident.caller.questions.create(
      validQuestion({ text: "Second question", correctAnswer: "C", category: "Ethics" }) as never,
    );
    const out = path.join(tmp, "bank.apkg");
    const result = await runExport(apiFromCaller(resident.caller), "anki", out);
    expect(result).toMatchObject({
      file: out,
      counts: { multipleChoice: 2, flashcards: 0, images: 0 },
    });
    const bytes = new Uint8Array(fs.readFileSync(out));
    expect(result.bytes).toBe(bytes.length);
    const converted = convertAnkiPackage(await readAnkiPackage(bytes, { loadSqlite }), {
      part: "1",
      year: 2024,
    });
    expect(converted.questions.map((q) => [q.text, q.correctAnswer, q.category])).toEqual([
      [validQuestion().text, "A", "Bipolar Disorders"],
      ["Second question", "C", "Ethics"],
    ]);

    // -o - writes the same bytes to standard output.
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    const piped = await runExport(apiFromCaller(resident.caller), "anki", "-", stream);
    expect(piped.file).toBeNull();
    const again = await readAnkiPackage(new Uint8Array(Buffer.concat(chunks)), { loadSqlite });
    expect(again.notes).toHaveLength(2);

    expect(defaultExportFile("anki", new Date(2026, 0, 9, 12))).toBe(
      "prite_questions_2026-01-09.apkg",
    );
  });
});
