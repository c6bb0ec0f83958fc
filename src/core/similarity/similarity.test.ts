import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compareQuestions,
  findDuplicatesReference,
  mergeQuestion,
  scoreCandidates,
  stringSimilarity,
  suggestMergeStrategy,
  type DuplicateQuestion,
} from "./index";

// Any UTF-16 code unit, lone surrogates included (cheaper to set up than fast-check's "binary" unit).
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
// A small alphabet makes shared and repeated bigrams common, so the multiset logic is exercised.
const anyText = fc.oneof(
  fc.string({ unit: codeUnit }),
  fc.string({ unit: fc.constantFrom("a", "b", "A", " ", "\n"), maxLength: 16 }),
);

describe("stringSimilarity", () => {
  it.each<[string | null | undefined, string | null | undefined, number]>([
    ["night", "nacht", 0.25], // one shared bigram (ht) of 4 + 4
    ["Hello World", "hello   world", 1],
    ["a", "a", 1], // equal wins before the length rule
    ["a", "ab", 0],
    ["", "", 0], // empty values are never similar
    ["   ", "", 0],
    [" \n", " \t", 0],
    ["abc", null, 0],
    [undefined, undefined, 0],
    ["aaaa", "aa", 0.5], // multiset: aa×3 vs aa×1 → 2·1/(3+1); a set would say 1
    ["abab", "baba", 4 / 6],
  ])("%j vs %j → %d", (a, b, expected) => {
    expect(stringSimilarity(a, b)).toBeCloseTo(expected, 12);
  });

  it("is symmetric, bounded and never throws", () => {
    fc.assert(
      fc.property(anyText, anyText, (a, b) => {
        const s = stringSimilarity(a, b);
        expect(s).toBe(stringSimilarity(b, a));
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
      }),
      { numRuns: 10_000 },
    );
  });

  it("is 1 for any non-blank string against itself with other case and spacing", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => s.replace(/\s+/g, "") !== ""),
        (s) => {
          expect(stringSimilarity(s, ` ${s.toUpperCase().toLowerCase()} `)).toBe(1);
        },
      ),
    );
  });
});

const OPTIONS = {
  A: "Dopamine",
  B: "Serotonin",
  C: "GABA",
  D: "Glutamate",
  E: "Acetylcholine",
};
const parkinson: DuplicateQuestion = {
  id: "e1",
  text: "Which neurotransmitter is deficient in Parkinson disease?",
  options: OPTIONS,
  part: "1",
  year: 2023,
  number: 14,
  createdAt: new Date("2024-01-01T00:00:00Z"),
};
const incomingParkinson: DuplicateQuestion = {
  text: "Which neurotransmitter is deficient in Parkinson's disease?",
  options: { ...OPTIONS, E: "Norepinephrine" },
  part: "1",
  year: "2023",
  number: "14",
};

describe("compareQuestions", () => {
  it("scores all four signals in docs/product/validation.md", () => {
    const r = compareQuestions(incomingParkinson, parkinson);
    // Text: 51 characters vs 53; the inserted "'s" replaces bigram "nd" → 2·49/(50+52).
    expect(r.details.text).toBeCloseTo(98 / 102, 12);
    expect(r.details).toMatchObject({ optionA: 1, optionB: 1, optionC: 1, optionD: 1 });
    // acetylcholine vs norepinephrine share "in" and "ne": 2·2/(12+13).
    expect(r.details.optionE).toBeCloseTo(0.16, 12);
    expect(r.reasons).toEqual([
      "Question text is 96% similar", // 96.08 rounded
      "4 answer options are similar",
      "Same question number (14)",
      "Same PRITE year (2023) and part (1)",
    ]);
    expect(r.matchCount).toBe(5); // text 1 + options capped at 2 + number 1 + year/part 1
    expect(r.score).toBeCloseTo(0.6 * (98 / 102) + 0.4 * 1, 12);
  });

  it("gives no option points when no option reaches 0.6 and no year point without a part", () => {
    const r = compareQuestions(
      { text: "Alpha beta gamma", options: { A: "xyz" }, year: 2020 },
      { text: "Alpha beta gamma", options: { A: "qrs" }, year: 2020 },
    );
    expect(r.reasons).toEqual(["Question text is 100% similar"]);
    expect(r.matchCount).toBe(1);
    expect(r.score).toBeCloseTo(0.6, 12);
  });

  it("counts one option point for a single similar option and averages only qualifying options", () => {
    const r = compareQuestions(
      { text: "zzzz", options: { A: "Lithium carbonate", B: "Valproic acid" }, number: 3 },
      { text: "qqqq", options: { A: "lithium  carbonate", B: "Carbamazepine" }, number: 3 },
    );
    expect(r.reasons).toEqual(["1 answer options are similar", "Same question number (3)"]);
    expect(r.matchCount).toBe(2);
    expect(r.score).toBeCloseTo(0.4, 12); // text 0, mean of qualifying options = 1
  });

  it("never throws on arbitrary input and keeps the score in [0, 1]", () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (a, b) => {
        const r = compareQuestions(a as DuplicateQuestion, b as DuplicateQuestion);
        expect(r.score).toBeGreaterThanOrEqual(0);
        expect(r.score).toBeLessThanOrEqual(1);
        expect(r.matchCount).toBeLessThanOrEqual(5);
      }),
      { numRuns: 10_000 },
    );
  });
});

describe("findDuplicatesReference", () => {
  const otherPart: DuplicateQuestion = { ...parkinson, id: "e2", part: "2" };
  const sameOptions: DuplicateQuestion = {
    id: "e3",
    text: "Which drug is most associated with tardive dyskinesia?",
    options: { A: "Dopamine", B: "Serotonin", C: "Clozapine" },
    part: "1",
    year: 2023,
    number: 15,
    createdAt: "2025-05-01T00:00:00Z",
  };
  const unrelated: DuplicateQuestion = {
    id: "e4",
    text: "What is the first-line treatment for panic disorder?",
    options: { A: "SSRIs", B: "Benzodiazepines" },
    part: "1",
    year: 2020,
  };
  const existing = [otherPart, unrelated, sameOptions, parkinson];

  it("flags a duplicate, keeps candidates with 2+ signals and orders them by score", () => {
    const [result] = findDuplicatesReference([incomingParkinson], existing);
    expect(result?.isDuplicate).toBe(true);
    expect(result?.matches.map((m) => m.question.id)).toEqual(["e1", "e3"]);
    const [best, second] = result!.matches;
    expect(best?.similarity.mergeStrategy).toBe("newer"); // incoming has no createdAt: it is new
    expect(best?.similarity.score).toBeCloseTo(0.6 * (98 / 102) + 0.4, 12);
    expect(second?.similarity.reasons).toEqual([
      "2 answer options are similar",
      "Same PRITE year (2023) and part (1)",
    ]);
    expect(second!.similarity.score).toBeLessThan(0.8);
  });

  it("skips other parts unless crossPart, and the same record always", () => {
    const cross = findDuplicatesReference([incomingParkinson], existing, { crossPart: true })[0]!;
    // e2 ties e1 on score but lacks the year-and-part signal.
    expect(cross.matches.map((m) => m.question.id)).toEqual(["e1", "e2", "e3"]);
    const self = findDuplicatesReference(
      [{ ...parkinson, _id: "e1", id: undefined }],
      [parkinson],
    )[0]!;
    expect(self).toEqual({ isDuplicate: false, matches: [] });
  });

  it("never matches a question without text", () => {
    const results = findDuplicatesReference(
      [
        { ...incomingParkinson, text: "" },
        { ...incomingParkinson, text: "  \n" },
      ],
      existing,
    );
    expect(results).toEqual([
      { isDuplicate: false, matches: [] },
      { isDuplicate: false, matches: [] },
    ]);
  });

  it("is not a duplicate below 0.8 even with enough signals", () => {
    const [result] = findDuplicatesReference(
      [
        {
          text: "Totally different wording",
          options: { A: "Dopamine", B: "Serotonin" },
          part: "1",
          year: 2023,
        },
      ],
      [sameOptions],
    );
    expect(result?.matches).toHaveLength(1);
    expect(result?.isDuplicate).toBe(false);
  });

  it("keeps the top 3 only", () => {
    const copies = ["c5", "c4", "c3", "c2", "c1"].map((id, i) => ({
      ...parkinson,
      id,
      text: parkinson.text + "x".repeat(i),
    }));
    const [result] = findDuplicatesReference([incomingParkinson], copies);
    expect(result?.matches.map((m) => m.question.id)).toEqual(["c5", "c4", "c3"]);
  });

  it("suggests 'metadata' when the incoming question is not newer", () => {
    const older = { ...incomingParkinson, createdAt: new Date("2023-06-01T00:00:00Z") };
    const same = { ...incomingParkinson, createdAt: "2024-01-01T00:00:00Z" };
    expect(
      findDuplicatesReference([older], [parkinson])[0]?.matches[0]?.similarity.mergeStrategy,
    ).toBe("metadata");
    expect(suggestMergeStrategy(same, parkinson)).toBe("metadata");
    expect(suggestMergeStrategy({ createdAt: "2024-01-02" }, parkinson)).toBe("newer");
    expect(suggestMergeStrategy({}, parkinson)).toBe("newer");
  });

  it("agrees with scoreCandidates given the candidates in any order", () => {
    const letters = fc.constantFrom("a", "b", "c", " ");
    const text = fc.string({ unit: letters, maxLength: 12 });
    const question = (id: fc.Arbitrary<string | undefined>) =>
      fc.record({
        id,
        text,
        options: fc.record({ A: text, B: text, C: text }),
        part: fc.constantFrom("1", "2"),
        year: fc.constantFrom(2022, 2023),
        number: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      });
    fc.assert(
      fc.property(
        fc.array(question(fc.constant(undefined)), { maxLength: 4 }),
        fc.uniqueArray(question(fc.uuid()), { maxLength: 8, selector: (q) => q.id }),
        fc.boolean(),
        (incoming, existingQs, crossPart) => {
          const reference = findDuplicatesReference(incoming, existingQs, { crossPart });
          const reversed = [...existingQs].reverse();
          incoming.forEach((q, i) => {
            expect(scoreCandidates(q, reversed, { crossPart })).toEqual(reference[i]);
          });
        },
      ),
    );
  });

  it("never throws on arbitrary lists", () => {
    fc.assert(
      fc.property(
        fc.array(fc.anything(), { maxLength: 5 }),
        fc.array(fc.anything(), { maxLength: 5 }),
        (a, b) => {
          const results = findDuplicatesReference(
            a as DuplicateQuestion[],
            b as DuplicateQuestion[],
          );
          expect(results).toHaveLength(a.length);
        },
      ),
      { numRuns: 10_000 },
    );
  });
});

describe("mergeQuestion", () => {
  const studyData = [{ user: "u1", easeFactor: 2.6 }];
  const existing = {
    id: "e1",
    text: "Old text",
    options: { A: "a1", B: "b1", C: "c1" } as Record<string, string>,
    correctAnswer: "A",
    correctAnswers: ["A"],
    category: "Neuroscience",
    part: "1",
    year: 2022 as number | string,
    number: 5 as number | null | undefined,
    explanation: "old explanation",
    createdAt: new Date("2024-01-01T00:00:00Z"),
    creatorId: "u1",
    studyData,
    isPublic: true,
    generatedExplanation: "AI text",
  };
  const incoming = {
    ...existing,
    id: undefined as unknown as string,
    text: "New text",
    options: { A: "a2", B: "b2", D: "d2" } as Record<string, string>,
    correctAnswer: "B",
    correctAnswers: [] as string[],
    category: "",
    year: "2023",
    number: undefined,
    explanation: "new explanation",
    createdAt: new Date("2025-01-01T00:00:00Z"),
    creatorId: "u2",
    studyData: [],
    isPublic: false,
    generatedExplanation: "",
  };

  it("newer: new content, existing identity, owner, progress and visibility; blanks do not wipe", () => {
    expect(mergeQuestion(existing, incoming, "newer")).toEqual({
      id: "e1",
      text: "New text",
      options: { A: "a2", B: "b2", D: "d2" },
      correctAnswer: "B",
      correctAnswers: ["B"],
      category: "Neuroscience",
      part: "1",
      year: "2023",
      number: 5,
      explanation: "new explanation",
      createdAt: existing.createdAt,
      creatorId: "u1",
      studyData,
      isPublic: true,
      generatedExplanation: "AI text",
    });
  });

  it("metadata: existing question, metadata filled where the new one has values", () => {
    const merged = mergeQuestion(
      existing,
      { ...incoming, category: "Movement", number: 9 },
      "metadata",
    );
    expect(merged).toEqual({ ...existing, year: "2023", number: 9, category: "Movement" });
    expect(mergeQuestion(existing, incoming, "metadata")).toEqual({ ...existing, year: "2023" });
  });

  it("manual: only the checked fields, options letter by letter", () => {
    expect(
      mergeQuestion(existing, incoming, "manual", ["text", "optionC", "optionD", "correctAnswer"]),
    ).toEqual({
      ...existing,
      text: "New text",
      options: { A: "a1", B: "b1", D: "d2" },
      correctAnswer: "B",
      correctAnswers: ["B"],
    });
    expect(mergeQuestion(existing, incoming, "manual", [])).toEqual(existing);
    expect(mergeQuestion(existing, incoming, "manual", ["number", "explanation"])).toEqual({
      ...existing,
      number: undefined,
      explanation: "new explanation",
    });
  });

  it("keepBoth: the new question as it came", () => {
    const kept = mergeQuestion(existing, incoming, "keepBoth");
    expect(kept).toEqual(incoming);
    expect(kept).not.toBe(incoming);
  });

  it("does not modify its arguments", () => {
    const before = structuredClone({ existing, incoming });
    for (const s of ["newer", "metadata", "manual", "keepBoth"] as const) {
      mergeQuestion(existing, incoming, s, ["optionA", "text", "correctAnswer"]);
    }
    expect({ existing, incoming }).toEqual(before);
  });
});
