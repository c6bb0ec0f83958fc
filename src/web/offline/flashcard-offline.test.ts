import { describe, expect, it } from "vitest";
import { DEFAULT_FSRS_SETTINGS } from "@/core/srs/fsrs";
import { flashcardReview, FLASHCARD_RATINGS, type FlashcardRating } from "@/core/srs/flashcard";
import { replayReviews } from "@/core/srs/replay";
import { SM2_SETTINGS } from "@/core/srs/schedule";
import {
  intervalsFromCopy,
  rateFlashcardOffline,
  toStoredState,
  type OfflineCopy,
} from "./local-study";

const FSRS = { ...DEFAULT_FSRS_SETTINGS, scheduler: "fsrs" as const };
const CARD = "22222222-2222-4222-8222-222222222222";
const T0 = Date.parse("2024-03-01T08:00:00Z");
const DAY = 86_400_000;

const emptyCopy = (settings = SM2_SETTINGS): OfflineCopy => ({
  questions: [],
  states: {},
  settings,
  savedAt: new Date(T0).toISOString(),
});

describe("a flashcard rated offline (decision 235)", () => {
  it("queues the rating instead of a selection, and reschedules the copy as the server's replay will", () => {
    for (const settings of [SM2_SETTINGS, FSRS]) {
      let copy = emptyCopy(settings);
      const ratings: FlashcardRating[] = ["good", "again", "easy"];
      const queued = ratings.map((rating, i) => {
        const out = rateFlashcardOffline(copy, CARD, {
          id: `0000000${i}-0000-4000-8000-000000000000`,
          rating,
          timeSpentMs: 2_000,
          now: new Date(T0 + i * 2 * DAY),
        });
        copy = out.copy;
        return out.review;
      });
      expect(queued[1]).toEqual({
        id: "00000001-0000-4000-8000-000000000000",
        questionId: CARD,
        selected: [],
        timeSpentMs: 2_000,
        reviewedAt: new Date(T0 + 2 * DAY).toISOString(),
        difficulty: null,
        rating: "again",
      });
      // What the server stores for each and replays (sync.service maps the rating the same way).
      const replayed = replayReviews(
        queued.map((r) => ({ ...flashcardReview(r.rating!), reviewedAt: new Date(r.reviewedAt) })),
        settings,
      );
      expect(copy.states[CARD]).toEqual(toStoredState(replayed));
      expect(replayed.lapses).toBe(1);
    }
  });

  it("shows on each button the interval its rating then gives", () => {
    for (const settings of [SM2_SETTINGS, FSRS]) {
      const start = rateFlashcardOffline(emptyCopy(settings), CARD, {
        id: "00000009-0000-4000-8000-000000000000",
        rating: "good",
        timeSpentMs: 1,
        now: new Date(T0),
      }).copy;
      const now = new Date(T0 + 5 * DAY);
      const shown = intervalsFromCopy(start, CARD, now);
      for (const rating of FLASHCARD_RATINGS) {
        const after = rateFlashcardOffline(start, CARD, {
          id: "0000000a-0000-4000-8000-000000000000",
          rating,
          timeSpentMs: 1,
          now,
        }).copy;
        expect(after.states[CARD]!.intervalDays).toBe(shown[rating]);
      }
    }
  });
});
