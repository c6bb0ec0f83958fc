import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./retry";

describe("retrying a failed sync", () => {
  it("waits longer after each failure, from 2 s to at most 5 minutes", () => {
    const delays = [1, 2, 3, 4, 5, 10, 20].map(retryDelayMs);
    expect(delays[0]).toBe(2_000);
    for (let i = 1; i < delays.length; i++)
      expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]!);
    expect(Math.max(...delays)).toBe(300_000);
  });
});
