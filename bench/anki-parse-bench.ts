/**
 * Anki deck parse benchmark (issue 17, §6's deck): a generated 20,000-note anki21b package (mixed
 * multiple choice written like the real ham deck, Basic notes with images, cloze notes; 200 images)
 * read by `readAnkiPackage` and converted by `convertAnkiPackage`, in Node, as the CLI will. The
 * browser's figure needs the web's Anki tab (not built yet); this gives the core's share of it.
 *
 *   npx tsx bench/anki-parse-bench.ts [--notes 20000] [--images 200] [--runs 3] [--write deck.apkg]
 *
 * --write keeps the generated package, e.g. for the CLI import benchmark.
 */
import fs from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { convertAnkiPackage, readAnkiPackage } from "../src/core/import/anki";
import { benchDeck } from "./anki-deck";

const { values: args } = parseArgs({
  options: {
    notes: { type: "string", default: "20000" },
    images: { type: "string", default: "200" },
    runs: { type: "string", default: "3" },
    write: { type: "string" },
  },
});
const NOTES = Number(args.notes);
const IMAGES = Number(args.images);
const RUNS = Number(args.runs);

const deck = await benchDeck(NOTES, IMAGES);
if (args.write) fs.writeFileSync(args.write, deck);
console.log(`deck: ${NOTES} notes, ${IMAGES} images, ${(deck.length / 1e6).toFixed(1)} MB`);

const times: Array<{ read: number; convert: number }> = [];
let summary = "";
for (let run = 0; run < RUNS; run++) {
  const t0 = performance.now();
  const pkg = await readAnkiPackage(deck);
  const t1 = performance.now();
  const result = convertAnkiPackage(pkg, { part: "1", year: 2024 });
  const t2 = performance.now();
  times.push({ read: t1 - t0, convert: t2 - t1 });
  summary = `${result.questions.length} multiple choice, ${result.flashcards.length} flashcards, ${result.skipped.length} skipped, ${result.warnings.length} warnings`;
}
console.log(summary);
for (const [k, t] of times.entries()) {
  console.log(
    `run ${k + 1}: read ${(t.read / 1000).toFixed(2)} s, convert ${(t.convert / 1000).toFixed(2)} s, total ${((t.read + t.convert) / 1000).toFixed(2)} s`,
  );
}
console.log(
  `Node ${process.version}, ${os.cpus().length} cores, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);
