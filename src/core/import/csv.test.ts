import { describe, expect, it } from "vitest";
import { detectDelimiter, parseCsv } from "./csv";
import { ImportError, TOO_MANY_ROWS_MESSAGE } from "./errors";

function errorOf(fn: () => unknown): ImportError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return error as ImportError;
  }
  throw new Error("expected an ImportError");
}

function fastest(fn: () => void, runs = 5): number {
  let best = Infinity;
  for (let k = 0; k < runs; k++) {
    const started = performance.now();
    fn();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe("parseCsv", () => {
  it("splits plain rows and fields", () => {
    expect(parseCsv("a,b,c\n1,2,3\n")).toEqual([
      ["a", "b", "c"],
      ["1", "2", "3"],
    ]);
  });

  it("handles CRLF, LF and lone CR line ends, with or without a final newline", () => {
    expect(parseCsv("a,b\r\nc,d\re,f\ng,h")).toEqual([
      ["a", "b"],
      ["c", "d"],
      ["e", "f"],
      ["g", "h"],
    ]);
  });

  it("drops a UTF-8 byte order mark", () => {
    expect(parseCsv("\uFEFFQuestion,A\nx,y")).toEqual([
      ["Question", "A"],
      ["x", "y"],
    ]);
  });

  it("reads quoted fields with commas, doubled quotes and newlines", () => {
    const text = 'q,"a, b","say ""hi""","line 1\r\nline 2"\n"",x';
    expect(parseCsv(text)).toEqual([
      ["q", "a, b", 'say "hi"', "line 1\r\nline 2"],
      ["", "x"],
    ]);
  });

  it("keeps quotes inside unquoted fields and text after a closing quote", () => {
    expect(parseCsv('5" tall,"ab"cd,e')).toEqual([['5" tall', "abcd", "e"]]);
  });

  it("keeps ragged rows as they are", () => {
    expect(parseCsv("a\nb,c,d\n\ne,f")).toEqual([["a"], ["b", "c", "d"], [], ["e", "f"]]);
  });

  it("drops blank rows at the end", () => {
    expect(parseCsv("a,b\n\n,\n  \n")).toEqual([["a", "b"]]);
    expect(parseCsv("")).toEqual([]);
    expect(parseCsv("\n\n\n")).toEqual([]);
  });

  it("keeps empty fields, including a trailing one", () => {
    expect(parseCsv("a,,c,\n")).toEqual([["a", "", "c", ""]]);
  });

  it("refuses a quoted field that never closes, naming its row", () => {
    expect(errorOf(() => parseCsv('a,b\nc,"unclosed\nmore')).message).toBe(
      "Row 2 has a quoted field that is never closed.",
    );
  });

  it("guesses ';' and tab separators from the first line", () => {
    expect(detectDelimiter("Question;A;B\nx;y;z")).toBe(";");
    expect(detectDelimiter("Question\tA\tB")).toBe("\t");
    expect(detectDelimiter("Question,A;B,C")).toBe(",");
    expect(detectDelimiter('"a;b;c",d\n')).toBe(",");
    expect(parseCsv("Q;A;B\n1,5 mg;x;y")).toEqual([
      ["Q", "A", "B"],
      ["1,5 mg", "x", "y"],
    ]);
    expect(parseCsv("a;b", { delimiter: "," })).toEqual([["a;b"]]);
  });

  it("accepts 20,000 data rows plus a header and refuses one more", () => {
    const header = "Question,A,B\n";
    const ok = header + "q,a,b\n".repeat(20_000);
    expect(parseCsv(ok)).toHaveLength(20_001);
    const tooMany = ok + "q,a,b\n";
    expect(errorOf(() => parseCsv(tooMany)).message).toBe(TOO_MANY_ROWS_MESSAGE);
    expect(TOO_MANY_ROWS_MESSAGE).toBe(
      "The file has more than 20,000 rows. Split it into smaller files.",
    );
  });

  it("counts blank rows in the middle towards the limit without storing millions of them", () => {
    const text = "a\n" + "\n".repeat(1_000_000) + "b\n";
    const started = performance.now();
    expect(errorOf(() => parseCsv(text)).message).toBe(TOO_MANY_ROWS_MESSAGE);
    expect(performance.now() - started).toBeLessThan(500);
    expect(parseCsv("a\n" + "\n".repeat(100) + "b")).toHaveLength(102);
  });

  it("refuses more than 200 columns", () => {
    const row = Array.from({ length: 201 }, (_, k) => `c${k}`).join(",");
    expect(errorOf(() => parseCsv(`x\n${row}`)).message).toBe(
      "Row 2 has more than 200 columns. Remove the unused columns and try again.",
    );
    const ok = Array.from({ length: 200 }, (_, k) => `c${k}`).join(",");
    expect(parseCsv(ok)[0]).toHaveLength(200);
  });

  it("ignores empty padding past the column limit", () => {
    const padded = "q,a,b" + ",".repeat(5000);
    expect(parseCsv(padded)).toEqual([["q", "a", "b", ...Array<string>(197).fill("")]]);
  });

  it("refuses a row of a million columns quickly", () => {
    const wide = "x,".repeat(1_000_000);
    const time = fastest(() => {
      expect(() => parseCsv(wide)).toThrow(ImportError);
    }, 3);
    expect(time).toBeLessThan(50);
    const emptyWide = ",".repeat(1_000_000) + "\nq";
    expect(fastest(() => parseCsv(emptyWide), 3)).toBeLessThan(100);
  });

  it("parses 500,000 characters in well under 100 ms", () => {
    const line =
      '12,"Which drug, given daily, is ""first line""?",Lithium,Valproate,Lamotrigine,A\n';
    const text = line.repeat(Math.ceil(500_000 / line.length));
    expect(text.length).toBeGreaterThanOrEqual(500_000);
    let rows: string[][] = [];
    const time = fastest(() => {
      rows = parseCsv(text);
    });
    expect(rows).toHaveLength(Math.ceil(500_000 / line.length));
    expect(rows[0]?.[1]).toBe('Which drug, given daily, is "first line"?');
    expect(time).toBeLessThan(50);
  });
});
