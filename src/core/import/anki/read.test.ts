// Tests run only in Node: they read the real decks from the fixtures folder.
/* eslint-disable no-restricted-imports */
import { readFileSync } from "node:fs";
import path from "node:path";
/* eslint-enable no-restricted-imports */
import { describe, expect, it } from "vitest";
import { ImportError } from "../errors";
import {
  BASIC,
  BASIC_REVERSED,
  buildPackage,
  buildSchema11,
  buildZip,
  CLOZE,
  STUB_DECK,
  type TestDeck,
  zstdCompress,
} from "./deck-builder.test-utils";
import { ANKI_MESSAGES, ANKI_ZIP_MESSAGES, checkAnkiUpload, MAX_ANKI_FILE_BYTES } from "./messages";
import { encodeProto } from "./protobuf";
import { readAnkiPackage, sqlJsLoader } from "./read";
import { zstdDecompress, ZstdLimitError } from "./zstd";

const REAL = path.resolve(__dirname, "../../../../fixtures/real");
const real = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(REAL, name)));

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return (error as ImportError).message;
  }
  throw new Error("expected an ImportError");
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 4, 5, 6]);

const MIXED: TestDeck = {
  noteTypes: [BASIC, BASIC_REVERSED, CLOZE],
  decks: { 20: "Psychiatry::Pharmacology" },
  createdAt: 1_700_000_000,
  notes: [
    {
      id: 101,
      noteTypeId: BASIC.id,
      fields: ['Lithium <img src="li.png">', "Narrow window"],
      tags: " Psychopharmacology ",
    },
    {
      id: 102,
      noteTypeId: BASIC_REVERSED.id,
      fields: ["SSRI", "Selective serotonin reuptake inhibitor"],
      cards: [
        {
          ord: 0,
          deckId: 20,
          type: 2,
          queue: 2,
          due: 100,
          ivl: 12,
          factor: 2300,
          reps: 5,
          lapses: 1,
        },
        { ord: 1, deckId: 20 },
      ],
    },
    {
      id: 103,
      noteTypeId: CLOZE.id,
      fields: ["{{c1::Clozapine}} treats {{c2::refractory}} schizophrenia", ""],
    },
  ],
};

describe("readAnkiPackage: the real decks", () => {
  it("ham_extra_class_2024_2028.apkg: legacy collection.anki2, 591 notes, 591 cards, no media", async () => {
    const pkg = await readAnkiPackage(real("ham_extra_class_2024_2028.apkg"));
    expect(pkg.format).toBe("anki2");
    expect(pkg.notes).toHaveLength(591);
    expect(pkg.cards).toHaveLength(591);
    expect(pkg.media.size).toBe(0);
    expect(pkg.noteTypes.map((t) => [t.name, t.kind, t.fields])).toEqual([
      ["Basic (type in the answer)", "normal", ["Front", "Back"]],
    ]);
    expect(pkg.notes[0]?.fields).toEqual(["Column A", "Column B"]);
    expect(new Set(pkg.notes.map((n) => n.deck))).toEqual(new Set(["Default"]));
  });

  it("anki_apkg_export_output.apkg: 3 notes in deck-name, the PNG from the JSON media map, tags split", async () => {
    const pkg = await readAnkiPackage(real("anki_apkg_export_output.apkg"));
    expect(pkg.format).toBe("anki2");
    expect(pkg.notes.map((n) => [n.deck, n.tags])).toEqual([
      ["deck-name", ["food", "fruit"]],
      ["deck-name", []],
      ["deck-name", []],
    ]);
    const png = pkg.media.get("anki.png");
    expect(png?.length).toBe(19_040);
    expect([...(png ?? new Uint8Array(0)).subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]); // 'PNG'
  });
});

describe("readAnkiPackage: the three collection formats", () => {
  for (const format of ["anki2", "anki21", "anki21b"] as const) {
    it(`${format}: note types, notes, cards with scheduling, nested decks and media`, async () => {
      const bytes = await buildPackage(MIXED, { format, media: { "li.png": PNG, "x.jpg": JPEG } });
      const pkg = await readAnkiPackage(bytes);
      expect(pkg.format).toBe(format);
      expect(pkg.createdAt).toBe(1_700_000_000);
      expect(
        pkg.noteTypes.map((t) => [t.name, t.kind, t.fields, t.templates.length]).sort(),
      ).toEqual(
        [
          ["Basic", "normal", ["Front", "Back"], 1],
          ["Basic (and reversed card)", "normal", ["Front", "Back"], 2],
          ["Cloze", "cloze", ["Text", "Back Extra"], 1],
        ].sort(),
      );
      const cloze = pkg.noteTypes.find((t) => t.kind === "cloze");
      expect(cloze?.templates[0]?.front).toBe("{{cloze:Text}}");
      // The stub's "please update" note is never read beside a newer collection.
      expect(pkg.notes.map((n) => n.id)).toEqual([101, 102, 103]);
      expect(pkg.notes[0]?.tags).toEqual(["Psychopharmacology"]);
      expect(pkg.notes[1]?.deck).toBe("Psychiatry::Pharmacology");
      expect(pkg.cards.map((c) => [c.noteId, c.ord])).toEqual([
        [101, 0],
        [102, 0],
        [102, 1],
        [103, 0],
        [103, 1],
      ]);
      expect(pkg.cards[1]).toMatchObject({
        type: 2,
        queue: 2,
        due: 100,
        interval: 12,
        factor: 2300,
        reps: 5,
        lapses: 1,
      });
      expect(pkg.media.get("li.png")).toEqual(PNG);
      expect(pkg.media.get("x.jpg")).toEqual(JPEG);
    });
  }

  it("reads an anki21b package without the stub too, and one whose media map is empty", async () => {
    const pkg = await readAnkiPackage(
      await buildPackage(MIXED, { format: "anki21b", noStub: true }),
    );
    expect(pkg.notes).toHaveLength(3);
    expect(pkg.media.size).toBe(0);
  });

  it("reads a .colpkg (a whole-collection backup: the same layout, media included)", async () => {
    const colpkg = await buildPackage(MIXED, {
      format: "anki21b",
      noStub: true,
      media: { "li.png": PNG },
    });
    const pkg = await readAnkiPackage(colpkg);
    expect([pkg.format, pkg.notes.length, pkg.cards.length, [...pkg.media.keys()]]).toEqual([
      "anki21b",
      3,
      5,
      ["li.png"],
    ]);
  });

  it("refuses a package holding only the stub that asks to update Anki", async () => {
    const stubOnly = buildZip([
      {
        name: "collection.anki2",
        data: await buildSchema11(STUB_DECK),
      },
    ]);
    expect(await refusal(readAnkiPackage(stubOnly))).toBe(ANKI_MESSAGES.stubOnly);
  });

  it("opens SQLite with the loader the caller passes (the browser's says where its WASM is)", async () => {
    // sql.js initializes once per process, whatever config a later call brings, so what can be
    // checked here is that the reader asks the caller's loader rather than its default.
    let asked = 0;
    const base = sqlJsLoader({
      locateFile: (file) => path.resolve(__dirname, "../../../../node_modules/sql.js/dist", file),
    });
    const pkg = await readAnkiPackage(real("anki_apkg_export_output.apkg"), {
      loadSqlite: () => {
        asked++;
        return base();
      },
    });
    expect(pkg.notes).toHaveLength(3);
    expect(asked).toBe(1);
  });
});

describe("readAnkiPackage: bad input, in the product's words", () => {
  it("refuses a file that is not a ZIP", async () => {
    const text = new TextEncoder().encode("front,back\nq,a\n");
    expect(await refusal(readAnkiPackage(text))).toBe(ANKI_MESSAGES.notZip);
    expect(await refusal(readAnkiPackage(new Uint8Array(0)))).toBe(ANKI_MESSAGES.notZip);
  });

  it("refuses a password-protected ZIP", async () => {
    const zip = buildZip([{ name: "collection.anki2", data: new Uint8Array(100), flags: 1 }]);
    expect(await refusal(readAnkiPackage(zip))).toBe(ANKI_ZIP_MESSAGES.encrypted);
  });

  it("refuses a ZIP without a collection", async () => {
    const zip = buildZip([{ name: "media", data: new TextEncoder().encode("{}") }]);
    expect(await refusal(readAnkiPackage(zip))).toBe(ANKI_MESSAGES.noCollection);
  });

  it("refuses a corrupt or encrypted SQLite collection", async () => {
    const garbage = new Uint8Array(4096).map((_, k) => (k * 7919) % 251);
    for (const data of [garbage, new TextEncoder().encode("SQLite format 3\0 and then nothing")]) {
      const zip = buildZip([{ name: "collection.anki2", data }]);
      expect(await refusal(readAnkiPackage(zip))).toBe(ANKI_MESSAGES.corrupt);
    }
    // A real SQLite file that is not an Anki collection.
    const empty = await buildSchema11({ noteTypes: [], notes: [] });
    const truncated = empty.slice(0, 2048);
    expect(
      await refusal(readAnkiPackage(buildZip([{ name: "collection.anki21", data: truncated }]))),
    ).toBe(ANKI_MESSAGES.corrupt);
  });

  it("refuses an anki21b collection that is not zstd", async () => {
    const zip = buildZip([
      { name: "collection.anki21b", data: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), method: 0 },
    ]);
    expect(await refusal(readAnkiPackage(zip))).toBe(ANKI_ZIP_MESSAGES.damaged);
  });

  it("refuses a ZIP bomb (an entry that expands more than 100 times)", async () => {
    const zip = buildZip([{ name: "collection.anki2", data: new Uint8Array(20 * 1024 * 1024) }]);
    expect(await refusal(readAnkiPackage(zip))).toBe(ANKI_ZIP_MESSAGES.ratio);
  });

  it("refuses an entry whose data expands past the size it declares", async () => {
    const zip = buildZip([
      { name: "collection.anki2", data: new Uint8Array(500_000), declaredSize: 1000 },
    ]);
    expect(await refusal(readAnkiPackage(zip))).toBe(ANKI_ZIP_MESSAGES.damaged);
  });

  it("refuses a zstd bomb: a stored anki21b collection that decompresses past 500 MB", async () => {
    const zip = buildZip([{ name: "collection.anki21b", data: zstdRleBomb(4100), method: 0 }]);
    expect(await refusal(readAnkiPackage(zip))).toBe(ANKI_ZIP_MESSAGES.tooLarge);
  });

  it("refuses a file over 200 MB before reading it", async () => {
    expect(() => checkAnkiUpload("deck.apkg", MAX_ANKI_FILE_BYTES + 1)).toThrow(
      ANKI_MESSAGES.fileTooLarge,
    );
    expect(checkAnkiUpload("Deck.APKG", 10)).toBe("apkg");
    expect(checkAnkiUpload("backup.colpkg", 10)).toBe("colpkg");
    expect(() => checkAnkiUpload("deck.zip", 10)).toThrow(ANKI_MESSAGES.unsupported);
    const huge = new Uint8Array(MAX_ANKI_FILE_BYTES + 1);
    expect(await refusal(readAnkiPackage(huge))).toBe(ANKI_MESSAGES.fileTooLarge);
  });

  it("refuses a damaged protobuf media map", async () => {
    const bytes = await buildPackage(MIXED, { format: "anki21b" });
    const good = await readAnkiPackage(bytes);
    expect(good.notes).toHaveLength(3);
    const bad = buildZip([
      { name: "meta", data: encodeProto([[1, 3]]), method: 0 },
      {
        name: "collection.anki21b",
        data: await zstdCompress(await buildSchema11(MIXED)),
        method: 0,
      },
      { name: "media", data: await zstdCompress(Uint8Array.from([0x0a, 0x50, 1])), method: 0 },
    ]);
    expect(await refusal(readAnkiPackage(bad))).toBe(ANKI_ZIP_MESSAGES.damaged);
  });
});

/** A zstd frame of `blocks` RLE blocks of 128 KB each: 4 bytes a block, 128 KB out. */
function zstdRleBomb(blocks: number): Uint8Array {
  const out = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]; // magic, no content size, 128 KB window
  for (let k = 0; k < blocks; k++) {
    const header = (128 * 1024 * 8) | (1 << 1) | (k === blocks - 1 ? 1 : 0);
    out.push(header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0x41);
  }
  return Uint8Array.from(out);
}

describe("zstdDecompress", () => {
  it("round-trips what a real encoder wrote, across many blocks", async () => {
    const data = new TextEncoder().encode("lithium carbonate ".repeat(100_000));
    const out = zstdDecompress(await zstdCompress(data), data.length);
    // Compared as text: toEqual walks a 1.8 MB typed array element by element (seconds).
    expect(new TextDecoder().decode(out)).toBe(new TextDecoder().decode(data));
  });

  it("stops at the budget and refuses oversized windows or garbage", () => {
    expect(zstdDecompress(zstdRleBomb(2), 256 * 1024).length).toBe(256 * 1024);
    expect(() => zstdDecompress(zstdRleBomb(3), 256 * 1024)).toThrow(ZstdLimitError);
    const hugeWindow = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xf8, 0x01, 0x00, 0x00]);
    expect(() => zstdDecompress(hugeWindow, 1 << 30)).toThrow(ZstdLimitError);
    expect(() => zstdDecompress(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]), 100)).toThrow(
      ZstdLimitError,
    );
  });
});
