import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byAnswered, levelCohort, rankAmong, rankedCohort, rankIn, type Scored } from "./rankings";

/**
 * Decision 433: a viewer ranked against the prepared cohort gets exactly what rankAmong gives over
 * the cohort without the viewer's entries plus their own figures — mean to the last digit included.
 */
const ids = ["u0", "u1", "u2", "u3", "u4", "u5", "u6", "u7", "u8", "u9", "viewer"];
const member = fc.record({
  userId: fc.constantFrom(...ids),
  pgyLevel: fc.constantFrom("1", "2", "3", ""),
  answered: fc.integer({ min: 0, max: 400 }),
  correct: fc.integer({ min: 0, max: 400 }),
});
const scored = member.map((m) => ({ ...m, correct: Math.min(m.correct, m.answered) }));

/** What the server ranked before: the cohort without the viewer, then their own figures. */
function reference(cohort: readonly Scored[], viewerId: string, own: Scored | null) {
  const members = cohort.filter((m) => m.userId !== viewerId);
  if (own) members.push(own);
  return rankAmong(viewerId, members);
}

describe("a viewer's ranking against the prepared cohort", () => {
  it("equals rankAmong's for any cohort, viewer and own figures", () => {
    fc.assert(
      fc.property(
        fc.array(scored, { maxLength: 40 }),
        fc.constantFrom(...ids),
        fc.option(scored, { nil: null }),
        fc.constantFrom("1", "2", "3"),
        (list, viewerId, ownFigures, level) => {
          const cohort = byAnswered(list.map((m) => ({ ...m })));
          const own = ownFigures ? { ...ownFigures, userId: viewerId } : null;
          const prepared = rankedCohort(cohort);
          expect(rankIn(prepared, viewerId, own)).toEqual(reference(cohort, viewerId, own));
          const sameLevel = cohort.filter((m) => m.pgyLevel === level);
          expect(rankIn(levelCohort(prepared, level), viewerId, own)).toEqual(
            reference(sameLevel, viewerId, own),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("keeps the mean the cohort's order gives, for a large cohort of uneven scores", () => {
    const cohort = byAnswered(
      Array.from({ length: 5000 }, (_, i) => ({
        userId: `u${i}`,
        pgyLevel: String(1 + (i % 4)),
        answered: 7 + ((i * 37) % 311),
        correct: (i * 13) % 7,
      })),
    );
    const prepared = rankedCohort(cohort);
    for (const viewerId of ["u0", "u17", "u2500", "u4999", "someone else"]) {
      const own = { userId: viewerId, pgyLevel: "2", answered: 9, correct: 4 };
      expect(rankIn(prepared, viewerId, own)).toEqual(reference(cohort, viewerId, own));
      expect(rankIn(prepared, viewerId, null)).toEqual(reference(cohort, viewerId, null));
    }
  });
});
