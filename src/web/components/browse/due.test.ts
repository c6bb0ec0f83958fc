import { describe, expect, it } from "vitest";
import { isDue } from "./due";

const now = new Date("2026-03-01T12:00:00Z");
const base = { creator: "me", correctAnswer: "A", correctAnswers: ["A"], studyData: [] };

describe("isDue", () => {
  it("marks own never-studied questions with an answer", () => {
    expect(isDue(base, "me", now)).toBe(true);
    expect(isDue({ ...base, correctAnswer: "", correctAnswers: [] }, "me", now)).toBe(false);
    expect(isDue({ ...base, creator: "other" }, "me", now)).toBe(false);
  });

  it("follows the viewer's review date once studied", () => {
    const at = (nextReview: string | null) => ({
      ...base,
      creator: "other",
      studyData: [{ nextReview }],
    });
    expect(isDue(at("2026-03-01T11:59:59Z"), "me", now)).toBe(true);
    expect(isDue(at("2026-03-02T00:00:00Z"), "me", now)).toBe(false);
    expect(isDue(at(null), "me", now)).toBe(true);
  });
});
