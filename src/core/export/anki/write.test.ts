// Runs in Node only: node:crypto checks the checksums with an implementation other than the writer's.
/* eslint-disable no-restricted-imports */
import { createHash } from "node:crypto";
/* eslint-enable no-restricted-imports */
import { unzipSync } from "fflate";
import initSqlJs, { type SqlValue } from "sql.js";
import { describe, expect, it } from "vitest";
import { convertAnkiPackage } from "../../import/anki/convert";
import { readAnkiPackage, sqlJsLoader } from "../../import/anki/read";
import {
  ankiMediaName,
  BASIC_FIELDS,
  DEFAULT_ANKI_DECK,
  MCQ_FIELDS,
  noteGuid,
  writeAnkiPackage,
  type AnkiExportItem,
  type AnkiExportMedia,
} from "./write";

const loadSqlite = sqlJsLoader();
const NOW = Date.UTC(2026, 10, 25, 21, 0, 0);

function hashOf(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 7, 8, 9]);
const MEDIA: AnkiExportMedia[] = [
  { sha256: hashOf(PNG), mimeType: "image/png", bytes: PNG },
  { sha256: hashOf(JPEG), mimeType: "image/jpeg", bytes: JPEG },
];

function item(over: Partial<AnkiExportItem> & Pick<AnkiExportItem, "id" | "kind">): AnkiExportItem {
  return {
    text: "",
    options: {},
    correctAnswers: [],
    explanation: "",
    back: "",
    category: "",
    source: "",
    part: "1",
    year: 2024,
    images: [],
    createdAt: Date.UTC(2025, 0, 1),
    updatedAt: Date.UTC(2025, 0, 2),
    ...over,
  };
}

const BANK: AnkiExportItem[] = [
  item({
    id: "11111111-1111-4111-8111-111111111111",
    kind: "multipleChoice",
    text: "A 34-year-old man on lithium presents with a coarse tremor.\nWhich level is <1.5 & toxic?",
    options: {
      A: "0.4 mmol/L",
      B: "0.8 mmol/L",
      C: "1.0 mmol/L",
      D: "1.2 mmol/L",
      E: "2.5 mmol/L",
    },
    correctAnswers: ["E"],
    explanation: "Levels above 1.5 mmol/L are toxic.\nCheck renal function.",
    category: "Psychopharmacology",
    images: [MEDIA[0]!.sha256],
  }),
  item({
    id: "22222222-2222-4222-8222-222222222222",
    kind: "multipleChoice",
    text: "Which disorder is treated first with exposure and response prevention?",
    options: { A: "OCD", B: "PTSD", C: "Panic disorder", D: "Bipolar I" },
    correctAnswers: ["A"],
    explanation: "",
    category: "Obsessive-Compulsive Disorders",
    part: "2",
    year: 2023,
    createdAt: Date.UTC(2025, 0, 1),
  }),
  item({
    id: "33333333-3333-4333-8333-333333333333",
    kind: "flashcard",
    text: `<b>Clozapine</b>: the blood test<br><img src="${MEDIA[1]!.sha256}">`,
    back: "<ul><li>Absolute neutrophil count</li><li>weekly for 6 months</li></ul>",
    category: "Schizophrenia Spectrum",
    source: "Psych::Pharmacology",
    images: [MEDIA[1]!.sha256],
  }),
  item({
    id: "44444444-4444-4444-8444-444444444444",
    kind: "flashcard",
    text: "H<sub>2</sub>O &amp; Ca<sup>2+</sup>",
    back: "<i>water</i> and calcium",
    category: "",
  }),
];

/** The names in the package's HTML back to the bare hashes the bank stores. */
const toHashes = (html: string): string =>
  html.replace(/src="([0-9a-f]{64})\.(?:png|jpg)"/g, 'src="$1"');

describe("writeAnkiPackage: read back with the app's own Anki reader", () => {
  it("gives back the same multiple-choice questions, flashcards, images and categories", async () => {
    const bytes = await writeAnkiPackage(BANK, MEDIA, { loadSqlite, now: NOW });
    const pkg = await readAnkiPackage(bytes, { loadSqlite });
    expect(pkg.format).toBe("anki2");
    const result = convertAnkiPackage(pkg, { part: "1", year: 2024 });
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);

    expect(result.questions).toHaveLength(2);
    const [first, second] = result.questions;
    expect(first).toMatchObject({
      text: BANK[0]!.text,
      options: BANK[0]!.options,
      correctAnswer: "E",
      explanation: BANK[0]!.explanation,
      category: "Psychopharmacology",
      source: DEFAULT_ANKI_DECK,
      images: [ankiMediaName(MEDIA[0]!.sha256, "image/png")],
    });
    expect(first!.tags).toEqual(["Psychopharmacology", "PRITE::Part_1", "PRITE::Year_2024"]);
    expect(second).toMatchObject({
      text: BANK[1]!.text,
      options: { ...BANK[1]!.options, E: "" },
      correctAnswer: "A",
      explanation: "",
      category: "Obsessive-Compulsive Disorders",
      images: [],
    });
    expect(second!.tags).toContain("Obsessive-Compulsive_Disorders");

    expect(result.flashcards).toHaveLength(2);
    const [clozapine, water] = result.flashcards;
    expect(toHashes(clozapine!.front)).toBe(BANK[2]!.text);
    expect(clozapine!.back).toBe(BANK[2]!.back);
    expect(clozapine).toMatchObject({
      category: "Schizophrenia Spectrum",
      source: "Psych::Pharmacology",
      images: [ankiMediaName(MEDIA[1]!.sha256, "image/jpeg")],
    });
    expect(water!.front).toBe(BANK[3]!.text);
    expect(water!.back).toBe(BANK[3]!.back);
    expect(water!.category).toBe("");

    // Images come back byte for byte, under the names the notes use.
    for (const m of MEDIA) {
      expect(pkg.media.get(ankiMediaName(m.sha256, m.mimeType))).toEqual(m.bytes);
    }
  });

  it("keeps a second export's notes the same notes (stable guids) and leaves unused media out", async () => {
    const a = await writeAnkiPackage(BANK, MEDIA, { loadSqlite, now: NOW });
    const b = await writeAnkiPackage([...BANK].reverse(), MEDIA, { loadSqlite, now: NOW + 5000 });
    const guids = async (bytes: Uint8Array) =>
      (await collection(bytes)).exec("SELECT guid FROM notes ORDER BY guid")[0]!.values.flat();
    expect(await guids(a)).toEqual(await guids(b));
    expect(new Set(await guids(a)).size).toBe(BANK.length);
    expect(noteGuid(BANK[0]!.id)).not.toBe(noteGuid(BANK[1]!.id));

    const onlyText = await writeAnkiPackage([BANK[1]!], MEDIA, { loadSqlite, now: NOW });
    const files = unzipSync(onlyText);
    expect(Object.keys(files).sort()).toEqual(["collection.anki2", "media"]);
    expect(JSON.parse(new TextDecoder().decode(files.media))).toEqual({});
  });
});

// rslib/src/storage/schema11.sql: the tables and columns of a legacy Anki collection.
const ANKI_SCHEMA_11: Record<string, string[]> = {
  col: [
    "id",
    "crt",
    "mod",
    "scm",
    "ver",
    "dty",
    "usn",
    "ls",
    "conf",
    "models",
    "decks",
    "dconf",
    "tags",
  ],
  notes: ["id", "guid", "mid", "mod", "usn", "tags", "flds", "sfld", "csum", "flags", "data"],
  cards: [
    "id",
    "nid",
    "did",
    "ord",
    "mod",
    "usn",
    "type",
    "queue",
    "due",
    "ivl",
    "factor",
    "reps",
    "lapses",
    "left",
    "odue",
    "odid",
    "flags",
    "data",
  ],
  revlog: ["id", "cid", "usn", "ease", "ivl", "lastIvl", "factor", "time", "type"],
  graves: ["usn", "oid", "type"],
};

async function collection(apkg: Uint8Array) {
  const files = unzipSync(apkg);
  const SQL = await initSqlJs();
  return new SQL.Database(files["collection.anki2"]);
}

const rows = (db: Awaited<ReturnType<typeof collection>>, sql: string): SqlValue[][] =>
  db.exec(sql)[0]?.values ?? [];

describe("writeAnkiPackage: the collection is Anki's schema 11", () => {
  it("has exactly Anki's tables and columns, version 11, and JSON Anki can parse", async () => {
    const db = await collection(await writeAnkiPackage(BANK, MEDIA, { loadSqlite, now: NOW }));
    const tables = rows(
      db,
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    ).flat();
    expect(tables).toEqual(Object.keys(ANKI_SCHEMA_11).sort());
    for (const [table, columns] of Object.entries(ANKI_SCHEMA_11)) {
      expect(rows(db, `PRAGMA table_info(${table})`).map((r) => r[1])).toEqual(columns);
    }
    const indexes = rows(db, "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name");
    expect(indexes.flat()).toEqual([
      "ix_cards_nid",
      "ix_cards_sched",
      "ix_cards_usn",
      "ix_notes_csum",
      "ix_notes_usn",
      "ix_revlog_cid",
      "ix_revlog_usn",
    ]);
    const [col] = rows(db, "SELECT ver, crt, models, decks, dconf, conf, tags FROM col");
    expect(col![0]).toBe(11);
    expect(Number(col![1]) % 86_400).toBe(0);
    const models = JSON.parse(String(col![2])) as Record<string, Record<string, unknown>>;
    const byName = new Map(Object.values(models).map((m) => [m.name, m]));
    const mcq = byName.get("PRITE MCQ")!;
    const basic = byName.get("Basic")!;
    expect((mcq.flds as Array<{ name: string }>).map((f) => f.name)).toEqual([...MCQ_FIELDS]);
    expect((basic.flds as Array<{ name: string }>).map((f) => f.name)).toEqual([...BASIC_FIELDS]);
    // The keys Anki's NotetypeSchema11 requires, field and template keys included.
    for (const m of [mcq, basic]) {
      for (const key of [
        "id",
        "name",
        "type",
        "mod",
        "usn",
        "sortf",
        "did",
        "tmpls",
        "flds",
        "css",
      ])
        expect(m).toHaveProperty(key);
      expect(String(models[String(m.id)]?.name)).toBe(m.name);
      for (const f of m.flds as object[])
        for (const key of ["name", "ord", "sticky", "rtl", "font", "size"])
          expect(f).toHaveProperty(key);
      for (const t of m.tmpls as object[])
        for (const key of ["name", "ord", "qfmt", "afmt"]) expect(t).toHaveProperty(key);
    }
    const front = String((mcq.tmpls as Array<{ qfmt: string }>)[0]!.qfmt);
    for (const letter of ["A", "B", "C", "D", "E"]) expect(front).toContain(`{{${letter}}}`);
    const back = String((mcq.tmpls as Array<{ afmt: string }>)[0]!.afmt);
    expect(back).toContain("{{Answer}}");
    expect(back).toContain("{{Explanation}}");

    const decks = JSON.parse(String(col![3])) as Record<string, { name: string; conf: number }>;
    const names = Object.values(decks)
      .map((d) => d.name)
      .sort();
    expect(names).toEqual(["Default", DEFAULT_ANKI_DECK, "Psych", "Psych::Pharmacology"]);
    for (const d of Object.values(decks)) {
      for (const key of [
        "id",
        "usn",
        "lrnToday",
        "revToday",
        "newToday",
        "timeToday",
        "collapsed",
        "dyn",
      ])
        expect(d).toHaveProperty(key);
      expect(String(JSON.parse(String(col![4]))[String(d.conf)]?.id)).toBe(String(d.conf));
    }
    expect(Object.keys(JSON.parse(String(col![6])) as object)).toContain("Schizophrenia_Spectrum");
  });

  it("writes each note with its note type's field count, sort field, checksum and one card per template", async () => {
    const db = await collection(await writeAnkiPackage(BANK, MEDIA, { loadSqlite, now: NOW }));
    const models = JSON.parse(String(rows(db, "SELECT models FROM col")[0]![0])) as Record<
      string,
      { flds: unknown[]; tmpls: unknown[]; name: string }
    >;
    const notes = rows(db, "SELECT id, mid, flds, sfld, csum, tags, guid FROM notes ORDER BY id");
    expect(notes).toHaveLength(BANK.length);
    for (const [id, mid, flds, sfld, csum, tags] of notes) {
      const model = models[String(mid)]!;
      const fields = String(flds).split("\x1f");
      expect(fields).toHaveLength(model.flds.length);
      const stripped = fields[0]!
        .replace(/<img src="([^"]+)">/g, " $1 ")
        .replace(/<[^<>]+>/g, "")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&")
        .trim();
      expect(String(sfld)).toBe(stripped);
      const sha1 = createHash("sha1").update(stripped, "utf8").digest("hex");
      expect(csum).toBe(parseInt(sha1.slice(0, 8), 16));
      expect(String(tags) === "" || /^ \S+( \S+)* $/.test(String(tags))).toBe(true);
      const cards = rows(db, `SELECT ord, type, queue, did FROM cards WHERE nid = ${Number(id)}`);
      expect(cards).toHaveLength(model.tmpls.length);
      expect(cards[0]!.slice(0, 3)).toEqual([0, 0, 0]);
    }
    expect(String(notes[0]![2]).split("\x1f")[6]).toBe("E");
  });

  it("keeps a field separator typed into a question from shifting the fields", async () => {
    const odd = item({
      id: "55555555-5555-4555-8555-555555555555",
      kind: "multipleChoice",
      text: "Stem with a \x1f separator",
      options: { A: "one\x1ftwo", B: "three" },
      correctAnswers: ["B"],
    });
    const pkg = await readAnkiPackage(await writeAnkiPackage([odd], [], { loadSqlite, now: NOW }), {
      loadSqlite,
    });
    expect(pkg.notes[0]!.fields).toHaveLength(MCQ_FIELDS.length);
    const [q] = convertAnkiPackage(pkg, { part: "1", year: 2024 }).questions;
    expect(q).toMatchObject({
      text: "Stem with a separator",
      options: { A: "one two", B: "three" },
      correctAnswer: "B",
    });
  });
});
