import type { Database, SqlJsConfig, SqlJsStatic, SqlValue } from "sql.js";
import { ImportError } from "../errors";
import { inspectZip, isZip, readZipEntry, type ZipEntry } from "../zip-guard";
import { ANKI_MESSAGES, ANKI_ZIP_LIMITS, ANKI_ZIP_MESSAGES, MAX_ANKI_FILE_BYTES } from "./messages";
import { ProtoError, protoBytesList, protoNumber, protoString, readProto } from "./protobuf";
import { isZstd, zstdDecompress, ZstdLimitError } from "./zstd";

/** Which collection file the package was read from (decision 180). */
export type AnkiCollectionFormat = "anki21b" | "anki21" | "anki2";

export interface AnkiTemplate {
  name: string;
  ord: number;
  /** Anki's question and answer formats ({{Field}}, {{FrontSide}}, {{cloze:Text}}, …). */
  front: string;
  back: string;
}

export interface AnkiNoteType {
  id: number;
  name: string;
  kind: "normal" | "cloze";
  /** Field names in field order (a note's fields line up with these). */
  fields: string[];
  templates: AnkiTemplate[];
}

export interface AnkiNote {
  id: number;
  noteTypeId: number;
  /** Raw field HTML, in the note type's field order. */
  fields: string[];
  tags: string[];
  /** The deck of the note's first card ('' when it has none); nested decks joined by '::'. */
  deck: string;
}

export interface AnkiCard {
  id: number;
  noteId: number;
  /** Template index (normal note types) or cloze number - 1 (cloze note types). */
  ord: number;
  deck: string;
  /** 0 new, 1 learning, 2 review, 3 relearning. */
  type: number;
  /** 0 new, 1 learning, 2 review, 3 day-learning, -1 suspended, -2/-3 buried. */
  queue: number;
  /**
   * New: position; learning (queue 1): epoch seconds; review and day-learning: days since the
   * collection's creation (`AnkiPackage.createdAt`).
   */
  due: number;
  /** Days (negative: seconds, for learning cards). */
  interval: number;
  /** Ease in permille (2500 = 250 %); 0 for new cards. */
  factor: number;
  reps: number;
  lapses: number;
}

export interface AnkiPackage {
  format: AnkiCollectionFormat;
  /** The collection's creation, epoch seconds: day 0 of review cards' `due`. */
  createdAt: number;
  noteTypes: AnkiNoteType[];
  /** Ordered by note id (creation order). */
  notes: AnkiNote[];
  cards: AnkiCard[];
  /** Media by the file name the notes use. */
  media: Map<string, Uint8Array>;
}

/** Returns sql.js ready to open databases; see `sqlJsLoader`. */
export type LoadSqlite = () => Promise<SqlJsStatic>;

/**
 * sql.js, imported only when the first deck is opened so its WASM (about 650 KB) never weighs on
 * the first page load. In Node the package finds its own .wasm beside its script; a bundled
 * browser build must say where Vite put it (`locateFile: () => wasmUrl` from
 * `import wasmUrl from "sql.js/dist/sql-wasm-browser.wasm?url"`) or pass the bytes as `wasmBinary`.
 * Core stays free of file-system and bundler specifics: the caller chooses.
 */
export function sqlJsLoader(config: SqlJsConfig = {}): LoadSqlite {
  let loading: Promise<SqlJsStatic> | null = null;
  return () => {
    loading ??= import("sql.js").then((mod) => {
      // The CommonJS build arrives as the default export under Node and some bundlers.
      const init =
        (mod as { default?: typeof mod.default }).default ?? (mod as unknown as typeof mod.default);
      return init(config);
    });
    return loading;
  };
}

const defaultLoader = sqlJsLoader();

export interface ReadAnkiOptions {
  /** How to get sql.js; defaults to `sqlJsLoader()`, which works as is in Node. */
  loadSqlite?: LoadSqlite;
}

/** Anki's package meta (PackageMetadata.version): 3 means collection and media are zstd-compressed. */
const META_VERSION_LATEST = 3;
const SQLITE_HEADER = "SQLite format 3\0";
const STUB_TEXT = /please update to the latest anki version/i;

/**
 * Reads an .apkg or .colpkg from its bytes. The collection is chosen the way current Anki chooses
 * it: collection.anki21b (zstd-compressed SQLite, schema 18) over collection.anki21 over
 * collection.anki2, because newer Anki writes the older names only as a stub whose single note asks
 * the user to update (that stub is never read when a newer collection is there).
 */
export async function readAnkiPackage(
  bytes: Uint8Array,
  options: ReadAnkiOptions = {},
): Promise<AnkiPackage> {
  if (bytes.length > MAX_ANKI_FILE_BYTES) throw new ImportError(ANKI_MESSAGES.fileTooLarge);
  if (!isZip(bytes)) throw new ImportError(ANKI_MESSAGES.notZip);
  const entries = inspectZip(bytes, { limits: ANKI_ZIP_LIMITS, messages: ANKI_ZIP_MESSAGES });
  const byName = new Map(entries.map((e) => [e.name, e]));
  // Whatever is decompressed beyond the ZIP (zstd) spends the same budget as the ZIP's entries.
  const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  const budget = { left: ANKI_ZIP_LIMITS.maxTotalUncompressed - declared };
  const read = async (entry: ZipEntry): Promise<Uint8Array> =>
    readZipEntry(bytes, entry, ANKI_ZIP_MESSAGES);

  const metaEntry = byName.get("meta");
  const metaVersion = metaEntry ? readMetaVersion(await read(metaEntry), budget) : 0;

  const chosen = (["anki21b", "anki21", "anki2"] as const)
    .map((format) => ({ format, entry: byName.get(`collection.${format}`) }))
    .find((c) => c.entry !== undefined);
  if (!chosen?.entry) throw new ImportError(ANKI_MESSAGES.noCollection);
  let collection = await read(chosen.entry);
  if (chosen.format === "anki21b" || isZstd(collection)) {
    collection = unzstd(collection, budget);
  }

  const SQL = await (options.loadSqlite ?? defaultLoader)();
  const db = openCollection(SQL, collection);
  let parsed: Omit<AnkiPackage, "format" | "media">;
  try {
    parsed = readCollection(db);
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(ANKI_MESSAGES.corrupt);
  } finally {
    db.close();
  }
  if (chosen.format !== "anki21b" && parsed.notes.length === 1 && isStub(parsed.notes[0])) {
    throw new ImportError(ANKI_MESSAGES.stubOnly);
  }

  const media = await readMedia(byName, read, metaVersion >= META_VERSION_LATEST, budget);
  return { format: chosen.format, ...parsed, media };
}

function isStub(note: AnkiNote | undefined): boolean {
  return note !== undefined && note.fields.some((f) => STUB_TEXT.test(f));
}

function unzstd(data: Uint8Array, budget: { left: number }): Uint8Array {
  try {
    const out = zstdDecompress(data, budget.left);
    budget.left -= out.length;
    return out;
  } catch (error) {
    if (error instanceof ZstdLimitError && error.reason === "tooLarge") {
      throw new ImportError(ANKI_ZIP_MESSAGES.tooLarge);
    }
    throw new ImportError(ANKI_ZIP_MESSAGES.damaged);
  }
}

function readMetaVersion(bytes: Uint8Array, budget: { left: number }): number {
  try {
    return protoNumber(readProto(isZstd(bytes) ? unzstd(bytes, budget) : bytes), 1);
  } catch (error) {
    if (error instanceof ProtoError) throw new ImportError(ANKI_ZIP_MESSAGES.damaged);
    throw error;
  }
}

function openCollection(SQL: SqlJsStatic, bytes: Uint8Array): Database {
  // SQLCipher-encrypted and damaged files fail here with a clear message instead of at the first
  // query with SQLite's "file is not a database".
  const header = String.fromCharCode(...bytes.subarray(0, 16));
  if (header !== SQLITE_HEADER) throw new ImportError(ANKI_MESSAGES.corrupt);
  try {
    const db = new SQL.Database(bytes);
    allowUnicase(db);
    return db;
  } catch {
    throw new ImportError(ANKI_MESSAGES.corrupt);
  }
}

/**
 * Schema 18 declares names `COLLATE unicase`, a collation Anki registers itself and sql.js cannot
 * (it exposes no create_collation): SQLite then refuses every query on those tables ("no such
 * collation sequence", "no query solution"). The in-memory copy's schema is rewritten to NOCASE,
 * which differs only in how non-ASCII names sort, and this reader never sorts or compares them.
 */
function allowUnicase(db: Database): void {
  const found = rows(db, "SELECT count(*) FROM sqlite_master WHERE sql LIKE '%unicase%'");
  if (num(found[0]?.[0]) === 0) return;
  const version = num(rows(db, "PRAGMA schema_version")[0]?.[0]);
  db.exec(
    `PRAGMA writable_schema = ON;
     UPDATE sqlite_master SET sql = replace(replace(sql, 'unicase', 'nocase'), 'UNICASE', 'NOCASE')
       WHERE sql LIKE '%unicase%';
     PRAGMA schema_version = ${version + 1};
     PRAGMA writable_schema = OFF;`,
  );
}

function rows(db: Database, sql: string): SqlValue[][] {
  return db.exec(sql)[0]?.values ?? [];
}

function num(value: SqlValue | undefined): number {
  return typeof value === "number" ? value : Number(value ?? 0) || 0;
}

function str(value: SqlValue | undefined): string {
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  return value === null || value === undefined ? "" : String(value);
}

function blob(value: SqlValue | undefined): Uint8Array {
  if (value instanceof Uint8Array) return value;
  return typeof value === "string" ? new TextEncoder().encode(value) : new Uint8Array(0);
}

function readCollection(db: Database): Omit<AnkiPackage, "format" | "media"> {
  const createdAt = num(rows(db, "SELECT crt FROM col")[0]?.[0]);
  // Schema 18 keeps note types and decks in tables; schema 11 keeps them as JSON in `col`. The
  // tables' presence decides, not `col.ver`, which some exporters leave stale.
  const hasTables =
    rows(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'notetypes'").length >
    0;
  const { noteTypes, decks } = hasTables ? readSchema18(db) : readSchema11(db);

  const cards: AnkiCard[] = rows(
    db,
    "SELECT id, nid, did, odid, ord, type, queue, due, odue, ivl, factor, reps, lapses FROM cards ORDER BY nid, ord, id",
  ).map((r) => {
    // A card sitting in a filtered deck belongs to its original deck (odid), where it returns.
    const inFiltered = num(r[3]) !== 0;
    return {
      id: num(r[0]),
      noteId: num(r[1]),
      ord: num(r[4]),
      deck: decks.get(num(inFiltered ? r[3] : r[2])) ?? "",
      type: num(r[5]),
      queue: num(r[6]),
      due: num(inFiltered && num(r[8]) !== 0 ? r[8] : r[7]),
      interval: num(r[9]),
      factor: num(r[10]),
      reps: num(r[11]),
      lapses: num(r[12]),
    };
  });
  const deckOfNote = new Map<number, string>();
  for (const card of cards)
    if (!deckOfNote.has(card.noteId)) deckOfNote.set(card.noteId, card.deck);

  const notes: AnkiNote[] = rows(db, "SELECT id, mid, tags, flds FROM notes ORDER BY id").map(
    (r) => ({
      id: num(r[0]),
      noteTypeId: num(r[1]),
      fields: str(r[3]).split("\x1f"),
      tags: str(r[2])
        .split(/\s+/)
        .filter((t) => t !== ""),
      deck: deckOfNote.get(num(r[0])) ?? "",
    }),
  );
  return { createdAt, noteTypes, notes, cards };
}

interface Schema {
  noteTypes: AnkiNoteType[];
  decks: Map<number, string>;
}

interface LegacyModel {
  id?: number | string;
  name?: string;
  type?: number;
  flds?: Array<{ name?: string; ord?: number }>;
  tmpls?: Array<{ name?: string; ord?: number; qfmt?: string; afmt?: string }>;
}

function readSchema11(db: Database): Schema {
  const [modelsJson, decksJson] = rows(db, "SELECT models, decks FROM col")[0] ?? [];
  const models = JSON.parse(str(modelsJson) || "{}") as Record<string, LegacyModel>;
  const deckObjects = JSON.parse(str(decksJson) || "{}") as Record<string, { name?: string }>;
  const noteTypes = Object.entries(models).map(([key, m]) => ({
    id: Number(m.id ?? key),
    name: m.name ?? "",
    kind: m.type === 1 ? ("cloze" as const) : ("normal" as const),
    fields: [...(m.flds ?? [])]
      .sort((a, b) => (a.ord ?? 0) - (b.ord ?? 0))
      .map((f) => f.name ?? ""),
    templates: [...(m.tmpls ?? [])]
      .sort((a, b) => (a.ord ?? 0) - (b.ord ?? 0))
      .map((t, k) => ({
        name: t.name ?? "",
        ord: t.ord ?? k,
        front: t.qfmt ?? "",
        back: t.afmt ?? "",
      })),
  }));
  const decks = new Map(Object.entries(deckObjects).map(([id, d]) => [Number(id), d.name ?? ""]));
  return { noteTypes, decks };
}

/** Schema 18: configs are protobuf blobs (NotetypeConfig.kind = 1; CardTemplateConfig formats 1, 2). */
function readSchema18(db: Database): Schema {
  const fields = new Map<number, string[]>();
  for (const r of rows(db, "SELECT ntid, name FROM fields ORDER BY ntid, ord")) {
    const list = fields.get(num(r[0])) ?? [];
    list.push(str(r[1]));
    fields.set(num(r[0]), list);
  }
  const templates = new Map<number, AnkiTemplate[]>();
  for (const r of rows(db, "SELECT ntid, ord, name, config FROM templates ORDER BY ntid, ord")) {
    const config = readProto(blob(r[3]));
    const list = templates.get(num(r[0])) ?? [];
    list.push({
      name: str(r[2]),
      ord: num(r[1]),
      front: protoString(config, 1),
      back: protoString(config, 2),
    });
    templates.set(num(r[0]), list);
  }
  const noteTypes = rows(db, "SELECT id, name, config FROM notetypes").map((r) => ({
    id: num(r[0]),
    name: str(r[1]),
    kind: protoNumber(readProto(blob(r[2])), 1) === 1 ? ("cloze" as const) : ("normal" as const),
    fields: fields.get(num(r[0])) ?? [],
    templates: templates.get(num(r[0])) ?? [],
  }));
  // Schema 18 separates nested deck names with \x1f where the JSON form used '::'.
  const decks = new Map(
    rows(db, "SELECT id, name FROM decks").map((r) => [
      num(r[0]),
      str(r[1]).split("\x1f").join("::"),
    ]),
  );
  return { noteTypes, decks };
}

async function readMedia(
  byName: Map<string, ZipEntry>,
  read: (entry: ZipEntry) => Promise<Uint8Array>,
  compressed: boolean,
  budget: { left: number },
): Promise<Map<string, Uint8Array>> {
  const media = new Map<string, Uint8Array>();
  const mapEntry = byName.get("media");
  if (!mapEntry) return media;
  const raw = await read(mapEntry);
  // Entry name in the ZIP → the file name the notes use.
  const names: Array<[string, string]> = [];
  const text = isZstd(raw) ? null : new TextDecoder().decode(raw).trim();
  if (text !== null && text.startsWith("{")) {
    let map: unknown;
    try {
      map = JSON.parse(text);
    } catch {
      throw new ImportError(ANKI_ZIP_MESSAGES.damaged);
    }
    for (const [zipName, name] of Object.entries(map as Record<string, unknown>)) {
      if (typeof name === "string") names.push([zipName, name]);
    }
  } else if (raw.length > 0) {
    // MediaEntries { repeated MediaEntry entries = 1 }, MediaEntry { name = 1, size = 2,
    // sha1 = 3, legacy_zip_filename = 255 }: the n-th entry is stored as ZIP entry "n".
    try {
      const list = protoBytesList(readProto(isZstd(raw) ? unzstd(raw, budget) : raw), 1);
      list.forEach((bytes, index) => {
        const entry = readProto(bytes);
        const legacy = entry.some((f) => f.field === 255);
        names.push([String(legacy ? protoNumber(entry, 255) : index), protoString(entry, 1)]);
      });
    } catch (error) {
      if (error instanceof ProtoError) throw new ImportError(ANKI_ZIP_MESSAGES.damaged);
      throw error;
    }
  }
  for (const [zipName, name] of names) {
    const entry = byName.get(zipName);
    if (!entry || name === "") continue; // Anki itself skips media listed but missing
    let data = await read(entry);
    if (compressed && isZstd(data)) data = unzstd(data, budget);
    media.set(name, data);
  }
  return media;
}
