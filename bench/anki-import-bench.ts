/**
 * `prite import deck.apkg` benchmark (issue 17 §6): the generated 20,000-note anki21b deck with 200
 * images (bench/anki-deck.ts: a third multiple choice, a third Basic with an image, a third cloze with
 * two numbers: 26,667 questions) imported through the CLI's own function (runImport: read → convert →
 * imports.checkDuplicates in batches → images uploaded → one imports.commit) by a user who sees the
 * 50,000-question synthetic bank (20% own, the rest public of 50 users). Goals: ≤ 30 s on PGlite,
 * ≤ 20 s on PostgreSQL; peak RSS recorded.
 *
 *   npx tsx bench/anki-import-bench.ts [--url postgres://…] [--notes 20000] [--images 200]
 *                                      [--existing 50000] [--skip-pglite] [--skip-postgres] [--no-record]
 *
 * Each engine runs in its own process (peak RSS is per process): the script starts itself once per
 * engine with --engine. The PostgreSQL database `prite_bench_anki_<existing>` is seeded once and reused;
 * the imported questions are deleted after each run.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { and, count, eq, gte, sql } from "drizzle-orm";
import postgres from "postgres";
import { runImport, type Progress } from "../cli/commands/import";
import { apiFromCaller } from "../cli/runtime";
import { createDb, type DbHandle } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import { questions, users, type UserRow } from "../src/server/db/schema";
import {
  bankRow,
  createRng,
  generateQuestion,
  type GenerateOptions,
  vocabularyModel,
  VIGNETTE_WORDS,
} from "../src/server/features/imports/synthetic-bank";
import { createContextInner } from "../src/server/trpc/context";
import { createCaller } from "../src/server/trpc/router";
import { benchDeck } from "./anki-deck";
import { IMPORT_QUESTION_SHAPE } from "./import-bench-data";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const OTHER_USERS = 50;
const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    notes: { type: "string", default: "20000" },
    images: { type: "string", default: "200" },
    existing: { type: "string", default: "50000" },
    engine: { type: "string" },
    deck: { type: "string" },
    "skip-pglite": { type: "boolean", default: false },
    "skip-postgres": { type: "boolean", default: false },
    "no-record": { type: "boolean", default: false },
  },
});
const baseUrl =
  args.url ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const EXISTING = Number(args.existing);
const DB_NAME = `prite_bench_anki_${EXISTING}`;
const dbUrl = (name: string) => {
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return u.toString();
};

async function importer(handle: DbHandle): Promise<UserRow> {
  await runMigrations(handle);
  const [found] = await handle.db
    .select()
    .from(users)
    .where(eq(users.username, "bench_anki_importer"));
  const [stored] = await handle.db.select({ n: count() }).from(questions);
  if (found && Number(stored?.n) === EXISTING) return found;
  if (found) throw new Error(`${DB_NAME} holds other data: drop it first`);
  const inserted = await handle.db
    .insert(users)
    .values(
      Array.from({ length: OTHER_USERS + 1 }, (_, i) => ({
        username: i === 0 ? "bench_anki_importer" : `bench_anki_other_${i}`,
        email: `bench_anki_${i}@bench.test`,
        passwordHash: "x",
        pgyLevel: "3",
      })),
    )
    .returning();
  const rng = createRng(20_261_125);
  const opts: GenerateOptions = {
    model: vocabularyModel(VIGNETTE_WORDS),
    ...IMPORT_QUESTION_SHAPE,
  };
  const now = Date.now() - 86_400_000;
  const rows = Array.from({ length: EXISTING }, (_, i) => {
    const own = i % 5 === 0;
    return bankRow(
      generateQuestion(rng, opts),
      own ? inserted[0]!.id : inserted[1 + (i % OTHER_USERS)]!.id,
      !own,
      new Date(now - (EXISTING - i) * 1000),
    );
  });
  for (let start = 0; start < rows.length; start += 1000) {
    await handle.db.insert(questions).values(rows.slice(start, start + 1000));
  }
  await handle.db.execute(sql`analyze questions`);
  return inserted[0]!;
}

/** One engine, in this process: prints one JSON line of figures. */
async function runEngine(engine: string, deckFile: string): Promise<void> {
  let handle: DbHandle;
  if (engine === "pglite") handle = await createDb({ memory: true });
  else {
    const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
    const exists = await admin`select 1 from pg_database where datname = ${DB_NAME}`;
    if (exists.length === 0) await admin.unsafe(`create database "${DB_NAME}"`);
    await admin.end();
    handle = await createDb({ databaseUrl: dbUrl(DB_NAME), maxConnections: 4 });
  }
  try {
    const user = await importer(handle);
    if (engine !== "pglite") await handle.db.execute(sql`vacuum (analyze) questions`);
    const api = apiFromCaller(
      createCaller(
        createContextInner({
          db: handle.db,
          user,
          session: {
            id: "bench",
            userId: user.id,
            expiresAt: new Date(Date.now() + 86_400_000),
            createdAt: new Date(),
          },
        }),
      ),
    );
    const marks: Record<string, number> = {};
    const progress: Progress = {
      update(label) {
        if (!(label in marks)) marks[label] = performance.now();
      },
      done() {},
    };
    const runStart = new Date();
    const started = performance.now();
    try {
      const s = await runImport(
        api,
        [deckFile],
        { part: "1", year: "2024", onDuplicate: "skip", keepProgress: true },
        progress,
      );
      const end = performance.now();
      const at = (label: string) => ((marks[label] ?? end) - started) / 1000;
      console.log(
        JSON.stringify({
          seconds: (end - started) / 1000,
          phases: `read and convert ${at("Checking for duplicates").toFixed(1)} s, duplicate check until ${at("Uploading images").toFixed(1)} s, images until ${at("Saving").toFixed(1)} s, commit until ${((end - started) / 1000).toFixed(1)} s`,
          summary: `${s.deck?.multipleChoice} multiple choice, ${s.deck?.flashcards} flashcards, ${s.deck?.images} images; total ${s.total}, duplicates ${s.duplicates}, imported ${s.imported}`,
          peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
        }),
      );
    } finally {
      await handle.db
        .delete(questions)
        .where(and(eq(questions.creatorId, user.id), gte(questions.createdAt, runStart)));
    }
  } finally {
    await handle.close();
  }
}

async function main(): Promise<void> {
  if (args.engine) return runEngine(args.engine, args.deck!);
  const deckFile = path.join(os.tmpdir(), `prite-anki-bench-${args.notes}-${args.images}.apkg`);
  fs.writeFileSync(deckFile, await benchDeck(Number(args.notes), Number(args.images)));
  const engines = [
    ...(args["skip-postgres"] ? [] : ([["postgres", "PostgreSQL", 20]] as const)),
    ...(args["skip-pglite"] ? [] : ([["pglite", "PGlite", 30]] as const)),
  ];
  const lines: string[] = [];
  for (const [engine, name, goal] of engines) {
    const child = spawnSync(
      process.execPath,
      [
        ...process.execArgv,
        new URL(import.meta.url).pathname,
        "--engine",
        engine,
        "--deck",
        deckFile,
        "--existing",
        String(EXISTING),
        ...(args.url ? ["--url", args.url] : []),
      ],
      { encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "inherit"] },
    );
    const json = child.stdout.trim().split("\n").pop() ?? "";
    if (child.status !== 0 || !json.startsWith("{")) {
      lines.push(`- **${name}: failed** (exit ${child.status})`);
      continue;
    }
    const f = JSON.parse(json) as {
      seconds: number;
      phases: string;
      summary: string;
      peakRssMb: number;
    };
    lines.push(
      `- **${name}: ${f.seconds.toFixed(1)} s — goal ≤ ${goal} s ${f.seconds <= goal ? "met" : "NOT met"}**, peak RSS ${f.peakRssMb} MB; ${f.phases}; ${f.summary}`,
    );
  }
  const cpus = os.cpus();
  const report = [
    `## Anki import through the CLI (bench/anki-import-bench.ts) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `- Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}; load average ${os.loadavg()[0]!.toFixed(1)} at the end`,
    `- Data: a generated ${Number(args.notes).toLocaleString("en-US")}-note anki21b deck with ${args.images} images (${(fs.statSync(deckFile).size / 1e6).toFixed(1)} MB) imported with \`runImport\` (\`prite import deck.apkg --keep-progress\`, --on-duplicate skip) against ${EXISTING.toLocaleString("en-US")} visible questions`,
    ...lines,
    "",
  ].join("\n");
  console.log(report);
  if (!args["no-record"]) fs.appendFileSync(path.join(ROOT, "bench", "RESULTS.md"), `\n${report}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
