import { describe, expect, it } from "vitest";
import {
  changeType,
  draftError,
  draftFromQuestion,
  draftToPayload,
  draftWarning,
  emptyDraft,
  toggleCorrect,
  visibleLetters,
} from "./question-draft";

const now = new Date(2026, 5, 1);

function filled() {
  const d = emptyDraft(now);
  return {
    ...d,
    text: "Which drug?",
    options: { ...d.options, A: "Lithium", B: "Valproate", C: "Quetiapine" },
  };
}

describe("question draft", () => {
  it("starts empty with this year and Part 1", () => {
    const d = emptyDraft(now);
    expect(d).toMatchObject({ part: "1", year: 2026, questionType: "standard" });
    expect(draftError(d)).toBe("Question text is required");
  });

  it("reports the spec's messages in order", () => {
    let d = filled();
    expect(draftError({ ...d, options: { ...d.options, B: "" } })).toBe(
      "At least options A and B are required",
    );
    expect(draftError(d)).toBe("Please select a correct answer");
    d = toggleCorrect(d, "B");
    expect(draftError(d)).toBeNull();
    d = changeType(d, "multipleCorrect");
    expect(draftError(d)).toBe("Please select at least one correct answer");
    expect(draftError({ ...toggleCorrect(d, "A"), numCorrectAnswers: "16" })).toBe(
      "The number of correct answers must be between 1 and 15",
    );
  });

  it("switching to multipleCorrect sets the instructions, clears answers and asks for 3", () => {
    const d = changeType(toggleCorrect(filled(), "A"), "multipleCorrect");
    expect(d).toMatchObject({
      instructions: "Select the THREE correct answers.",
      correctAnswer: "",
      correctAnswers: [],
      numCorrectAnswers: "3",
    });
    expect(visibleLetters(d)).toHaveLength(15);
    const back = changeType(d, "fourOptions");
    expect(back.numCorrectAnswers).toBe("1");
    expect(visibleLetters(back)).toEqual(["A", "B", "C", "D"]);
    expect(visibleLetters(changeType(d, "standard"))).toHaveLength(5);
  });

  it("warns, without blocking, when the selection differs from the count", () => {
    let d = changeType(filled(), "multipleCorrect");
    d = toggleCorrect(toggleCorrect(d, "C"), "A");
    expect(d.correctAnswers).toEqual(["A", "C"]);
    expect(draftWarning(d)).toBe("You've selected 2 answers, but specified 3 correct answers");
    expect(draftError(d)).toBeNull();
    d = toggleCorrect(d, "C");
    expect(d.correctAnswers).toEqual(["A"]);
  });

  it("sends only the letters of the type and round-trips a stored question", () => {
    const d = toggleCorrect({ ...filled(), number: "12", category: "Ethics" }, "C");
    const payload = draftToPayload({ ...d, options: { ...d.options, K: "hidden" } });
    expect(Object.keys(payload.options as object)).toEqual(["A", "B", "C", "D", "E"]);
    expect(payload).toMatchObject({ correctAnswer: "C", correctAnswers: ["C"], number: "12" });
    const again = draftFromQuestion({
      part: "2",
      year: 2022,
      number: 12,
      category: "Ethics",
      questionType: "standard",
      instructions: "",
      numCorrectAnswers: 1,
      text: "Which drug?",
      options: { A: "Lithium", B: "Valproate" },
      correctAnswer: "B",
      correctAnswers: ["B"],
      explanation: "",
    });
    expect(again).toMatchObject({ part: "2", year: 2022, number: "12", correctAnswer: "B" });
    expect(again.options.O).toBe("");
  });
});
