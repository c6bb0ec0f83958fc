import { describe, expect, it } from "vitest";
import { prepareAnkiCommit } from "./commit";
import { convertAnkiPackage } from "./convert";
import { BASIC, buildPackage } from "./deck-builder.test-utils";
import { planAnkiImport } from "./plan";
import { readAnkiPackage } from "./read";

const NOW = new Date("2026-06-01T12:00:00Z");
/** A 1×1 PNG, and the same with one more byte after its end: two distinct images. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);
const PNG2 = Uint8Array.from([...PNG, 0]);

describe("prepareAnkiCommit: the web's and the CLI's one step before the commit", () => {
  it("uploads only the images of drafts that will be written, then gives each draft with its action", async () => {
    const pkg = await readAnkiPackage(
      await buildPackage(
        {
          noteTypes: [BASIC],
          notes: [
            { id: 1, noteTypeId: BASIC.id, fields: ["One <img src='a.png'>", "x"] },
            { id: 2, noteTypeId: BASIC.id, fields: ["Two <img src='b.png'>", "y"] },
          ],
        },
        { format: "anki21b", media: { "a.png": PNG, "b.png": PNG2 } },
      ),
    );
    const plan = planAnkiImport(convertAnkiPackage(pkg, { part: "1", year: 2024 }), NOW);
    const sent: string[] = [];
    const progress: [number, number][] = [];
    const items = await prepareAnkiCommit(
      plan,
      pkg.media,
      [{ action: "create", hadDuplicate: true }, { action: "skip" }],
      {
        upload: async (data) => {
          sent.push(data);
          return { sha256: "ab".repeat(32) };
        },
        keepProgress: false,
        onProgress: (done, total) => progress.push([done, total]),
      },
    );
    expect(sent).toHaveLength(1);
    expect(atob(sent[0]!).length).toBe(PNG.length);
    expect(progress).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect(items.map((i) => [i.action, i.hadDuplicate, i.question.text])).toEqual([
      ["create", true, `One <img src="${"ab".repeat(32)}">`],
      ["skip", undefined, "Two "],
    ]);
  });
});
