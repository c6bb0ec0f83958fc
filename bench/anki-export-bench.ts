/**
 * Export for Anki benchmark (issue 17, decision 245): `writeAnkiPackage` on a bank the size of the
 * synthetic one (50,000 questions: two thirds multiple choice, one third flashcards, 200 images of
 * 50 KB), in Node as the server runs it, then the package read back by the app's own Anki reader.
 *
 *   npx tsx bench/anki-export-bench.ts [--questions 50000] [--images 200] [--runs 3] [--write bank.apkg]
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import {
  writeAnkiPackage,
  type AnkiExportItem,
  type AnkiExportMedia,
} from "../src/core/export/anki";
import { readAnkiPackage, sqlJsLoader } from "../src/core/import/anki";

const { values: args } = parseArgs({
  options: {
    questions: { type: "string", default: "50000" },
    images: { type: "string", default: "200" },
    runs: { type: "string", default: "3" },
    write: { type: "string" },
  },
});
const QUESTIONS = Number(args.questions);
const IMAGES = Number(args.images);
const RUNS = Number(args.runs);
const loadSqlite = sqlJsLoader();

const media: AnkiExportMedia[] = [];
for (let k = 0; k < IMAGES; k++) {
  const bytes = new Uint8Array(crypto.randomBytes(50 * 1024));
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  media.push({
    sha256: crypto.createHash("sha256").update(bytes).digest("hex"),
    mimeType: "image/png",
    bytes,
  });
}

const items: AnkiExportItem[] = [];
for (let k = 0; k < QUESTIONS; k++) {
  const image = k < IMAGES ? media[k]!.sha256 : null;
  const base = {
    id: crypto.randomUUID(),
    category: ["Psychopharmacology", "Neuroscience", "Ethics", ""][k % 4]!,
    source: k % 10 === 0 ? "Imported::Deck" : "",
    part: k % 2 === 0 ? "1" : "2",
    year: 2015 + (k % 10),
    images: image ? [image] : [],
    createdAt: 1_700_000_000_000 + k * 1000,
    updatedAt: 1_700_000_000_000 + k * 1000,
  };
  if (k % 3 === 2) {
    items.push({
      ...base,
      kind: "flashcard",
      text: `<b>Card ${k}</b>: what does this show?${image ? `<br><img src="${image}">` : ""}`,
      back: `<ul><li>Answer ${k}</li><li>with a second line</li></ul>`,
      options: {},
      correctAnswers: [],
      explanation: "",
    });
  } else {
    items.push({
      ...base,
      kind: "multipleChoice",
      text: `A ${20 + (k % 60)}-year-old patient presents with symptoms number ${k}.\nWhat is the next step?`,
      options: {
        A: `Option A ${k}`,
        B: `Option B ${k}`,
        C: `Option C ${k}`,
        D: `Option D ${k}`,
        E: `E ${k}`,
      },
      correctAnswers: ["ABCDE"[k % 5]!],
      explanation: `Because of reason ${k}.`,
      back: "",
    });
  }
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
console.log(
  `${QUESTIONS} questions, ${IMAGES} images; Node ${process.version}; load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}`,
);
let last: Uint8Array | null = null;
for (let run = 1; run <= RUNS; run++) {
  const t0 = performance.now();
  const bytes = await writeAnkiPackage(items, media, { loadSqlite, now: Date.now() });
  const t1 = performance.now();
  const pkg = await readAnkiPackage(bytes, { loadSqlite });
  const t2 = performance.now();
  if (pkg.notes.length !== QUESTIONS) throw new Error(`read back ${pkg.notes.length} notes`);
  console.log(
    `run ${run}: write ${((t1 - t0) / 1000).toFixed(2)} s (${mb(bytes.length)}), read back ${((t2 - t1) / 1000).toFixed(2)} s`,
  );
  last = bytes;
}
console.log(`peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
if (args.write && last) fs.writeFileSync(args.write, last);
