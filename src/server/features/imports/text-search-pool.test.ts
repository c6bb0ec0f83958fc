/**
 * The duplicate check's worker pool (decision 422) answers exactly what the index answers in this
 * thread, in the same order, whatever the number of threads: on generated banks and on the texts of
 * the real fixtures. A pool whose worker cannot start answers in this thread.
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parseCsv } from "../../../core/import/csv";
import { BigramTextIndex, MIN_FLAGGED_TEXT_SIMILARITY } from "../../../core/similarity";
import { createRng, markovModel, perturb } from "./synthetic-bank";
import { TextSearchPool } from "./text-search-pool";

const REAL = path.resolve(__dirname, "../../../../fixtures/real");

/** Question, option and explanation texts of the real fixtures, and the lines of the NCVEC pool. */
function realTexts(): string[] {
  const rows = parseCsv(fs.readFileSync(path.join(REAL, "mir_medmcqa_style_test-en.csv"), "utf8"));
  const header = rows[0]!;
  const cols = ["question", "opa", "opb", "opc", "opd", "exp"].map((c) => header.indexOf(c));
  const mir = rows.slice(1).flatMap((r) => cols.map((c) => r[c] ?? ""));
  const mmlu = parseCsv(
    fs.readFileSync(path.join(REAL, "mmlu_clinical_knowledge_dev.csv"), "utf8"),
  ).flat();
  const ncvec = fs.readFileSync(path.join(REAL, "ncvec_extra_class_pool_2024.txt"), "utf8");
  return [...mir, ...mmlu, ...ncvec.split("\n")].filter((t) => t.trim() !== "");
}

const pools: TextSearchPool[] = [];
afterAll(() => pools.forEach((p) => p.close()));

function pool(index: BigramTextIndex, texts: string[], groups: string[], threads: number) {
  const made = new TextSearchPool(index, { texts, groups }, { threads, minProbes: 0 });
  pools.push(made);
  return made;
}

describe("TextSearchPool", () => {
  it("answers the real fixtures' texts as the index does, with 2 and 3 threads", async () => {
    const all = realTexts();
    expect(all.length).toBeGreaterThan(1_000);
    const rng = createRng(422);
    const model = markovModel(all);
    const texts = all.filter((_, i) => i % 2 === 0);
    const groups = texts.map((_, i) => (i % 3 === 0 ? "2" : "1"));
    const index = new BigramTextIndex(texts, groups);
    // Stored texts, their near copies and unrelated ones, in no particular order of length.
    const probes = all.map((t, i) => (i % 3 === 0 ? perturb(t, rng, 1 + (i % 5), model) : t));
    for (const threads of [2, 3]) {
      const pooled = pool(index, texts, groups, threads);
      for (const group of ["1", "2", "absent"]) {
        for (const min of [MIN_FLAGGED_TEXT_SIMILARITY, 0.9]) {
          const expected = index.searchMany(probes, group, min);
          expect(await pooled.searchMany(probes, group, min)).toEqual(expected);
        }
      }
      expect(pooled.answeredByWorkers).toBe(6 * probes.length);
    }
  });

  it("answers generated banks as the index does, with 1 to 4 threads and groups at once", async () => {
    const words = "patient presents with mood anxiety lithium dose level weeks sleep".split(" ");
    const text = fc
      .array(fc.constantFrom(...words, "x", "İ", "ß"), { minLength: 0, maxLength: 30 })
      .map((w) => w.join(" "));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(text, fc.constantFrom("1", "2")), { maxLength: 300 }),
        fc.array(text, { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 4 }),
        async (stored, probes, threads) => {
          const texts = stored.map(([t]) => t);
          const groups = stored.map(([, g]) => g);
          const index = new BigramTextIndex(texts, groups);
          const pooled = pool(index, texts, groups, threads);
          const answers = await Promise.all(
            ["1", "2"].map((g) => pooled.searchMany(probes, g, MIN_FLAGGED_TEXT_SIMILARITY)),
          );
          pooled.close();
          expect(pooled.answeredByWorkers).toBe(threads >= 2 ? 2 * probes.length : 0);
          expect(answers[0]).toEqual(index.searchMany(probes, "1", MIN_FLAGGED_TEXT_SIMILARITY));
          expect(answers[1]).toEqual(index.searchMany(probes, "2", MIN_FLAGGED_TEXT_SIMILARITY));
        },
      ),
      { numRuns: 10 },
    );
  });

  it("answers the searches under way when it is closed, its workers still building", async () => {
    const texts = realTexts().slice(0, 2_000);
    const groups = texts.map(() => "1");
    const index = new BigramTextIndex(texts, groups);
    const closing = pool(index, texts, groups, 2);
    const probes = texts.slice(0, 600);
    const answer = closing.searchMany(probes, "1", MIN_FLAGGED_TEXT_SIMILARITY);
    closing.close();
    expect(await answer).toEqual(index.searchMany(probes, "1", MIN_FLAGGED_TEXT_SIMILARITY));
    expect(closing.answeredByWorkers).toBe(0);
  });

  it("answers in this thread when its worker cannot start, and for small calls", async () => {
    const texts = ["the heart and the lungs", "the heart and the lung", "kidney stones"];
    const groups = ["1", "1", "1"];
    const index = new BigramTextIndex(texts, groups);
    const broken = new TextSearchPool(
      index,
      { texts, groups },
      { threads: 2, minProbes: 0, workerUrl: new URL("./no-such-worker.js", import.meta.url) },
    );
    pools.push(broken);
    expect(await broken.searchMany(texts, "1", 0.8)).toEqual(index.searchMany(texts, "1", 0.8));
    // Given up for good: the next call does not try again.
    expect(await broken.searchMany(texts, "1", 0.8)).toEqual([[0, 1], [0, 1], [2]]);
    expect(broken.answeredByWorkers).toBe(0);
    const small = new TextSearchPool(index, { texts, groups }, { threads: 2 });
    pools.push(small);
    expect(await small.searchMany(texts, "1", 0.8)).toEqual([[0, 1], [0, 1], [2]]);
    expect(small.answeredByWorkers).toBe(0);
  });
});
