// Tests run only in Node: reading fixtures and deflating test archives needs its built-ins.
/* eslint-disable no-restricted-imports */
import { readFileSync } from "node:fs";
import path from "node:path";
/* eslint-enable no-restricted-imports */
import { describe, expect, it } from "vitest";
import { FILE_TOO_LARGE_MESSAGE, ImportError, UNSUPPORTED_FORMAT_MESSAGE } from "./errors";
import { readSpreadsheet } from "./workbook";
import { checkUpload, guardZip, inspectZip, isCfb, isZip, ZIP_MESSAGES } from "./zip-guard";
// The test archive writer lives with the server's test helpers: it needs Node's zlib.
// eslint-disable-next-line no-restricted-imports
import { buildZip } from "../../server/test/zip";

const REAL = path.resolve(__dirname, "../../../fixtures/real");

function importErrorOf(fn: () => unknown): ImportError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return error as ImportError;
  }
  throw new Error("expected an ImportError");
}

async function asyncImportErrorOf(promise: Promise<unknown>): Promise<ImportError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return error as ImportError;
  }
  throw new Error("expected an ImportError");
}

describe("checkUpload", () => {
  it("accepts .csv, .xls and .xlsx in any case", () => {
    expect(checkUpload("q.csv", 10)).toBe("csv");
    expect(checkUpload("Q.CSV", 10)).toBe("csv");
    expect(checkUpload("bank.Xls", 10)).toBe("xls");
    expect(checkUpload("my.file.XLSX", 10)).toBe("xlsx");
  });

  it("refuses other extensions with the spec's message", () => {
    for (const name of ["q.txt", "deck.apkg", "q.xlsm", "q.csv.exe", "csv", "", "q.", "xlsx.pdf"]) {
      expect(importErrorOf(() => checkUpload(name, 10)).message).toBe(UNSUPPORTED_FORMAT_MESSAGE);
    }
  });

  it("refuses files larger than 10 MB", () => {
    expect(checkUpload("q.csv", 10 * 1024 * 1024)).toBe("csv");
    expect(importErrorOf(() => checkUpload("q.xlsx", 10 * 1024 * 1024 + 1)).message).toBe(
      FILE_TOO_LARGE_MESSAGE,
    );
  });
});

describe("inspectZip", () => {
  it("reads the directory of real workbooks", () => {
    for (const file of [
      "quizserver_science_quiz_giselle.xlsx",
      "quizserver_multisheet_data.xlsx",
    ]) {
      const bytes = new Uint8Array(readFileSync(path.join(REAL, file)));
      expect(isZip(bytes)).toBe(true);
      expect(isCfb(bytes)).toBe(false);
      const entries = inspectZip(bytes);
      expect(entries.length).toBeGreaterThan(5);
      for (const e of entries) expect(e.uncompressedSize).toBeGreaterThanOrEqual(0);
    }
  });

  it("accepts a small well-formed archive", async () => {
    const zip = buildZip([
      { name: "a.xml", data: new TextEncoder().encode("<a/>".repeat(100)) },
      { name: "b.bin", data: new Uint8Array([1, 2, 3]), method: 0 },
    ]);
    expect(inspectZip(zip)).toHaveLength(2);
    await expect(guardZip(zip)).resolves.toBeUndefined();
  });

  it("refuses truncated or invalid archives", () => {
    const good = buildZip([{ name: "a.xml", data: new Uint8Array(1000) }]);
    const cases = [
      new Uint8Array(0),
      new Uint8Array([0x50, 0x4b, 3, 4]),
      good.slice(0, good.length - 10), // EOCD cut
      good.slice(0, 40), // data cut, no directory
      new TextEncoder().encode("PK\u0003\u0004 this is not a zip at all"),
    ];
    for (const bytes of cases) {
      expect(importErrorOf(() => inspectZip(bytes)).message).toBe(ZIP_MESSAGES.damaged);
    }
  });

  it("refuses a directory that points outside the file", () => {
    const zip = buildZip([{ name: "a.xml", data: new Uint8Array(10) }]);
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    view.setUint32(zip.length - 22 + 16, 0xfffffff0, true);
    expect(importErrorOf(() => inspectZip(zip)).message).toBe(ZIP_MESSAGES.damaged);
  });

  it("refuses more than 1,000 entries", () => {
    const entries = Array.from({ length: 1001 }, (_, k) => ({
      name: `f${k}`,
      data: new Uint8Array(0),
      method: 0 as const,
    }));
    expect(importErrorOf(() => inspectZip(buildZip(entries))).message).toBe(
      ZIP_MESSAGES.tooManyEntries,
    );
    expect(inspectZip(buildZip(entries.slice(0, 1000)))).toHaveLength(1000);
  });

  it("refuses more than 100 MB once expanded", () => {
    // 0.9 MB parts stay under the ratio rule (it starts at 1 MB) but add up past 100 MB.
    const part = new Uint8Array(900 * 1024);
    const entries = Array.from({ length: 115 }, (_, k) => ({ name: `p${k}`, data: part }));
    expect(importErrorOf(() => inspectZip(buildZip(entries))).message).toBe(ZIP_MESSAGES.tooLarge);
  });

  it("refuses an entry that expands more than 100 times", () => {
    const zip = buildZip([{ name: "bomb.xml", data: new Uint8Array(5 * 1024 * 1024) }]);
    expect(importErrorOf(() => inspectZip(zip)).message).toBe(ZIP_MESSAGES.ratio);
  });

  it("lets small, highly compressible parts through", () => {
    const zip = buildZip([{ name: "styles.xml", data: new Uint8Array(512 * 1024) }]);
    expect(inspectZip(zip)).toHaveLength(1);
  });

  it("refuses encrypted entries and unknown compression methods", () => {
    const encrypted = buildZip([{ name: "a", data: new Uint8Array(10), flags: 1 }]);
    expect(importErrorOf(() => inspectZip(encrypted)).message).toBe(ZIP_MESSAGES.encrypted);
    const bzip = buildZip([{ name: "a", data: new Uint8Array(10), method: 0, methodInHeader: 12 }]);
    expect(importErrorOf(() => inspectZip(bzip)).message).toBe(ZIP_MESSAGES.method);
  });
});

describe("guardZip", () => {
  it("catches an entry that lies about its size", async () => {
    // Declares 1,000 bytes (ratio 1:1, nothing suspicious) but inflates to 5 MB.
    const liar = buildZip([
      { name: "sheet.xml", data: new Uint8Array(5 * 1024 * 1024), declaredSize: 1000 },
    ]);
    expect(inspectZip(liar)).toHaveLength(1);
    const error = await asyncImportErrorOf(guardZip(liar));
    expect(error.message).toBe(ZIP_MESSAGES.damaged);
  });

  it("catches a corrupt deflate stream", async () => {
    const zip = buildZip([{ name: "a.xml", data: new TextEncoder().encode("hello ".repeat(50)) }]);
    // Overwrite the compressed bytes (after the 30-byte header and 5-byte name) with garbage.
    zip.fill(0xff, 35, 45);
    const error = await asyncImportErrorOf(guardZip(zip));
    expect(error.message).toBe(ZIP_MESSAGES.damaged);
  });

  it("keeps a lying archive away from SheetJS", async () => {
    const liar = buildZip([
      { name: "xl/worksheets/sheet1.xml", data: new Uint8Array(8 * 1024 * 1024), declaredSize: 10 },
    ]);
    const started = performance.now();
    const error = await asyncImportErrorOf(readSpreadsheet("bomb.xlsx", liar));
    expect(error.message).toBe(ZIP_MESSAGES.damaged);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
