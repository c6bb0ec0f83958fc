import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CATEGORIES } from "../../constants";
import { ImportError } from "../errors";
import {
  categoryByTag,
  noteCategory,
  parseTagMap,
  tagCategories,
  type TagCategoryChoices,
} from "./tags";

type Note = { tags: string[]; deck: string };
const note = (tags: string[], deck = "PRITE review"): Note => ({ tags, deck });

/** The category each note gets, as the converter gives it. */
function categories(notes: Note[], choices?: TagCategoryChoices): string[] {
  const byTag = categoryByTag(tagCategories(notes, choices));
  return notes.map((n) => noteCategory(n.tags, byTag));
}

/** Notes that carry no tag of interest, so the others stay under half of the deck. */
const filler = (n: number): Note[] => Array.from({ length: n }, () => note([]));

describe("Anki tags → categories (issue 31)", () => {
  it("the issue's deck: 'PRITE::Neuro::Neurology' and 'child_and_adolescent_psychiatry' both set a category", () => {
    const notes = [
      note(["PRITE::Neuro::Neurology"]),
      note(["child_and_adolescent_psychiatry"]),
      note(["PRITE::Neuro::Neurology"]),
      note(["child_and_adolescent_psychiatry"]),
      ...filler(1),
    ];
    expect(categories(notes)).toEqual([
      "Neurology",
      "Child and adolescent psychiatry",
      "Neurology",
      "Child and adolescent psychiatry",
      "",
    ]);
    expect(tagCategories(notes)).toEqual([
      {
        tag: "child_and_adolescent_psychiatry",
        category: "Child and adolescent psychiatry",
        notes: 2,
        rule: "leaf",
      },
      { tag: "PRITE::Neuro::Neurology", category: "Neurology", notes: 2, rule: "leaf" },
    ]);
  });

  it("a level naming a category of the list sets it, ignoring case, '_' and '-': the leaf first, then the levels above", () => {
    const notes = [
      note(["substance_use_disorders"]),
      note(["PRITE::OBSESSIVE_COMPULSIVE-disorders"]),
      note(["Board::Neuroscience::Neurology"]),
      note(["Psychopharmacology::Child-Psychiatry"]),
      ...filler(4),
    ];
    expect(categories(notes).slice(0, 4)).toEqual([
      "Substance Use Disorders",
      "Obsessive-Compulsive Disorders",
      "Neuroscience",
      "Child Psychiatry",
    ]);
  });

  it("Anki's own tags and the deck's name are no category", () => {
    const notes = [
      note(["marked"], "Psych Boards"),
      note(["Leech"], "Psych Boards"),
      note(["Psych_Boards"], "Psych Boards"),
      note(["boards"], "Psych Boards::Boards"),
      ...filler(4),
    ];
    expect(categories(notes).slice(0, 4)).toEqual(["", "", "", ""]);
    expect(tagCategories(notes).map((t) => [t.tag, t.rule])).toEqual([
      ["boards", "deckName"],
      ["Leech", "ankiTag"],
      ["marked", "ankiTag"],
      ["Psych_Boards", "deckName"],
    ]);
  });

  it("a tag on more than half of the notes is no category; on half of them it still is", () => {
    const most = [note(["PRITE::Part_1", "Neurology"]), note(["PRITE::Part_1"]), note([])];
    expect(categories(most)).toEqual(["Neurology", "", ""]);
    expect(tagCategories(most).find((t) => t.tag === "PRITE::Part_1")?.rule).toBe("mostNotes");
    const half = [note(["Neurology"]), note(["Neurology"]), note([]), note([])];
    expect(categories(half)).toEqual(["Neurology", "Neurology", "", ""]);
  });

  it("a tag naming a category of the list sets it even on every note", () => {
    const notes = [note(["Psychopharmacology"]), note(["Psychopharmacology"])];
    expect(categories(notes)).toEqual(["Psychopharmacology", "Psychopharmacology"]);
  });

  it("several tags: one naming a category of the list wins, then the deepest leaf, then the first", () => {
    const notes = [
      note(["A::B::C::Neurology", "anxiety_disorders"]),
      note(["Epilepsy", "PRITE::Neuro::Neurology"]),
      note(["Seizures", "Epilepsy"]),
      ...filler(4),
    ];
    expect(categories(notes).slice(0, 3)).toEqual(["Anxiety Disorders", "Neurology", "Seizures"]);
  });

  it("the user's choice overrides the rule, any case, and an empty one leaves the tag out", () => {
    const notes = [note(["child_and_adolescent_psychiatry", "Peds"]), ...filler(2)];
    const choices = new Map([
      ["CHILD_AND_ADOLESCENT_PSYCHIATRY", "child psychiatry"],
      ["peds", ""],
    ]);
    expect(categories(notes, choices)[0]).toBe("Child Psychiatry");
    expect(categories(notes, new Map([["child_and_adolescent_psychiatry", ""]]))[0]).toBe("Peds");
  });

  it("property: a note's category is '' or what one of its tags sets, and a listed one wins", () => {
    const level = fc.constantFrom(
      "PRITE",
      "Neuro",
      "neurology",
      "Ethics",
      "marked",
      "x_y",
      "Child-Psychiatry",
    );
    const tag = fc.array(level, { minLength: 1, maxLength: 3 }).map((l) => l.join("::"));
    const notes = fc.array(
      fc.record({ tags: fc.array(tag, { maxLength: 4 }), deck: fc.constantFrom("Neuro", "Deck") }),
      { minLength: 1, maxLength: 12 },
    );
    fc.assert(
      fc.property(notes, (deck) => {
        const byTag = categoryByTag(tagCategories(deck));
        for (const n of deck) {
          const got = noteCategory(n.tags, byTag);
          const set = n.tags.map((t) => byTag.get(t.toLowerCase()) ?? "").filter((c) => c !== "");
          if (set.length === 0) expect(got).toBe("");
          else expect(set).toContain(got);
          const listed = set.filter((c) => (CATEGORIES as readonly string[]).includes(c));
          if (listed.length > 0) expect(listed).toContain(got);
        }
      }),
    );
  });
});

describe("parseTagMap: --tag-map's CSV rows", () => {
  it("reads tag,category rows, an optional header, and an empty category as none", () => {
    const map = parseTagMap([
      ["tag", "category"],
      ["PRITE::Neuro::Neurology", "neuroscience"],
      ["Peds", ""],
      [""],
    ]);
    expect([...map]).toEqual([
      ["prite::neuro::neurology", "Neuroscience"],
      ["peds", ""],
    ]);
  });

  it.each([
    [[["", "Ethics"]], "Row 1: the tag is empty."],
    [[["a", "Ethics", "extra"]], "Row 1: expected two fields, tag and category."],
    [[["a b", "Ethics"]], 'Row 1: "a b" is not an Anki tag (tags hold no spaces).'],
    [
      [
        ["a", "Ethics"],
        ["A", "Other"],
      ],
      "Row 2: the tag A is given twice.",
    ],
    [[["a", "x".repeat(101)]], "Row 1: the category is longer than 100 characters."],
  ])("refuses %j with its row", (rows, message) => {
    expect(() => parseTagMap(rows)).toThrow(new ImportError(message));
  });
});
