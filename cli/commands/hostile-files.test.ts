/**
 * Issue 9 item 3: hostile files through the whole import path (read → parse → check → commit), as the
 * chief resident's terminal runs it. Each is refused with a clear message in the product's words,
 * nothing is written, and Object.prototype is untouched. (The server never receives files: the web
 * wizard and the CLI parse them and send questions as JSON, whose size the server limits by bytes.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { count } from "drizzle-orm";
import * as XLSX from "xlsx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_CSV_TEXT_MESSAGE } from "../../src/core/import/errors";
import { ZIP_MESSAGES } from "../../src/core/import/zip-guard";
import { UNREADABLE_EXCEL_MESSAGE } from "../../src/core/import/workbook";
import { questions } from "../../src/server/db/schema";
import { createHarness, type Harness } from "../../src/server/test/harness";
import { buildZip } from "../../src/server/test/zip";
import { apiFromCaller, type Api } from "../runtime";
import { runImport } from "./import";

let h: Harness;
let api: Api;
let tmp: string;

beforeAll(async () => {
  h = await createHarness();
  api = apiFromCaller((await h.user()).caller);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prite-hostile-"));
});
afterAll(async () => {
  await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function write(name: string, bytes: Uint8Array | string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, bytes);
  return file;
}

function xlsx(sheets: [name: string, rows: unknown[][]][]): Uint8Array {
  const book = XLSX.utils.book_new();
  for (const [name, rows] of sheets) {
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), name);
  }
  return XLSX.write(book, { type: "buffer", bookType: "xlsx", compression: true }) as Uint8Array;
}

async function storedQuestions(): Promise<number> {
  const [row] = await h.db.db.select({ n: count() }).from(questions);
  return Number(row?.n ?? 0);
}

async function refused(file: string, message: string | RegExp): Promise<void> {
  const before = await storedQuestions();
  const error = await runImport(api, [file], { part: "1", year: "2024" }).then(
    () => null,
    (e: unknown) => e as Error,
  );
  expect(error, `${path.basename(file)} was imported`).not.toBeNull();
  expect(error!.message).toMatch(message);
  expect(await storedQuestions()).toBe(before);
  expect(Object.prototype).not.toHaveProperty("polluted");
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

describe("hostile files through prite import", () => {
  it("a zip bomb XLSX: a part that expands more than 100 times", async () => {
    // 20 MB of one repeated character as a worksheet: zlib packs it into about 20 KB.
    const bomb = buildZip([
      { name: "[Content_Types].xml", data: new TextEncoder().encode("<Types/>") },
      { name: "xl/worksheets/sheet1.xml", data: new Uint8Array(20 * 1024 * 1024).fill(0x78) },
    ]);
    await refused(write("bomb.xlsx", bomb), ZIP_MESSAGES.ratio);
  });

  it("a truncated XLSX", async () => {
    const good = xlsx([
      [
        "Questions",
        [
          ["Question", "A", "B"],
          ["Which?", "x", "y"],
        ],
      ],
    ]);
    const cut = good.slice(0, Math.floor(good.length / 2));
    await refused(
      write("cut.xlsx", cut),
      new RegExp(`${escape(ZIP_MESSAGES.damaged)}|${escape(UNREADABLE_EXCEL_MESSAGE)}`),
    );
  });

  it("a CSV of a million columns", async () => {
    await refused(
      write("wide.csv", "q" + ",x".repeat(1_000_000) + "\n"),
      "Row 1 has more than 200 columns. Remove the unused columns and try again.",
    );
  });

  it("a binary file named .csv", async () => {
    const binary = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
    await refused(write("binary.csv", binary), NOT_CSV_TEXT_MESSAGE);
  });

  it("a sheet named __proto__ is refused by name; prototype-like headers and cells are plain data", async () => {
    const rows = [
      ["__proto__", "constructor", "prototype", "Question", "A", "B"],
      ['{"polluted":true}', "polluted", "x", "Which receptor does clozapine block?", "D4", "D2"],
    ];
    await refused(
      write("proto-sheet.xlsx", xlsx([["__proto__", rows]])),
      'The sheet "__proto__" could not be read. Rename it and try again.',
    );
    const before = await storedQuestions();
    const summary = await runImport(api, [write("proto.xlsx", xlsx([["Questions", rows]]))], {
      part: "1",
      year: "2024",
    });
    expect(summary.imported).toBe(1);
    expect(await storedQuestions()).toBe(before + 1);
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
