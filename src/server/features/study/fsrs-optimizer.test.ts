import { describe, expect, it } from "vitest";
import { buildItems, computeInChild } from "./fsrs-optimizer";

describe("the FSRS optimizer's child process", () => {
  it("a panic in fsrs-rs ends the child, not this process: the call is refused", async () => {
    // An item with no day between its reviews makes fsrs-rs abort its process.
    await expect(
      computeInChild([
        [
          [3, 0],
          [3, 0],
        ],
      ]),
    ).rejects.toThrow(/optimizer exited/);
  });

  it("never builds such an item from a review log", () => {
    const t = Date.parse("2025-01-01T08:00:00Z");
    const at = (h: number) => new Date(t + h * 3_600_000);
    const items = buildItems([
      { questionId: "a", isCorrect: true, difficulty: 1, reviewedAt: at(0) },
      { questionId: "a", isCorrect: false, difficulty: 1, reviewedAt: at(2) },
      { questionId: "a", isCorrect: true, difficulty: 2, reviewedAt: at(50) },
      { questionId: "a", isCorrect: true, difficulty: null, reviewedAt: at(90) },
    ]);
    expect(items).toEqual([
      [
        [3, 0],
        [1, 0],
        [4, 2],
      ],
    ]);
  });
});
