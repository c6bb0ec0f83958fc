import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allocateByShare, drawBlueprint } from "./blueprint";
import { sampleWithoutRepeats, seededRng } from "../random";

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

/** A pool of 1-8 categories holding 0-60 questions each, ids unique across categories. */
const poolArb = fc
  .array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 8 })
  .map((sizes) => new Map(sizes.map((n, i) => [`Category ${i}`, ids(`c${i}`, n)])));

describe("allocateByShare (largest remainder)", () => {
  it("gives each category its share, the leftover seats to the largest remainders", () => {
    // Quotas for 10 seats over 50/30/20: 5, 3, 2 exactly.
    const exact = allocateByShare(
      new Map([
        ["A", 50],
        ["B", 30],
        ["C", 20],
      ]),
      10,
    );
    expect(exact.map((r) => r.count)).toEqual([5, 3, 2]);
    // 7 seats over 5/3/2: quotas 3.5, 2.1, 1.4 → 3, 2, 1 and one seat to the largest remainder (A).
    const rounded = allocateByShare(
      new Map([
        ["A", 5],
        ["B", 3],
        ["C", 2],
      ]),
      7,
    );
    expect(rounded.map((r) => [r.category, r.count])).toEqual([
      ["A", 4],
      ["B", 2],
      ["C", 1],
    ]);
  });

  it("breaks equal remainders by the larger category, then by name, whatever the input order", () => {
    const a = allocateByShare(
      new Map([
        ["Zeta", 1],
        ["Alpha", 1],
        ["Beta", 1],
      ]),
      2,
    );
    const b = allocateByShare(
      new Map([
        ["Beta", 1],
        ["Zeta", 1],
        ["Alpha", 1],
      ]),
      2,
    );
    expect(a).toEqual(b);
    expect(a.map((r) => [r.category, r.count])).toEqual([
      ["Alpha", 1],
      ["Beta", 1],
      ["Zeta", 0],
    ]);
  });

  it("caps the size at the pool and leaves out empty categories", () => {
    const rows = allocateByShare(
      new Map([
        ["A", 3],
        ["B", 0],
      ]),
      40,
    );
    expect(rows).toEqual([{ category: "A", available: 3, count: 3 }]);
    expect(allocateByShare(new Map(), 40)).toEqual([]);
  });

  it("sums to min(size, pool), never exceeds a category and stays within one of the exact quota", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 34 }),
        fc.integer({ min: 0, max: 200 }),
        (sizes, size) => {
          const available = new Map(sizes.map((n, i) => [`C${i}`, n]));
          const total = sizes.reduce((s, n) => s + n, 0);
          const rows = allocateByShare(available, size);
          const seats = Math.min(size, total);
          expect(rows.reduce((s, r) => s + r.count, 0)).toBe(seats);
          for (const row of rows) {
            expect(row.count).toBeLessThanOrEqual(row.available);
            const quota = (seats * row.available) / total;
            expect(Math.abs(row.count - quota)).toBeLessThan(1);
          }
        },
      ),
    );
  });
});

describe("drawBlueprint", () => {
  it("has the requested size (capped at the pool), no repeats, and only pool questions", () => {
    fc.assert(
      fc.property(poolArb, fc.integer({ min: 5, max: 150 }), fc.nat(), (pool, size, seed) => {
        const all = new Set([...pool.values()].flat());
        const exam = drawBlueprint({ pool, size, seed });
        expect(exam.questionIds).toHaveLength(Math.min(size, all.size));
        expect(new Set(exam.questionIds).size).toBe(exam.questionIds.length);
        for (const id of exam.questionIds) expect(all.has(id)).toBe(true);
      }),
    );
  });

  it("takes from each category within one of its exact share of the pool", () => {
    fc.assert(
      fc.property(poolArb, fc.integer({ min: 5, max: 150 }), fc.nat(), (pool, size, seed) => {
        const total = [...pool.values()].reduce((s, l) => s + l.length, 0);
        const exam = drawBlueprint({ pool, size, seed });
        const drawn = new Set(exam.questionIds);
        for (const [, list] of pool) {
          const taken = list.filter((id) => drawn.has(id)).length;
          const exact = (exam.questionIds.length * list.length) / Math.max(1, total);
          expect(Math.abs(taken - exact)).toBeLessThan(1);
        }
      }),
    );
  });

  it("is the same exam for the same seed and pool, whatever order the pool arrived in", () => {
    fc.assert(
      fc.property(poolArb, fc.integer({ min: 5, max: 150 }), fc.nat(), (pool, size, seed) => {
        const reversed = new Map(
          [...pool].reverse().map(([category, list]) => [category, [...list].reverse()]),
        );
        expect(drawBlueprint({ pool: reversed, size, seed })).toEqual(
          drawBlueprint({ pool, size, seed }),
        );
      }),
    );
  });

  it("draws different exams from different seeds", () => {
    const pool = new Map([
      ["A", ids("a", 100)],
      ["B", ids("b", 100)],
    ]);
    const first = drawBlueprint({ pool, size: 40, seed: 1 }).questionIds;
    const second = drawBlueprint({ pool, size: 40, seed: 2 }).questionIds;
    expect(first).not.toEqual(second);
  });

  it("draws a question listed under two categories once", () => {
    const exam = drawBlueprint({
      pool: new Map([
        ["A", ["q1", "q2"]],
        ["B", ["q2", "q3"]],
      ]),
      size: 10,
      seed: 7,
    });
    expect([...exam.questionIds].sort()).toEqual(["q1", "q2", "q3"]);
  });
});

describe("the seeded generator", () => {
  it("repeats its sequence for a seed and stays in [0, 1)", () => {
    const a = seededRng(42);
    const b = seededRng(42);
    for (let i = 0; i < 1000; i++) {
      const x = a();
      expect(x).toBe(b());
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });

  it("samples without repeats and no more than there is", () => {
    expect(sampleWithoutRepeats([1, 2, 3], 10, seededRng(1)).sort()).toEqual([1, 2, 3]);
    expect(sampleWithoutRepeats([1, 2, 3], 0, seededRng(1))).toEqual([]);
  });
});
