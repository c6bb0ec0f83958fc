/**
 * The batched candidate search (BigramTextIndex.searchMany, decision 410) against exhaustive
 * comparison: on questions of the real fixtures (MIR/MedMCQA vignettes) and on generated banks, every
 * incoming question gets exactly the matches (ids, scores, signals) that scoring every visible
 * question whose text reaches 2/3 or that shares part, year and number gives, and the flags and best
 * matches of the all-pairs reference. More than one pass of probes per call, and several calls. Both
 * ways the search runs: in this thread, and on the bank's worker threads (decision 422; forced here,
 * the service sends only calls of 256 probes or more to them).
 */
import fs from "node:fs";
import path from "node:path";
import { eq, or, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCsv } from "../../../core/import/csv";
import type { TBulkQuestionItem } from "../../../core/schemas";
import {
  findDuplicatesReference,
  MIN_FLAGGED_TEXT_SIMILARITY,
  scoreCandidates,
  stringSimilarity,
} from "../../../core/similarity";
import { questions } from "../../db/schema";
import { createHarness, type Harness, type TestUser } from "../../test/harness";
import { checkDuplicates } from "./imports.service";
import { poolDefaults, type TextSearchPoolOptions } from "./text-search-pool";
import { visibleBank } from "./visible-bank";
import {
  bankRow,
  createRng,
  generateQuestion,
  markovModel,
  nearDuplicate,
  perturb,
  pick,
  type GenerateOptions,
} from "./synthetic-bank";

const REAL = path.resolve(__dirname, "../../../../fixtures/real");

let h: Harness;
let me: TestUser;
let other: TestUser;
beforeAll(async () => {
  h = await createHarness();
  me = await h.user();
  other = await h.user();
});
afterAll(async () => {
  await h.close();
});

/** The MIR/MedMCQA fixture's questions: year and number from its id ("2011-35"). */
function fixtureQuestions(): TBulkQuestionItem[] {
  const rows = parseCsv(fs.readFileSync(path.join(REAL, "mir_medmcqa_style_test-en.csv"), "utf8"));
  const header = rows[0]!;
  const col = (name: string) => header.indexOf(name);
  return rows.slice(1).flatMap((r) => {
    const text = r[col("question")] ?? "";
    const [year, number] = (r[col("id")] ?? "").split("-").map(Number);
    if (text.trim() === "") return [];
    const options: Record<string, string> = {};
    ["A", "B", "C", "D"].forEach((letter, i) => {
      const value = r[col(`op${"abcd"[i]}`)] ?? "";
      if (value !== "") options[letter] = value;
    });
    return [
      {
        text,
        options,
        correctAnswer: "",
        category: "",
        part: "1",
        year: Number.isInteger(year) ? year! : 2011,
        number: Number.isInteger(number) ? number! : null,
        explanation: "",
      } as TBulkQuestionItem,
    ];
  });
}

async function visibleQuestions() {
  return h.db.db
    .select()
    .from(questions)
    .where(or(eq(questions.creatorId, me.user.id), eq(questions.isPublic, true)));
}

/** Stores `existing` (owners in turn: mine, another's public, another's private) and compares. */
async function compareWithExhaustive(
  existing: TBulkQuestionItem[],
  incoming: TBulkQuestionItem[],
): Promise<{ flagged: number; matched: number }> {
  await h.db.db.execute(sql`delete from questions`);
  const base = Date.now() - 1_000_000;
  await h.db.db
    .insert(questions)
    .values(
      existing.map((q, i) =>
        bankRow(
          q,
          i % 3 === 0 ? me.user.id : other.user.id,
          i % 3 !== 2,
          new Date(base + i * 1000),
        ),
      ),
    );
  const visible = await visibleQuestions();
  const reference = findDuplicatesReference(incoming, visible);
  let flagged = 0;
  let matched = 0;
  // Two calls, as the import screen and the CLI send batches; each over one pass of 64 probes.
  const half = Math.ceil(incoming.length / 2);
  for (const [from, to] of [
    [0, half],
    [half, incoming.length],
  ] as const) {
    const batch = incoming.slice(from, to);
    const { results } = await checkDuplicates(h.db.db, me.user.id, { questions: batch });
    results.forEach((got, k) => {
      const q = batch[k]!;
      const i = from + k;
      const candidates = visible.filter(
        (v) =>
          v.part === q.part &&
          (stringSimilarity(q.text, v.text) >= MIN_FLAGGED_TEXT_SIMILARITY - 1e-9 ||
            (q.number != null && v.year === Number(q.year) && v.number === Number(q.number))),
      );
      const exhaustive = scoreCandidates(q, candidates);
      const summary = (id: string, s: { score: number; matchCount: number; reasons: string[] }) =>
        [id, s.score, s.matchCount, s.reasons.join("; ")].join(" | ");
      expect({ i, flagged: got.isDuplicate }).toEqual({ i, flagged: exhaustive.isDuplicate });
      expect({ i, matches: got.matches.map((m) => summary(m.question._id, m.similarity)) }).toEqual(
        { i, matches: exhaustive.matches.map((m) => summary(m.question.id, m.similarity)) },
      );
      const ref = reference[i]!;
      expect({ i, flagged: got.isDuplicate }).toEqual({ i, flagged: ref.isDuplicate });
      if (ref.isDuplicate) {
        expect({ i, best: got.matches[0]?.question._id }).toEqual({
          i,
          best: ref.matches[0]?.question.id,
        });
      }
      if (got.isDuplicate) flagged++;
      matched += got.matches.length;
    });
  }
  return { flagged, matched };
}

describe.each<[string, TextSearchPoolOptions]>([
  ["in this thread", { threads: 1 }],
  ["on 2 worker threads", { threads: 2, minProbes: 0 }],
])("checkDuplicates finds what exhaustive comparison finds, searching %s", (_, options) => {
  // Each comparison stores a new bank, so the bank (and its pool) is built again with these options.
  beforeAll(() => void Object.assign(poolDefaults, options));
  afterAll(() => {
    delete poolDefaults.threads;
    delete poolDefaults.minProbes;
  });
  /** The cached bank's workers answered the searches, or none did. */
  async function expectSearchedAsAsked() {
    const bank = await visibleBank(h.db.db, me.user.id, false);
    if (options.minProbes === 0) expect(bank.search.answeredByWorkers).toBeGreaterThan(0);
    else expect(bank.search.answeredByWorkers).toBe(0);
  }

  it("on the real fixture's vignettes, their near copies and re-worded texts", async () => {
    const real = fixtureQuestions();
    expect(real.length).toBeGreaterThan(150);
    const rng = createRng(35);
    const model = markovModel(real.map((q) => q.text));
    const opts: GenerateOptions = {
      model,
      textWords: [12, 110],
      optionWords: [1, 8],
      years: [2011, 2012],
      numbers: [1, 250],
    };
    const existing = real.filter((_, i) => i % 2 === 0);
    const incoming = real
      .filter((_, i) => i % 2 === 1)
      .map((q, i) => {
        const stored = existing[i % existing.length]!;
        if (i % 4 === 0) return nearDuplicate(stored, rng, opts, i % 8 === 0 ? 3 : 12);
        if (i % 4 === 1) return { ...stored, text: perturb(stored.text, rng, 6 + (i % 10), model) };
        return q;
      });
    const { flagged, matched } = await compareWithExhaustive(existing, incoming);
    await expectSearchedAsAsked();
    expect(flagged).toBeGreaterThan(20);
    expect(matched).toBeGreaterThan(flagged);
  });

  it("on generated banks of many lengths", async () => {
    for (const seed of [1, 2, 3]) {
      const rng = createRng(seed);
      const real = fixtureQuestions();
      const opts: GenerateOptions = {
        model: markovModel(real.map((q) => q.text)),
        textWords: [3, 120],
        optionWords: [1, 6],
        years: [2024, 2025],
        numbers: [1, 20],
      };
      const existing = Array.from({ length: 300 }, () => generateQuestion(rng, opts));
      const incoming = Array.from({ length: 160 }, (_, i) =>
        i % 3 === 0
          ? nearDuplicate(pick(rng, existing), rng, opts, 1 + (i % 20))
          : generateQuestion(rng, opts),
      );
      const { flagged } = await compareWithExhaustive(existing, incoming);
      await expectSearchedAsAsked();
      expect(flagged).toBeGreaterThan(5);
    }
  });
});
