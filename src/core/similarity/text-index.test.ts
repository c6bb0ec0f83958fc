import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BigramTextIndex, MIN_FLAGGED_TEXT_SIMILARITY, stringSimilarity } from "./index";

/** Every stored text of the group compared one by one. */
function bruteForce(
  texts: readonly string[],
  groups: readonly string[],
  probe: string,
  group: string,
  min: number,
): number[] {
  return texts.flatMap((text, i) =>
    groups[i] === group && stringSimilarity(probe, text) >= min ? [i] : [],
  );
}

/**
 * The index's promise: every text at or above `min`, and nothing more than 1e-9 below it (the slack
 * that keeps floating-point rounding from dropping a pair that sits exactly on the threshold).
 */
function expectExact(
  found: number[],
  texts: readonly string[],
  groups: readonly string[],
  probe: string,
  group: string,
  min: number,
): void {
  const below = new Set(bruteForce(texts, groups, probe, group, min - 1e-9));
  for (const position of bruteForce(texts, groups, probe, group, min)) {
    expect(found).toContain(position);
  }
  for (const position of found) expect(below.has(position)).toBe(true);
  expect(found).toEqual([...found].sort((a, b) => a - b));
}

// A small alphabet makes long shared and repeated bigrams common: the counters and the length filter
// are exercised near the threshold, not only far from it.
const smallText = fc.string({
  unit: fc.constantFrom("a", "b", "c", "A", " ", "\n"),
  maxLength: 40,
});
const anyText = fc.oneof(
  smallText,
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  fc.string({ maxLength: 60 }),
);
const group = fc.constantFrom("1", "2");

describe("BigramTextIndex", () => {
  it("finds exactly the texts the pairwise comparison finds", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(anyText, group), { maxLength: 80 }),
        fc.array(fc.tuple(anyText, group), { minLength: 1, maxLength: 10 }),
        fc.constantFrom(MIN_FLAGGED_TEXT_SIMILARITY, 0.5, 0.9, 1),
        (stored, probes, min) => {
          const texts = stored.map(([t]) => t);
          const groups = stored.map(([, g]) => g);
          const index = new BigramTextIndex(texts, groups);
          for (const [probe, g] of probes) {
            expectExact(index.search(probe, g, min), texts, groups, probe, g, min);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("is exact on a bank large enough for both bitsets and posting lists", () => {
    // 600 texts: common bigrams become bitsets, rare ones posting lists; near copies sit around 2/3.
    const words =
      "patient presents with mood anxiety lithium dose level weeks sleep psychosis".split(" ");
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const sentence = (n: number) =>
      Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(" ");
    const texts = Array.from({ length: 600 }, (_, i) =>
      i % 7 === 0 ? `${sentence(3)} qz${i} xj${i}` : sentence(4 + Math.floor(random() * 40)),
    );
    const groups = texts.map((_, i) => (i % 3 === 0 ? "2" : "1"));
    const index = new BigramTextIndex(texts, groups);
    let found = 0;
    for (let i = 0; i < 120; i++) {
      const probe = i % 2 === 0 ? texts[i * 5]!.slice(0, -6) + "zz" : sentence(5 + (i % 30));
      const g = groups[i * 5]!;
      const expected = bruteForce(texts, groups, probe, g, MIN_FLAGGED_TEXT_SIMILARITY);
      expectExact(
        index.search(probe, g, MIN_FLAGGED_TEXT_SIMILARITY),
        texts,
        groups,
        probe,
        g,
        MIN_FLAGGED_TEXT_SIMILARITY,
      );
      found += expected.length;
    }
    expect(found).toBeGreaterThan(60);
  });

  it("answers many probes at once as it answers each alone (several passes, mixed groups)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(anyText, group), { maxLength: 60 }),
        fc.array(anyText, { minLength: 1, maxLength: 150 }),
        group,
        fc.constantFrom(MIN_FLAGGED_TEXT_SIMILARITY, 0.5, 1),
        (stored, probes, g, min) => {
          const texts = stored.map(([t]) => t);
          const groups = stored.map(([, x]) => x);
          const index = new BigramTextIndex(texts, groups);
          const many = index.searchMany(probes, g, min);
          expect(many).toHaveLength(probes.length);
          probes.forEach((probe, k) => {
            expectExact(many[k]!, texts, groups, probe, g, min);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is exact for a batch of probes on a bank of bitsets and posting lists", () => {
    const words =
      "patient presents with mood anxiety lithium dose level weeks sleep psychosis".split(" ");
    let seed = 5;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const sentence = (n: number) =>
      Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(" ");
    const texts = Array.from({ length: 700 }, (_, i) =>
      i % 9 === 0 ? `${sentence(2)} qz${i} xj${i}` : sentence(3 + Math.floor(random() * 50)),
    );
    const groups = texts.map(() => "1");
    const index = new BigramTextIndex(texts, groups);
    // 200 probes: over three passes, long and short ones interleaved, near copies and new sentences.
    const probes = Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0 ? texts[(i * 7) % texts.length]!.slice(0, -4) + "zz" : sentence(4 + (i % 45)),
    );
    const many = index.searchMany(probes, "1", MIN_FLAGGED_TEXT_SIMILARITY);
    let found = 0;
    probes.forEach((probe, k) => {
      expectExact(many[k]!, texts, groups, probe, "1", MIN_FLAGGED_TEXT_SIMILARITY);
      found += many[k]!.length;
    });
    expect(found).toBeGreaterThan(100);
  });

  it("is exact with thousands of bigram types and Unicode case mapping", () => {
    // Cyrillic and Greek letters give over 1,000 bigram types (the tables grow while one text is read);
    // İ lower-cases to two code units and Σ to σ or ς depending on its place.
    const letters = [..."абвгдежзийклмнопрстуфхцчшщыэюяΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩİ"];
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const word = () =>
      Array.from(
        { length: 2 + Math.floor(random() * 6) },
        () => letters[Math.floor(random() * letters.length)],
      ).join("");
    const sentence = (n: number) => Array.from({ length: n }, word).join(" ");
    const texts = Array.from(
      { length: 300 },
      (_, i) => (i % 5 === 0 ? "ascii text " : "") + sentence(5 + (i % 40)),
    );
    const groups = texts.map(() => "1");
    const index = new BigramTextIndex(texts, groups);
    for (let i = 0; i < 60; i++) {
      const probe = i % 2 === 0 ? texts[i]!.toUpperCase() + word() : sentence(10);
      expectExact(
        index.search(probe, "1", MIN_FLAGGED_TEXT_SIMILARITY),
        texts,
        groups,
        probe,
        "1",
        MIN_FLAGGED_TEXT_SIMILARITY,
      );
    }
    expect(index.search(texts[3]!.toUpperCase(), "1", MIN_FLAGGED_TEXT_SIMILARITY)).toContain(3);
  });

  it("counts overlaps in the thousands (long texts, repeated bigrams)", () => {
    const long = "ab".repeat(5_000);
    // Against 9,999 bigrams: 6,599 shared of 6,599 give 0.795, 4,799 of 4,799 give 0.649.
    const texts = [
      long,
      "ab".repeat(3_400),
      "ab".repeat(3_300),
      "ba".repeat(5_000),
      "ab".repeat(2_400),
    ];
    const index = new BigramTextIndex(
      texts,
      texts.map(() => "1"),
    );
    expect(index.search(long, "1", MIN_FLAGGED_TEXT_SIMILARITY)).toEqual([0, 1, 2, 3]);
    expect(stringSimilarity(long, texts[4])).toBeLessThan(MIN_FLAGGED_TEXT_SIMILARITY);
  });

  it("matches one-character texts only to themselves, ignoring case and spacing", () => {
    const index = new BigramTextIndex(["A", " a ", "b", "ab", ""], ["1", "1", "1", "1", "1"]);
    expect(index.search("a", "1", 0.9)).toEqual([0, 1]);
    expect(index.search("a", "2", 0.9)).toEqual([]);
    expect(index.search("", "1", 0.1)).toEqual([]);
    expect(index.search("   ", "1", 0.1)).toEqual([]);
  });

  it("looks in the probe's group only", () => {
    const index = new BigramTextIndex(["lithium toxicity", "lithium toxicity"], ["1", "2"]);
    expect(index.search("Lithium  toxicity", "1", 0.9)).toEqual([0]);
    expect(index.search("Lithium toxicity", "2", 0.9)).toEqual([1]);
    expect(index.search("Lithium toxicity", "", 0.9)).toEqual([]);
  });
});
