import { describe, expect, it } from "vitest";
import { closeInSteps, type ShutdownLog, type ShutdownStep } from "./shutdown";

function recordingLog() {
  const lines: string[] = [];
  const log: ShutdownLog = { error: (_obj, msg) => void lines.push(msg) };
  return { log, lines };
}

/** A database step that records whether it ran. */
function databaseStep() {
  const state = { closed: false };
  const step: ShutdownStep = {
    name: "the database",
    budgetMs: 1000,
    close: async () => {
      state.closed = true;
    },
  };
  return { step, state };
}

describe("closeInSteps", () => {
  it("closes every step in order and answers 0", async () => {
    const order: string[] = [];
    const { log, lines } = recordingLog();
    const code = await closeInSteps(
      [
        { name: "the HTTP server", budgetMs: 1000, close: async () => void order.push("http") },
        { name: "the database", budgetMs: 1000, close: async () => void order.push("db") },
      ],
      log,
    );
    expect(code).toBe(0);
    expect(order).toEqual(["http", "db"]);
    expect(lines).toEqual([]);
  });

  it("moves on from a step that never settles, still closes the next one, and answers 1", async () => {
    const { log, lines } = recordingLog();
    const database = databaseStep();
    const started = performance.now();
    const code = await closeInSteps(
      [
        { name: "the HTTP server", budgetMs: 100, close: () => new Promise<void>(() => {}) },
        database.step,
      ],
      log,
    );
    expect(code).toBe(1);
    expect(database.state.closed).toBe(true);
    expect(performance.now() - started).toBeLessThan(900);
    expect(lines).toEqual(["the HTTP server did not close in time; shutting down without it"]);
  });

  it("logs a step that fails, closes the rest, and answers 1", async () => {
    const { log, lines } = recordingLog();
    const database = databaseStep();
    const code = await closeInSteps(
      [
        {
          name: "the HTTP server",
          budgetMs: 1000,
          close: () => Promise.reject(new Error("boom")),
        },
        database.step,
      ],
      log,
    );
    expect(code).toBe(1);
    expect(database.state.closed).toBe(true);
    expect(lines).toEqual(["closing the HTTP server failed"]);
  });
});
