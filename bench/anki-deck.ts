import {
  BASIC,
  buildPackage,
  CLOZE,
  type TestNote,
} from "../src/core/import/anki/deck-builder.test-utils";

function notes(NOTES: number, IMAGES: number): TestNote[] {
  const out: TestNote[] = [];
  for (let k = 0; k < NOTES; k++) {
    const id = 1_700_000_000_000 + k;
    if (k % 3 === 0) {
      const options = ["Lithium", "Valproate", "Lamotrigine", "Carbamazepine"].map(
        (o) => `${o} ${k}`,
      );
      const correct = k % 4;
      out.push({
        id,
        noteTypeId: BASIC.id,
        fields: [
          `<div>Question ${k}: which mood stabilizer fits this vignette?</div><div><br></div> ` +
            options.map((o, i) => `<div>${"ABCD"[i]}. ${o}</div><div><BR></div>`).join(" "),
          options
            .map(
              (o, i) =>
                `<div><font color="${i === correct ? "#000000" : "#d5dbdb"}">${"ABCD"[i]}. ${o}</font></div>`,
            )
            .join(""),
        ],
      });
    } else if (k % 3 === 1) {
      out.push({
        id,
        noteTypeId: BASIC.id,
        fields: [
          `Finding ${k} on this scan? <img src="img${k % IMAGES}.png">`,
          `Answer ${k} &amp; <b>why</b>`,
        ],
        tags: "Neuroscience",
      });
    } else {
      out.push({
        id,
        noteTypeId: CLOZE.id,
        fields: [
          `{{c1::Clozapine}} (${k}) is for {{c2::treatment-resistant}} schizophrenia`,
          "ANC monitoring",
        ],
      });
    }
  }
  return out;
}

/** Incompressible bytes behind a PNG signature, like real images, 50 KB each: stored as PNGs. */
function images(IMAGES: number): Record<string, Uint8Array> {
  const media: Record<string, Uint8Array> = {};
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  for (let k = 0; k < IMAGES; k++) {
    const bytes = new Uint8Array(50_000);
    let x = k + 1;
    for (let i = 0; i < bytes.length; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      bytes[i] = x >>> 24;
    }
    bytes.set(signature, 0);
    media[`img${k}.png`] = bytes;
  }
  return media;
}

/**
 * Issue 17 §6's deck: NOTES anki21b notes, a third multiple choice written like the real ham deck
 * (options in the front, the answer marked by colour), a third Basic with an image, a third cloze
 * with two numbers; IMAGES images. Shared by the parse and the import benchmarks.
 */
export async function benchDeck(NOTES: number, IMAGES: number): Promise<Uint8Array> {
  return buildPackage(
    { noteTypes: [BASIC, CLOZE], notes: notes(NOTES, IMAGES) },
    { format: "anki21b", media: images(IMAGES) },
  );
}
