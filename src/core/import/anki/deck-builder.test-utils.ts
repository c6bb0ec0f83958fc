/**
 * Builds Anki packages for tests, in each collection format Anki has written, with sql.js (the
 * same SQLite the reader uses), a real zstd encoder (@hpcc-js/wasm-zstd, a dev dependency: WASM,
 * runs on Node 20) and the test ZIP writer. The schemas follow Anki's: schema 11 keeps note types
 * and decks as JSON in `col`; schema 18 has tables with protobuf configs and `unicase` collations.
 */
import { Zstd } from "@hpcc-js/wasm-zstd";
import initSqlJs, { type Database, type SqlValue } from "sql.js";
// eslint-disable-next-line no-restricted-imports
import { buildZip, type EntrySpec } from "../../../server/test/zip";
import { encodeProto } from "./protobuf";

export interface TestNoteType {
  id: number;
  name: string;
  kind?: "normal" | "cloze";
  fields: string[];
  templates: Array<{ name: string; front: string; back: string }>;
}

export interface TestCard {
  ord: number;
  deckId?: number;
  type?: number;
  queue?: number;
  due?: number;
  ivl?: number;
  factor?: number;
  reps?: number;
  lapses?: number;
}

export interface TestNote {
  id: number;
  noteTypeId: number;
  fields: string[];
  tags?: string;
  /** Defaults to one new card per template (normal) or per cloze number found (cloze). */
  cards?: TestCard[];
}

export interface TestDeck {
  noteTypes: TestNoteType[];
  notes: TestNote[];
  /** id → name ('Parent::Child'); deck 1 'Default' is always there. */
  decks?: Record<number, string>;
  createdAt?: number;
}

export const BASIC: TestNoteType = {
  id: 1000,
  name: "Basic",
  fields: ["Front", "Back"],
  templates: [
    { name: "Card 1", front: "{{Front}}", back: "{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}" },
  ],
};

export const BASIC_REVERSED: TestNoteType = {
  id: 1001,
  name: "Basic (and reversed card)",
  fields: ["Front", "Back"],
  templates: [
    { name: "Card 1", front: "{{Front}}", back: "{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}" },
    { name: "Card 2", front: "{{Back}}", back: "{{FrontSide}}\n\n<hr id=answer>\n\n{{Front}}" },
  ],
};

export const TYPE_IN: TestNoteType = {
  id: 1002,
  name: "Basic (type in the answer)",
  fields: ["Front", "Back"],
  templates: [
    {
      name: "Card 1",
      front: "{{Front}}\n\n{{type:Back}}",
      back: "{{Front}}\n\n<hr id=answer>\n\n{{type:Back}}",
    },
  ],
};

export const CLOZE: TestNoteType = {
  id: 1003,
  name: "Cloze",
  kind: "cloze",
  fields: ["Text", "Back Extra"],
  templates: [
    { name: "Cloze", front: "{{cloze:Text}}", back: "{{cloze:Text}}<br>\n{{Back Extra}}" },
  ],
};

const sql = initSqlJs();
const zstd = Zstd.load();

export async function zstdCompress(data: Uint8Array): Promise<Uint8Array> {
  return (await zstd).compress(data, 3);
}

function cardsOf(note: TestNote, type: TestNoteType): TestCard[] {
  if (note.cards) return note.cards;
  if (type.kind === "cloze") {
    const numbers = new Set(
      [...note.fields.join("").matchAll(/\{\{c(\d+)::/g)].map((m) => Number(m[1])),
    );
    return [...numbers].sort((a, b) => a - b).map((n) => ({ ord: n - 1 }));
  }
  return type.templates.map((_, ord) => ({ ord }));
}

function insertNotesAndCards(db: Database, deck: TestDeck): void {
  let cardId = 1;
  for (const note of deck.notes) {
    const type = deck.noteTypes.find((t) => t.id === note.noteTypeId);
    if (!type) throw new Error(`no note type ${note.noteTypeId}`);
    db.run(
      "INSERT INTO notes (id, guid, mid, mod, usn, tags, flds, sfld, csum, flags, data) VALUES (?, ?, ?, 0, -1, ?, ?, ?, 0, 0, '')",
      [
        note.id,
        `g${note.id}`,
        note.noteTypeId,
        note.tags ?? "",
        note.fields.join("\x1f"),
        note.fields[0] ?? "",
      ],
    );
    for (const c of cardsOf(note, type)) {
      const values: SqlValue[] = [
        cardId++,
        note.id,
        c.deckId ?? 1,
        c.ord,
        c.type ?? 0,
        c.queue ?? 0,
        c.due ?? note.id,
        c.ivl ?? 0,
        c.factor ?? 0,
        c.reps ?? 0,
        c.lapses ?? 0,
      ];
      db.run(
        "INSERT INTO cards (id, nid, did, ord, mod, usn, type, queue, due, ivl, factor, reps, lapses, left, odue, odid, flags, data) VALUES (?, ?, ?, ?, 0, -1, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0, '')",
        values,
      );
    }
  }
}

const NOTES_AND_CARDS = `
CREATE TABLE notes (id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL, mod integer NOT NULL,
  usn integer NOT NULL, tags text NOT NULL, flds text NOT NULL, sfld integer NOT NULL, csum integer NOT NULL,
  flags integer NOT NULL, data text NOT NULL);
CREATE TABLE cards (id integer PRIMARY KEY, nid integer NOT NULL, did integer NOT NULL, ord integer NOT NULL,
  mod integer NOT NULL, usn integer NOT NULL, type integer NOT NULL, queue integer NOT NULL, due integer NOT NULL,
  ivl integer NOT NULL, factor integer NOT NULL, reps integer NOT NULL, lapses integer NOT NULL,
  left integer NOT NULL, odue integer NOT NULL, odid integer NOT NULL, flags integer NOT NULL, data text NOT NULL);
CREATE TABLE revlog (id integer PRIMARY KEY, cid integer NOT NULL, usn integer NOT NULL, ease integer NOT NULL,
  ivl integer NOT NULL, lastIvl integer NOT NULL, factor integer NOT NULL, time integer NOT NULL, type integer NOT NULL);
CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL);
`;

/** A schema-11 collection (collection.anki2 / collection.anki21): JSON in `col`. */
export async function buildSchema11(deck: TestDeck): Promise<Uint8Array> {
  const db = new (await sql).Database();
  db.run(`CREATE TABLE col (id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL,
    scm integer NOT NULL, ver integer NOT NULL, dty integer NOT NULL, usn integer NOT NULL, ls integer NOT NULL,
    conf text NOT NULL, models text NOT NULL, decks text NOT NULL, dconf text NOT NULL, tags text NOT NULL);
    ${NOTES_AND_CARDS}`);
  const models = Object.fromEntries(
    deck.noteTypes.map((t) => [
      String(t.id),
      {
        id: t.id,
        name: t.name,
        type: t.kind === "cloze" ? 1 : 0,
        flds: t.fields.map((name, ord) => ({ name, ord })),
        tmpls: t.templates.map((tm, ord) => ({
          name: tm.name,
          ord,
          qfmt: tm.front,
          afmt: tm.back,
        })),
      },
    ]),
  );
  const decks = Object.fromEntries(
    Object.entries({ 1: "Default", ...deck.decks }).map(([id, name]) => [
      id,
      { id: Number(id), name },
    ]),
  );
  db.run("INSERT INTO col VALUES (1, ?, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')", [
    deck.createdAt ?? 1_600_000_000,
    JSON.stringify(models),
    JSON.stringify(decks),
  ]);
  insertNotesAndCards(db, deck);
  const bytes = db.export();
  db.close();
  return bytes;
}

/**
 * A schema-18 collection (the SQLite inside collection.anki21b). Anki declares names with its own
 * `unicase` collation, which sql.js does not have: the tables are created with NOCASE and the
 * stored schema is then rewritten to say `unicase`, so the reader meets what Anki writes.
 */
export async function buildSchema18(deck: TestDeck): Promise<Uint8Array> {
  const db = new (await sql).Database();
  db.run(`CREATE TABLE col (id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL,
    scm integer NOT NULL, ver integer NOT NULL, dty integer NOT NULL, usn integer NOT NULL, ls integer NOT NULL,
    conf text NOT NULL, models text NOT NULL, decks text NOT NULL, dconf text NOT NULL, tags text NOT NULL);
    ${NOTES_AND_CARDS}
    CREATE TABLE notetypes (id integer NOT NULL PRIMARY KEY, name text NOT NULL COLLATE NOCASE,
      mtime_secs integer NOT NULL, usn integer NOT NULL, config blob NOT NULL);
    CREATE UNIQUE INDEX idx_notetypes_name ON notetypes (name);
    CREATE TABLE fields (ntid integer NOT NULL, ord integer NOT NULL, name text NOT NULL COLLATE NOCASE,
      config blob NOT NULL, PRIMARY KEY (ntid, ord)) without rowid;
    CREATE UNIQUE INDEX idx_fields_name_ntid ON fields (name, ntid);
    CREATE TABLE templates (ntid integer NOT NULL, ord integer NOT NULL, name text NOT NULL COLLATE NOCASE,
      mtime_secs integer NOT NULL, usn integer NOT NULL, config blob NOT NULL, PRIMARY KEY (ntid, ord)) without rowid;
    CREATE UNIQUE INDEX idx_templates_name_ntid ON templates (name, ntid);
    CREATE TABLE decks (id integer PRIMARY KEY NOT NULL, name text NOT NULL COLLATE NOCASE,
      mtime_secs integer NOT NULL, usn integer NOT NULL, common blob NOT NULL, kind blob NOT NULL);
    CREATE UNIQUE INDEX idx_decks_name ON decks (name);`);
  db.run("INSERT INTO col VALUES (1, ?, 0, 0, 18, 0, 0, 0, '', '', '', '', '')", [
    deck.createdAt ?? 1_600_000_000,
  ]);
  for (const t of deck.noteTypes) {
    // NotetypeConfig: kind = 1 (0 normal, 1 cloze), css = 3.
    const config = encodeProto([
      [1, t.kind === "cloze" ? 1 : 0],
      [3, ".card { color: black; }"],
    ]);
    db.run("INSERT INTO notetypes VALUES (?, ?, 0, 0, ?)", [t.id, t.name, config]);
    t.fields.forEach((name, ord) => {
      db.run("INSERT INTO fields VALUES (?, ?, ?, ?)", [
        t.id,
        ord,
        name,
        encodeProto([[3, "Arial"]]),
      ]);
    });
    t.templates.forEach((tm, ord) => {
      // CardTemplateConfig: q_format = 1, a_format = 2.
      db.run("INSERT INTO templates VALUES (?, ?, ?, 0, 0, ?)", [
        t.id,
        ord,
        tm.name,
        encodeProto([
          [1, tm.front],
          [2, tm.back],
        ]),
      ]);
    });
  }
  for (const [id, name] of Object.entries({ 1: "Default", ...deck.decks })) {
    db.run("INSERT INTO decks VALUES (?, ?, 0, 0, ?, ?)", [
      Number(id),
      name.split("::").join("\x1f"),
      new Uint8Array(0),
      new Uint8Array(0),
    ]);
  }
  insertNotesAndCards(db, deck);
  db.run("PRAGMA writable_schema = ON");
  db.run("UPDATE sqlite_master SET sql = replace(sql, 'COLLATE NOCASE', 'COLLATE unicase')");
  db.run("PRAGMA writable_schema = OFF");
  const bytes = db.export();
  db.close();
  return bytes;
}

/** The note current Anki puts in the collection.anki2 it writes beside collection.anki21b. */
export const STUB_DECK: TestDeck = {
  noteTypes: [BASIC],
  notes: [
    {
      id: 1,
      noteTypeId: BASIC.id,
      fields: [
        "This file requires a newer version of Anki.",
        "Please update to the latest Anki version, then import the .colpkg/.apkg file again.",
      ],
    },
  ],
};

export interface PackageOptions {
  format: "anki2" | "anki21" | "anki21b";
  /** Media by name; written with the JSON map (legacy formats) or the zstd protobuf map (anki21b). */
  media?: Record<string, Uint8Array>;
  /** Leave the stub collection.anki2 out of an anki21b package. */
  noStub?: boolean;
}

export async function buildPackage(deck: TestDeck, options: PackageOptions): Promise<Uint8Array> {
  const entries: EntrySpec[] = [];
  const media = Object.entries(options.media ?? {});
  if (options.format === "anki21b") {
    // PackageMetadata { version = 1 }: 3 = VERSION_LATEST.
    entries.push({ name: "meta", data: encodeProto([[1, 3]]), method: 0 });
    entries.push({
      name: "collection.anki21b",
      data: await zstdCompress(await buildSchema18(deck)),
      method: 0,
    });
    if (!options.noStub)
      entries.push({ name: "collection.anki2", data: await buildSchema11(STUB_DECK) });
    // MediaEntries { repeated MediaEntry entries = 1 }; MediaEntry { name = 1, size = 2, sha1 = 3 }.
    const list = encodeProto(
      media.map(([name, data]) => [
        1,
        encodeProto([
          [1, name],
          [2, data.length],
          [3, new Uint8Array(20)],
        ]),
      ]),
    );
    entries.push({ name: "media", data: await zstdCompress(list), method: 0 });
    for (const [k, [, data]] of media.entries()) {
      entries.push({ name: String(k), data: await zstdCompress(data), method: 0 });
    }
  } else {
    entries.push({ name: `collection.${options.format}`, data: await buildSchema11(deck) });
    if (options.format === "anki21")
      entries.push({ name: "collection.anki2", data: await buildSchema11(STUB_DECK) });
    const map = Object.fromEntries(media.map(([name], k) => [String(k), name]));
    entries.push({ name: "media", data: new TextEncoder().encode(JSON.stringify(map)) });
    for (const [k, [, data]] of media.entries()) entries.push({ name: String(k), data, method: 0 });
  }
  return buildZip(entries);
}

export { buildZip };
