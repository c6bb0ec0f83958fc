/**
 * Duplicate detection benchmark (issue 5): 2,000 incoming questions against 50,000 existing ones the
 * importer can see, through `checkDuplicates` — the service behind imports.checkDuplicates — and the
 * all-pairs reference of src/core/similarity timed on a sample of the same incoming set and
 * extrapolated. Goals: service ≤ 5 s on PostgreSQL, ≥ 50× faster than the reference.
 *
 *   npx tsx bench/duplicates-bench.ts [--url postgres://…] [--existing 50000] [--incoming 2000]
 *                                     [--sample 20] [--runs 3] [--pglite] [--fresh] [--no-record]
 *
 * Texts come from a word-level Markov chain trained on the MIR/MedMCQA fixture
 * (fixtures/real/mir_medmcqa_style_test-en.csv; a built-in vocabulary if it is missing), so
 * lengths and trigram statistics look like a real bank. 10% of the incoming questions have a
 * near-duplicate (a few small edits) among the existing ones. Besides the 50,000 visible questions
 * (10,000 own, 40,000 public of 50 other users), 5,000 private questions of other users are stored and
 * must never match. The PostgreSQL database `prite_bench_duplicates` is seeded once and reused unless
 * --fresh; --pglite also runs the same data on an in-memory PGlite.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { count, eq, or, sql } from "drizzle-orm";
import postgres from "postgres";
import { parseCsv } from "../src/core/import/csv";
import type { TBulkQuestionItem } from "../src/core/schemas";
import { findDuplicatesReference } from "../src/core/similarity";
import { createDb, type Db, type DbHandle } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import { queryRows } from "../src/server/db/raw";
import { questions, users, type NewQuestionRow } from "../src/server/db/schema";
import { checkDuplicates } from "../src/server/features/imports/imports.service";
import {
  bankRow,
  createRng,
  generateQuestion,
  markovModel,
  nearDuplicate,
  vocabularyModel,
  VIGNETTE_WORDS,
  type GenerateOptions,
  type TextModel,
} from "../src/server/features/imports/synthetic-bank";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const DB_NAME = "prite_bench_duplicates";
const GOAL_SECONDS = 5;
const GOAL_SPEEDUP = 50;
const SEED = 20_240_501;

const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    existing: { type: "string", default: "50000" },
    incoming: { type: "string", default: "2000" },
    sample: { type: "string", default: "20" },
    runs: { type: "string", default: "3" },
    pglite: { type: "boolean", default: false },
    fresh: { type: "boolean", default: false },
    "no-record": { type: "boolean", default: false },
  },
});

const baseUrl =
  args.url ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const EXISTING = Number(args.existing);
const INCOMING = Number(args.incoming);
const SAMPLE = Number(args.sample);
const RUNS = Math.max(1, Number(args.runs));
const OWN_SHARE = 0.2;
const PRIVATE_OTHERS = Math.round(EXISTING * 0.1);
const NEAR_DUPLICATE_SHARE = 0.1;
const OTHER_USERS = 50;

function dbUrl(name: string): string {
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

function loadModel(): { model: TextModel; source: string } {
  const file = path.join(ROOT, "fixtures", "real", "mir_medmcqa_style_test-en.csv");
  if (!fs.existsSync(file))
    return { model: vocabularyModel(VIGNETTE_WORDS), source: "built-in vocabulary" };
  const rows = parseCsv(fs.readFileSync(file, "utf8"));
  const header = rows[0] ?? [];
  const cols = ["question", "opa", "opb", "opc", "opd", "exp"].map((c) => header.indexOf(c));
  const texts = rows.slice(1).flatMap((r) => cols.map((c) => (c >= 0 ? (r[c] ?? "") : "")));
  return {
    model: markovModel(texts.filter((t) => t.trim() !== "")),
    source: "Markov chain on the MIR/MedMCQA fixture",
  };
}

/** The whole data set, deterministic for the seed: incoming questions and the existing bank. */
function generateData(model: TextModel) {
  const rng = createRng(SEED);
  const opts: GenerateOptions = {
    model,
    // Lengths like the fixture's vignettes (about 60 words, 2-12 per option).
    textWords: [12, 110],
    optionWords: [1, 12],
    years: [2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024],
    numbers: [1, 150],
    explanationShare: 0.3,
  };
  const incoming = Array.from({ length: INCOMING }, () => generateQuestion(rng, opts));
  const nearCount = Math.round(INCOMING * NEAR_DUPLICATE_SHARE);
  const existing: TBulkQuestionItem[] = incoming
    .slice(0, nearCount)
    .map((q) => nearDuplicate(q, rng, opts));
  while (existing.length < EXISTING + PRIVATE_OTHERS) existing.push(generateQuestion(rng, opts));
  // Shuffle so near-duplicates are spread over owners.
  for (let i = existing.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [existing[i], existing[j]] = [existing[j]!, existing[i]!];
  }
  return { incoming, existing };
}

async function seed(
  db: Db,
  existing: TBulkQuestionItem[],
): Promise<{ importerId: string; seconds: number }> {
  const started = performance.now();
  const now = Date.now();
  const userRows = Array.from({ length: OTHER_USERS + 1 }, (_, i) => ({
    username: i === 0 ? "bench_importer" : `bench_other_${i}`,
    email: i === 0 ? "bench_importer@bench.test" : `bench_other_${i}@bench.test`,
    passwordHash: "x",
    pgyLevel: "3",
  }));
  const inserted = await db.insert(users).values(userRows).returning({ id: users.id });
  const importerId = inserted[0]!.id;
  const others = inserted.slice(1).map((u) => u.id);
  const ownCount = Math.round(EXISTING * OWN_SHARE);
  const rows: NewQuestionRow[] = existing.map((q, i) => {
    const own = i < ownCount;
    const isPrivateOther = i >= EXISTING;
    return {
      ...bankRow(
        q,
        own ? importerId : others[i % others.length]!,
        !own && !isPrivateOther,
        new Date(now - (existing.length - i) * 1000),
      ),
      updatedAt: new Date(now),
    };
  });
  for (let start = 0; start < rows.length; start += 1000) {
    await db.insert(questions).values(rows.slice(start, start + 1000));
  }
  await db.execute(sql`analyze questions`);
  return { importerId, seconds: (performance.now() - started) / 1000 };
}

async function preparePostgres(existing: TBulkQuestionItem[]) {
  const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
  try {
    if (args.fresh) await admin.unsafe(`drop database if exists "${DB_NAME}" with (force)`);
    const exists = await admin`select 1 from pg_database where datname = ${DB_NAME}`;
    if (exists.length === 0) await admin.unsafe(`create database "${DB_NAME}"`);
  } finally {
    await admin.end();
  }
  const handle = await createDb({ databaseUrl: dbUrl(DB_NAME), maxConnections: 4 });
  await runMigrations(handle);
  const [importer] = await handle.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.username, "bench_importer"));
  const [stored] = await handle.db.select({ n: count() }).from(questions);
  if (importer && stored?.n === existing.length) {
    return { handle, importerId: importer.id, seedSeconds: null as number | null };
  }
  if (importer) throw new Error(`${DB_NAME} holds other data: run with --fresh`);
  const seeded = await seed(handle.db, existing);
  return { handle, importerId: seeded.importerId, seedSeconds: seeded.seconds as number | null };
}

interface RunFigures {
  engine: string;
  version: string;
  seedSeconds: number | null;
  times: number[];
  flagged: number;
  matched: number;
  nearFound: number;
}

async function timeService(
  handle: DbHandle,
  importerId: string,
  incoming: TBulkQuestionItem[],
  seedSeconds: number | null,
): Promise<RunFigures & { results: Awaited<ReturnType<typeof checkDuplicates>> }> {
  const [version] = await queryRows<{ server_version: string }>(
    handle.db,
    sql`show server_version`,
  );
  const times: number[] = [];
  let results: Awaited<ReturnType<typeof checkDuplicates>> | undefined;
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    results = await checkDuplicates(handle.db, importerId, { questions: incoming });
    times.push((performance.now() - t0) / 1000);
    console.log(`  ${handle.kind} run ${r + 1}: ${times[r]!.toFixed(2)} s`);
  }
  const res = results!.results;
  const nearCount = Math.round(INCOMING * NEAR_DUPLICATE_SHARE);
  return {
    engine: handle.kind,
    version: version?.server_version ?? "?",
    seedSeconds,
    times,
    flagged: res.filter((r) => r.isDuplicate).length,
    matched: res.filter((r) => r.matches.length > 0).length,
    nearFound: res.slice(0, nearCount).filter((r) => r.isDuplicate).length,
    results: results!,
  };
}

async function main() {
  const { model, source } = loadModel();
  const { incoming, existing } = generateData(model);
  console.log(
    `Generated ${incoming.length} incoming and ${existing.length} stored questions (${source})`,
  );

  const pg = await preparePostgres(existing);
  const runs: RunFigures[] = [];
  let sampleCheck = "";
  let referenceSeconds = 0;
  try {
    if (pg.seedSeconds !== null) console.log(`Seeded PostgreSQL in ${pg.seedSeconds.toFixed(1)} s`);
    const pgRun = await timeService(pg.handle, pg.importerId, incoming, pg.seedSeconds);
    runs.push(pgRun);

    // The all-pairs reference on a sample of the same incoming set, against everything visible.
    const visible = await pg.handle.db
      .select({
        id: questions.id,
        text: questions.text,
        options: questions.options,
        part: questions.part,
        year: questions.year,
        number: questions.number,
        createdAt: questions.createdAt,
        creatorId: questions.creatorId,
      })
      .from(questions)
      .where(or(eq(questions.creatorId, pg.importerId), eq(questions.isPublic, true)));
    // Half the sample from the near-duplicated head of the incoming list, half from the rest.
    const sampleIdx = [
      ...Array.from({ length: Math.ceil(SAMPLE / 2) }, (_, k) => k),
      ...Array.from({ length: Math.floor(SAMPLE / 2) }, (_, k) => INCOMING - 1 - k),
    ];
    const sample = sampleIdx.map((i) => incoming[i]!);
    const t0 = performance.now();
    const reference = findDuplicatesReference(sample, visible);
    referenceSeconds = (performance.now() - t0) / 1000;
    let agree = 0;
    sampleIdx.forEach((i, k) => {
      const ref = reference[k]!;
      const got = pgRun.results.results[i]!;
      const same =
        ref.isDuplicate === got.isDuplicate &&
        (!ref.isDuplicate || ref.matches[0]?.question.id === got.matches[0]?.question._id);
      if (same) agree++;
    });
    sampleCheck = `${agree}/${sampleIdx.length} sampled questions agree with the reference (flag and best match)`;
    console.log(
      `Reference: ${SAMPLE} × ${visible.length} in ${referenceSeconds.toFixed(2)} s; ${sampleCheck}`,
    );
  } finally {
    await pg.handle.close();
  }

  if (args.pglite) {
    const handle = await createDb({ memory: true });
    try {
      await runMigrations(handle);
      const seeded = await seed(handle.db, existing);
      console.log(`Seeded PGlite in ${seeded.seconds.toFixed(1)} s`);
      runs.push(await timeService(handle, seeded.importerId, incoming, seeded.seconds));
    } finally {
      await handle.close();
    }
  }

  const extrapolated = referenceSeconds * (INCOMING / SAMPLE);
  const cpus = os.cpus();
  const machine = `${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, ${os.platform()} ${os.release()}, Node ${process.version}`;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  // Judged on the first run: it fetches the bank and builds the index, as an import's first batch does.
  const pgCold = runs[0]!.times[0]!;
  const speedup = extrapolated / pgCold;
  const lines = [
    `## Duplicate detection (bench/duplicates-bench.ts) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `- Machine: ${machine}`,
    `- Data: ${INCOMING.toLocaleString("en-US")} incoming against ${EXISTING.toLocaleString("en-US")} visible questions (${Math.round(EXISTING * OWN_SHARE).toLocaleString("en-US")} own, the rest public of ${OTHER_USERS} users) plus ${PRIVATE_OTHERS.toLocaleString("en-US")} private questions of others; ${source}; ${Math.round(INCOMING * NEAR_DUPLICATE_SHARE)} incoming have a near-duplicate stored`,
    `- Method: \`checkDuplicates\` (exact bigram index over the visible bank, docs/decisions/051-exact-duplicate-index.md), ${RUNS} runs — the first builds the index, later ones reuse it while the bank is unchanged; the all-pairs reference \`findDuplicatesReference\` on ${SAMPLE} of the same incoming × all visible, extrapolated ×${INCOMING / SAMPLE}`,
    ...runs.map((r) => {
      const cold = r.times[0]!;
      const warm = r.times.slice(1);
      const goal =
        r.engine === "postgres"
          ? ` — goal ≤ ${GOAL_SECONDS} s ${cold <= GOAL_SECONDS ? "met" : "NOT met"}`
          : "";
      return (
        `- **${r.engine === "postgres" ? "PostgreSQL" : "PGlite"} ${r.version}: ${cold.toFixed(2)} s with the index built${goal}**${warm.length > 0 ? `; with the index reused ${warm.map((t) => `${t.toFixed(2)} s`).join(", ")} (median ${median(warm).toFixed(2)} s)` : ""}; ${r.flagged} flagged, ${r.matched} with matches, ${r.nearFound}/${Math.round(INCOMING * NEAR_DUPLICATE_SHARE)} planted near-duplicates flagged` +
        (r.seedSeconds !== null ? `; seeded in ${r.seedSeconds.toFixed(1)} s` : "")
      );
    }),
    `- **Reference: ${referenceSeconds.toFixed(2)} s for ${SAMPLE} incoming → ${(extrapolated / 60).toFixed(1)} min for ${INCOMING.toLocaleString("en-US")}; speed-up ${speedup.toFixed(0)}× over the first run — goal ≥ ${GOAL_SPEEDUP}× ${speedup >= GOAL_SPEEDUP ? "met" : "NOT met"}**`,
    `- Check: ${sampleCheck}`,
    "",
  ];
  const report = lines.join("\n");
  console.log(report);
  if (!args["no-record"]) {
    const file = path.join(ROOT, "bench", "RESULTS.md");
    const prefix = fs.existsSync(file) ? "\n" : "# Benchmark results\n\n";
    fs.appendFileSync(file, prefix + report);
    console.log(`Appended to ${file}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
