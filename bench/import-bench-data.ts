/**
 * The questions of the `prite import` benchmark (bench/cli-import-bench.ts), also searched alone by
 * bench/text-index-bench.ts: --rows incoming questions and a bank of --existing, Markov text trained on
 * the MIR/MedMCQA fixture (a built-in vocabulary if it is missing), 10% of the incoming rows with a
 * near-duplicate stored. The same seed gives the same data in both.
 */
import fs from "node:fs";
import path from "node:path";
import { parseCsv } from "../src/core/import/csv";
import type { TBulkQuestionItem } from "../src/core/schemas";
import {
  createRng,
  generateQuestion,
  markovModel,
  nearDuplicate,
  vocabularyModel,
  VIGNETTE_WORDS,
  type GenerateOptions,
} from "../src/server/features/imports/synthetic-bank";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SEED = 20_261_122;

/** The benches' imported questions: vignette-length texts, 2-12 word options, a third explained. */
export const IMPORT_QUESTION_SHAPE: Omit<GenerateOptions, "model"> = {
  textWords: [12, 110],
  optionWords: [1, 12],
  years: [2024],
  numbers: [1, 200],
  explanationShare: 0.3,
};

export function importBenchData(
  rows: number,
  existingCount: number,
): { incoming: TBulkQuestionItem[]; existing: TBulkQuestionItem[] } {
  const file = path.join(ROOT, "fixtures/real/mir_medmcqa_style_test-en.csv");
  let model = vocabularyModel(VIGNETTE_WORDS);
  if (fs.existsSync(file)) {
    const csv = parseCsv(fs.readFileSync(file, "utf8"));
    const header = csv[0] ?? [];
    const cols = ["question", "opa", "opb", "opc", "opd", "exp"].map((c) => header.indexOf(c));
    model = markovModel(csv.slice(1).flatMap((r) => cols.map((c) => (c >= 0 ? (r[c] ?? "") : ""))));
  }
  const rng = createRng(SEED);
  const opts: GenerateOptions = { model, ...IMPORT_QUESTION_SHAPE };
  const incoming = Array.from({ length: rows }, () => generateQuestion(rng, opts));
  const existing: TBulkQuestionItem[] = incoming
    .slice(0, Math.round(rows * 0.1))
    .map((q) => nearDuplicate(q, rng, opts));
  while (existing.length < existingCount) existing.push(generateQuestion(rng, opts));
  return { incoming, existing };
}
