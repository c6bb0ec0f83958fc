import { describe, expect, it } from "vitest";
import { FLASHCARD_MESSAGES } from "@/core/schemas/flashcard";
import {
  emptyFlashcardDraft,
  flashcardDraftError,
  flashcardDraftFrom,
  flashcardPayload,
  wrapSelection,
} from "./flashcard-draft";

describe("the flashcard editor's draft", () => {
  it("starts empty and says what is missing, as the server would", () => {
    const draft = emptyFlashcardDraft(new Date("2025-06-01T00:00:00Z"));
    expect(draft).toMatchObject({ year: 2025, part: "1" });
    expect(flashcardDraftError(draft)).toBe(FLASHCARD_MESSAGES.FRONT_REQUIRED);
    expect(flashcardDraftError({ ...draft, front: "<b>x</b>" })).toBe(
      FLASHCARD_MESSAGES.BACK_REQUIRED,
    );
    expect(flashcardDraftError({ ...draft, front: "<b>x</b>", back: "y" })).toBeNull();
  });

  it("round-trips a stored card (its front is the question's text)", () => {
    const stored = {
      text: "<b>F</b>",
      back: "B",
      category: "Sleep",
      part: "2",
      year: 2023,
      source: "Deck",
    };
    expect(flashcardPayload(flashcardDraftFrom(stored))).toEqual({
      front: "<b>F</b>",
      back: "B",
      category: "Sleep",
      part: "2",
      year: 2023,
      source: "Deck",
    });
  });
});

describe("wrapSelection", () => {
  it("wraps the selected text in a tag and keeps it selected", () => {
    expect(wrapSelection("take lithium daily", 5, 12, "b")).toEqual({
      value: "take <b>lithium</b> daily",
      start: 8,
      end: 15,
    });
    expect(wrapSelection("x2", 1, 2, "sup").value).toBe("x<sup>2</sup>");
    expect(wrapSelection("ab", 2, 0, "i").value).toBe("<i>ab</i>");
  });

  it("makes a list item of each selected line", () => {
    const out = wrapSelection("Causes:\nA\nB", 8, 11, "li");
    expect(out.value).toBe("Causes:\n<ul><li>A</li><li>B</li></ul>");
    expect(out.value.slice(out.start, out.end)).toBe("A</li><li>B");
  });
});
