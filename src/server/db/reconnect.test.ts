import { describe, expect, it } from "vitest";
import { reconnectDelaySeconds } from "./client";

// postgres.js runs a query queued on a reconnecting connection only once a reconnect succeeds; with its
// default backoff (up to 20 s, retries counted across the pool) requests outlived their clients after a
// PostgreSQL restart (decision 091).
describe("reconnectDelaySeconds", () => {
  it("starts at 50 ms and doubles", () => {
    expect([0, 1, 2, 3].map(reconnectDelaySeconds)).toEqual([0.05, 0.1, 0.2, 0.4]);
  });

  it("never waits more than a second, however many attempts the pool has made", () => {
    for (const retries of [5, 10, 100, 10_000]) {
      expect(reconnectDelaySeconds(retries)).toBeLessThanOrEqual(1);
    }
  });
});
