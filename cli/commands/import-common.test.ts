/**
 * The CLI's duplicate check in batches: from the second batch on, the next batch is asked before the
 * current one is answered (decision 422), and the answers still land on their own rows.
 */
import { describe, expect, it } from "vitest";
import type { Api } from "../runtime";
import { CLI_CHECK_BATCH, resolveDuplicates, silentProgress } from "./import-common";

type CheckInput = Parameters<Api["imports"]["checkDuplicates"]["mutate"]>[0];

describe("resolveDuplicates", () => {
  it("keeps at most two batches under way, the first alone, and maps answers to their rows", async () => {
    const rows = CLI_CHECK_BATCH * 4 + 7;
    const items = Array.from({ length: rows }, (_, i) => ({ text: `question ${i}`, options: {} }));
    let inFlight = 0;
    const inFlightAtAsk: number[] = [];
    const api = {
      imports: {
        checkDuplicates: {
          mutate: async ({ questions }: CheckInput) => {
            inFlightAtAsk.push(inFlight++);
            // Later batches answer sooner than earlier ones would.
            await new Promise((resolve) => setTimeout(resolve, 30 - inFlightAtAsk.length * 5));
            inFlight--;
            return {
              results: questions.map((q, index) => {
                const row = Number(String(q.text).split(" ")[1]);
                return {
                  index,
                  isDuplicate: row % 3 === 0,
                  repeatOf: null,
                  matches: row % 3 === 0 ? [{ canMerge: false, question: { _id: `m${row}` } }] : [],
                };
              }),
            };
          },
        },
      },
    } as unknown as Api;
    const out = await resolveDuplicates(api, items, "skip", silentProgress);
    // The first batch alone (it builds the server's index), the second too, then the third asked at
    // once beside it; never more than two at a time.
    expect(inFlightAtAsk.slice(0, 3)).toEqual([0, 0, 1]);
    expect(inFlightAtAsk).toHaveLength(5);
    expect(Math.max(...inFlightAtAsk)).toBe(1);
    expect(out.items.map((item) => item.action)).toEqual(
      items.map((_, row) => (row % 3 === 0 ? "skip" : "create")),
    );
    expect(out.duplicates).toBe(Math.ceil(rows / 3));
  });

  it("fails with the failing batch's error and leaves no unhandled rejection", async () => {
    const items = Array.from({ length: CLI_CHECK_BATCH * 3 }, (_, i) => ({
      text: `q ${i}`,
      options: {},
    }));
    let calls = 0;
    const api = {
      imports: {
        checkDuplicates: {
          mutate: async ({ questions }: CheckInput) => {
            calls++;
            if (calls >= 2) throw new Error(`batch ${calls} failed`);
            return {
              results: questions.map((_, index) => ({ index, isDuplicate: false, matches: [] })),
            };
          },
        },
      },
    } as unknown as Api;
    await expect(resolveDuplicates(api, items, "skip", silentProgress)).rejects.toThrow(
      "batch 2 failed",
    );
  });
});
