/**
 * Writes the bank as an Anki package (decision 245): a ZIP holding a legacy schema-11
 * `collection.anki2` (the format every current Anki desktop, AnkiDroid and AnkiMobile imports),
 * the JSON media map and the images named `0`, `1`… Pure: no Node built-ins, time passed in.
 */
// eslint-disable-next-line no-restricted-imports -- pure JS, no Node built-in: the "crypto" pattern only matches its name
import { sha1 } from "@oslojs/crypto/sha1";
import { zipSync, type Zippable } from "fflate";
import type { Database, SqlValue } from "sql.js";
import type { LoadSqlite } from "../../import/anki/read";

/** One question of the bank, as the writer needs it. */
export interface AnkiExportItem {
  /** The question's id: the note's guid is derived from it, so a second export updates, not adds. */
  id: string;
  kind: "multipleChoice" | "flashcard";
  /** Multiple choice: the stem, plain text. Flashcard: the front, sanitized HTML. */
  text: string;
  /** Multiple choice: option text by letter (A…). */
  options: Record<string, string>;
  /** Multiple choice: the correct letters. */
  correctAnswers: string[];
  explanation: string;
  /** Flashcard: the back, sanitized HTML. */
  back: string;
  category: string;
  /** The deck it came from ('' = none): it becomes the Anki deck. */
  source: string;
  part: string;
  year: number;
  /** SHA-256 of the images it shows, in order (question_media). */
  images: string[];
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
}

export interface AnkiExportMedia {
  sha256: string;
  mimeType: string;
  bytes: Uint8Array;
}

export interface WriteAnkiOptions {
  loadSqlite: LoadSqlite;
  /** Epoch milliseconds: the collection's creation and modification time. */
  now: number;
}

/** The deck of questions that came from no deck. */
export const DEFAULT_ANKI_DECK = "PRITE Study";
export const MCQ_NOTE_TYPE_NAME = "PRITE MCQ";
export const BASIC_NOTE_TYPE_NAME = "Basic";
export const MCQ_FIELDS = [
  "Question",
  "A",
  "B",
  "C",
  "D",
  "E",
  "Answer",
  "Explanation",
  "Category",
] as const;
export const BASIC_FIELDS = ["Front", "Back"] as const;

// Fixed ids: a second export's note types are the ones Anki already has from the first.
const MCQ_MODEL_ID = 1_700_000_000_017;
const BASIC_MODEL_ID = 1_700_000_000_018;
const DECK_ID_BASE = 1_700_000_100_000;

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
};

/** The media file name an image gets in the package: its hash and the extension of its type. */
export function ankiMediaName(sha256: string, mimeType: string): string {
  return `${sha256}.${EXTENSIONS[mimeType] ?? "bin"}`;
}

const CSS = `.card {
  font-family: -apple-system, "Segoe UI", Roboto, Arial, sans-serif;
  font-size: 20px;
  line-height: 1.45;
  text-align: left;
  color: black;
  background-color: white;
}
.nightMode.card, .night_mode .card { color: #eee; background-color: #222; }
.prite-stem { margin-bottom: 0.8em; }
.prite-option { margin: 0.25em 0; }
.prite-answer { font-weight: bold; margin: 0.6em 0; }
.prite-explanation { margin-top: 0.6em; }
.prite-category { margin-top: 1em; font-size: 0.75em; opacity: 0.7; }
img { max-width: 100%; height: auto; }
`;

const MCQ_FRONT = `<div class="prite-stem">{{Question}}</div>
${["A", "B", "C", "D", "E"]
  .map((l) => `{{#${l}}}<div class="prite-option"><b>${l}.</b> {{${l}}}</div>{{/${l}}}`)
  .join("\n")}`;

const MCQ_BACK = `{{FrontSide}}

<hr id=answer>

<div class="prite-answer">Answer: {{Answer}}</div>
{{#Explanation}}<div class="prite-explanation">{{Explanation}}</div>{{/Explanation}}
{{#Category}}<div class="prite-category">{{Category}}</div>{{/Category}}`;

const BASIC_FRONT = "{{Front}}";
const BASIC_BACK = "{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}";

// rslib/src/storage/schema11.sql, as Anki itself creates a legacy collection.
const SCHEMA_11 = `
CREATE TABLE col (id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL, scm integer NOT NULL,
  ver integer NOT NULL, dty integer NOT NULL, usn integer NOT NULL, ls integer NOT NULL, conf text NOT NULL,
  models text NOT NULL, decks text NOT NULL, dconf text NOT NULL, tags text NOT NULL);
CREATE TABLE notes (id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL, mod integer NOT NULL,
  usn integer NOT NULL, tags text NOT NULL, flds text NOT NULL, sfld integer NOT NULL, csum integer NOT NULL,
  flags integer NOT NULL, data text NOT NULL);
CREATE TABLE cards (id integer PRIMARY KEY, nid integer NOT NULL, did integer NOT NULL, ord integer NOT NULL,
  mod integer NOT NULL, usn integer NOT NULL, type integer NOT NULL, queue integer NOT NULL, due integer NOT NULL,
  ivl integer NOT NULL, factor integer NOT NULL, reps integer NOT NULL, lapses integer NOT NULL,
  left integer NOT NULL, odue integer NOT NULL, odid integer NOT NULL, flags integer NOT NULL, data text NOT NULL);
CREATE TABLE revlog (id integer PRIMARY KEY, cid integer NOT NULL, usn integer NOT NULL, ease integer NOT NULL,
  ivl integer NOT NULL, lastIvl integer NOT NULL, factor integer NOT NULL, time integer NOT NULL,
  type integer NOT NULL);
CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL);
CREATE INDEX ix_notes_usn ON notes (usn);
CREATE INDEX ix_cards_usn ON cards (usn);
CREATE INDEX ix_revlog_usn ON revlog (usn);
CREATE INDEX ix_cards_nid ON cards (nid);
CREATE INDEX ix_cards_sched ON cards (did, queue, due);
CREATE INDEX ix_revlog_cid ON revlog (cid);
CREATE INDEX ix_notes_csum ON notes (csum);
`;

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Plain text as field HTML: entities escaped, line breaks as `<br>`. */
export function textToFieldHtml(text: string): string {
  return escapeHtml(text.replace(/\r\n?/g, "\n")).replace(/\n/g, "<br>");
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/**
 * Anki's `strip_html_preserving_media_filenames`: an image becomes its file name, other tags go,
 * entities are decoded. The sort field and the checksum are computed from it.
 */
export function stripHtmlKeepingMedia(html: string): string {
  return html
    .replace(/<img\b[^<>]*>/gi, (tag) => {
      const src = /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(tag)?.[1];
      return src ? ` ${src} ` : "";
    })
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^<>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith("#x") || name.startsWith("#X"))
        return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith("#")) return String.fromCodePoint(parseInt(name.slice(1), 10));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .trim();
}

/** Anki's field checksum: the first 8 hex digits of the SHA-1 of the stripped first field. */
export function fieldChecksum(firstField: string): number {
  const digest = sha1(new TextEncoder().encode(stripHtmlKeepingMedia(firstField)));
  return (
    ((digest[0] ?? 0) * 0x1000000 +
      ((digest[1] ?? 0) << 16) +
      ((digest[2] ?? 0) << 8) +
      (digest[3] ?? 0)) >>>
    0
  );
}

// Anki's base91 alphabet for note guids (pylib utils.base91).
const BASE91 =
  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&()*+,-./:;<=>?@[]^_`{|}~";

/** A stable guid for a question: base91 of 64 bits of the SHA-1 of its id, as Anki's are. */
export function noteGuid(questionId: string): string {
  const digest = sha1(new TextEncoder().encode(`prite-study:${questionId}`));
  let n = 0n;
  for (let k = 0; k < 8; k++) n = (n << 8n) | BigInt(digest[k] ?? 0);
  let out = "";
  do {
    out = (BASE91[Number(n % 91n)] ?? "a") + out;
    n /= 91n;
  } while (n > 0n);
  return out;
}

/** An Anki tag: no spaces (Anki splits tags on them). */
export function ankiTag(label: string): string {
  return label.trim().replace(/\s+/g, "_");
}

function tagsOf(item: AnkiExportItem): string[] {
  const tags: string[] = [];
  if (item.category.trim() !== "") tags.push(ankiTag(item.category));
  if (item.part) tags.push(`PRITE::Part_${item.part}`);
  if (item.year) tags.push(`PRITE::Year_${item.year}`);
  return tags;
}

const IMG_HASH_SRC = /(<img\b[^>]*?\bsrc\s*=\s*)(["']?)([0-9a-f]{64})\2/gi;

/** Stored HTML refers to images by bare hash; in the package they are files with an extension. */
function renameImages(html: string, names: Map<string, string>): string {
  return html.replace(IMG_HASH_SRC, (whole, start: string, quote: string, hash: string) => {
    const name = names.get(hash.toLowerCase());
    return name ? `${start}"${name}"` : whole;
  });
}

function mcqFields(item: AnkiExportItem, names: Map<string, string>): string[] {
  const letters = Object.keys(item.options)
    .filter((l) => /^[A-Z]$/.test(l) && (item.options[l] ?? "").trim() !== "")
    .sort();
  // The note type has A-E, as the issue asks; a question with more options shows the rest under the stem.
  const extra = letters.filter((l) => l > "E").map((l) => `${l}. ${item.options[l] ?? ""}`);
  let question = textToFieldHtml([item.text, ...extra].join("\n"));
  const images = item.images
    .map((hash) => names.get(hash))
    .filter((name): name is string => name !== undefined)
    .map((name) => `<img src="${name}">`);
  if (images.length > 0) question += `<br>${images.join("<br>")}`;
  const option = (l: string) => textToFieldHtml(item.options[l] ?? "");
  return [
    question,
    option("A"),
    option("B"),
    option("C"),
    option("D"),
    option("E"),
    escapeHtml([...item.correctAnswers].sort().join(", ")),
    textToFieldHtml(item.explanation),
    escapeHtml(item.category),
  ];
}

function flashcardFields(item: AnkiExportItem, names: Map<string, string>): string[] {
  let front = renameImages(item.text, names);
  // Images the question lists but its HTML does not show still travel with it, under the front.
  const shown = new Set(
    [...item.text.matchAll(IMG_HASH_SRC)].map((m) => (m[3] ?? "").toLowerCase()),
  );
  for (const hash of item.images) {
    const name = names.get(hash);
    if (name && !shown.has(hash) && !item.back.toLowerCase().includes(hash))
      front += `<br><img src="${name}">`;
  }
  return [front, renameImages(item.back, names)];
}

function noteType(
  id: number,
  name: string,
  fields: readonly string[],
  front: string,
  back: string,
  frontFields: number[],
  now: number,
): Record<string, unknown> {
  return {
    id,
    name,
    type: 0,
    mod: Math.floor(now / 1000),
    usn: -1,
    sortf: 0,
    did: null,
    tmpls: [
      {
        name: "Card 1",
        ord: 0,
        qfmt: front,
        afmt: back,
        bqfmt: "",
        bafmt: "",
        did: null,
        bfont: "",
        bsize: 0,
      },
    ],
    flds: fields.map((f, ord) => ({
      name: f,
      ord,
      sticky: false,
      rtl: false,
      font: "Arial",
      size: 20,
      media: [],
    })),
    css: CSS,
    latexPre:
      "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage[utf8]{inputenc}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n\\begin{document}\n",
    latexPost: "\\end{document}",
    latexsvg: false,
    req: [[0, "any", frontFields]],
    tags: [],
    vers: [],
  };
}

function deck(id: number, name: string, now: number): Record<string, unknown> {
  return {
    id,
    name,
    mod: Math.floor(now / 1000),
    usn: -1,
    lrnToday: [0, 0],
    revToday: [0, 0],
    newToday: [0, 0],
    timeToday: [0, 0],
    collapsed: false,
    browserCollapsed: false,
    desc: "",
    dyn: 0,
    conf: 1,
    extendNew: 0,
    extendRev: 0,
  };
}

function defaultDeckConfig(now: number): Record<string, unknown> {
  return {
    id: 1,
    mod: Math.floor(now / 1000),
    name: "Default",
    usn: 0,
    maxTaken: 60,
    autoplay: true,
    timer: 0,
    replayq: true,
    dyn: false,
    new: {
      bury: false,
      delays: [1, 10],
      initialFactor: 2500,
      ints: [1, 4, 0],
      order: 1,
      perDay: 20,
    },
    rev: { bury: false, ease4: 1.3, ivlFct: 1, maxIvl: 36500, perDay: 200, hardFactor: 1.2 },
    lapse: { delays: [10], leechAction: 1, leechFails: 8, minInt: 1, mult: 0 },
  };
}

/** Ids Anki expects to be epoch milliseconds, unique and increasing. */
function idSequence(): (wanted: number) => number {
  let last = 0;
  return (wanted) => {
    last = Math.max(Math.floor(wanted), last + 1);
    return last;
  };
}

/** The bank as an .apkg: multiple choice as "PRITE MCQ" notes, flashcards as Basic notes. */
export async function writeAnkiPackage(
  items: AnkiExportItem[],
  media: AnkiExportMedia[],
  options: WriteAnkiOptions,
): Promise<Uint8Array> {
  const { now } = options;
  const SQL = await options.loadSqlite();
  const names = new Map<string, string>();
  for (const m of media) names.set(m.sha256.toLowerCase(), ankiMediaName(m.sha256, m.mimeType));

  const deckNames = [...new Set(items.map((i) => i.source.trim() || DEFAULT_ANKI_DECK))].sort(
    (a, b) => a.localeCompare(b),
  );
  // Anki creates the parents of 'A::B' itself; listing them keeps older clients happy too.
  const allDecks = new Set<string>();
  for (const name of deckNames) {
    const parts = name.split("::");
    for (let k = 1; k <= parts.length; k++) allDecks.add(parts.slice(0, k).join("::"));
  }
  const deckIds = new Map<string, number>();
  [...allDecks].sort().forEach((name, k) => deckIds.set(name, DECK_ID_BASE + k));

  const db: Database = new SQL.Database();
  try {
    db.run(SCHEMA_11);
    const tags = new Set<string>();
    const nextNoteId = idSequence();
    const nextCardId = idSequence();
    const sorted = [...items].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    db.run("BEGIN");
    const insertNote = db.prepare(
      "INSERT INTO notes (id, guid, mid, mod, usn, tags, flds, sfld, csum, flags, data) VALUES (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')",
    );
    const insertCard = db.prepare(
      "INSERT INTO cards (id, nid, did, ord, mod, usn, type, queue, due, ivl, factor, reps, lapses, left, odue, odid, flags, data) VALUES (?, ?, ?, 0, ?, -1, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')",
    );
    try {
      sorted.forEach((item, position) => {
        // Anki separates fields with \x1f: one inside a field would shift every field after it.
        const fields = (
          item.kind === "multipleChoice" ? mcqFields(item, names) : flashcardFields(item, names)
        ).map((f) => f.replaceAll("\x1f", " "));
        const noteTags = tagsOf(item);
        for (const t of noteTags) tags.add(t);
        const noteId = nextNoteId(item.createdAt);
        const mod = Math.floor(item.updatedAt / 1000);
        const sortField = stripHtmlKeepingMedia(fields[0] ?? "");
        const values: SqlValue[] = [
          noteId,
          noteGuid(item.id),
          item.kind === "multipleChoice" ? MCQ_MODEL_ID : BASIC_MODEL_ID,
          mod,
          noteTags.length > 0 ? ` ${noteTags.join(" ")} ` : "",
          fields.join("\x1f"),
          sortField,
          fieldChecksum(fields[0] ?? ""),
        ];
        insertNote.run(values);
        const deckId = deckIds.get(item.source.trim() || DEFAULT_ANKI_DECK) ?? 1;
        // A new card's due is its position in the new queue.
        insertCard.run([nextCardId(item.createdAt), noteId, deckId, mod, position + 1]);
      });
    } finally {
      insertNote.free();
      insertCard.free();
    }
    db.run("COMMIT");

    const models = {
      [MCQ_MODEL_ID]: noteType(
        MCQ_MODEL_ID,
        MCQ_NOTE_TYPE_NAME,
        MCQ_FIELDS,
        MCQ_FRONT,
        MCQ_BACK,
        [0, 1, 2, 3, 4, 5],
        now,
      ),
      [BASIC_MODEL_ID]: noteType(
        BASIC_MODEL_ID,
        BASIC_NOTE_TYPE_NAME,
        BASIC_FIELDS,
        BASIC_FRONT,
        BASIC_BACK,
        [0],
        now,
      ),
    };
    const decks: Record<string, unknown> = { 1: deck(1, "Default", now) };
    for (const [name, id] of deckIds) decks[id] = deck(id, name, now);
    const firstDeck = deckIds.get(deckNames[0] ?? DEFAULT_ANKI_DECK) ?? 1;
    const conf = {
      activeDecks: [firstDeck],
      curDeck: firstDeck,
      newSpread: 0,
      collapseTime: 1200,
      timeLim: 0,
      estTimes: true,
      dueCounts: true,
      curModel: MCQ_MODEL_ID,
      nextPos: sorted.length + 1,
      sortType: "noteFld",
      sortBackwards: false,
      addToCur: true,
      schedVer: 2,
    };
    const seconds = Math.floor(now / 1000);
    db.run("INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, ?)", [
      seconds - (seconds % 86_400),
      now,
      now,
      JSON.stringify(conf),
      JSON.stringify(models),
      JSON.stringify(decks),
      JSON.stringify({ 1: defaultDeckConfig(now) }),
      JSON.stringify(Object.fromEntries([...tags].sort().map((t) => [t, 0]))),
    ]);
    const collection = db.export();

    const used = new Set(items.flatMap((i) => i.images.map((h) => h.toLowerCase())));
    const files: Zippable = { "collection.anki2": [collection, { level: 6 }] };
    const map: Record<string, string> = {};
    const written = new Set<string>();
    let k = 0;
    for (const m of media) {
      const hash = m.sha256.toLowerCase();
      const name = names.get(hash);
      if (!name || !used.has(hash) || written.has(name)) continue;
      written.add(name);
      map[String(k)] = name;
      // Images are already compressed: stored as they are.
      files[String(k)] = [m.bytes, { level: 0 }];
      k++;
    }
    files.media = [new TextEncoder().encode(JSON.stringify(map)), { level: 6 }];
    return zipSync(files, { mtime: new Date(now) });
  } finally {
    db.close();
  }
}
