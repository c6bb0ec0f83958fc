import { afterEach, beforeEach, vi } from "vitest";

// A test fails on console.error: an unexpected error log is a bug, not noise.
let spy: ReturnType<typeof vi.spyOn> | undefined;
beforeEach(() => {
  spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error called: ${args.map(String).join(" ")}`);
  });
});
afterEach(() => {
  spy?.mockRestore();
});
