import { CATEGORIES, LIMITS } from "../../constants";
import { ImportError } from "../errors";

/**
 * Anki tags → categories (issue 31, decision 285). Anki tags cannot hold spaces ('_' stands for
 * one) and nest with '::'. A tag sets the category of the list that one of its levels names
 * (the leaf first, then the levels above it), else its leaf becomes a category of its own, unless
 * the tag is no subject at all: Anki's own tags, the deck's name, or a tag on more than half of
 * the deck's notes (a deck-wide label such as 'PRITE::Part_1'). Pure.
 */

/** Why a tag sets the category it sets; the CLI and the review show it. */
export type TagRule = "list" | "leaf" | "ankiTag" | "deckName" | "mostNotes" | "chosen";

export interface TagCategory {
  /** The tag as the deck first writes it (Anki compares tags ignoring case). */
  tag: string;
  /** The category it sets; '' for none. */
  category: string;
  /** Notes carrying it. */
  notes: number;
  rule: TagRule;
}

/** The user's choices, by tag (any case): tag → category, '' for none. */
export type TagCategoryChoices = ReadonlyMap<string, string>;

/** Tags Anki itself adds: they say how a card was studied, not what it is about. */
const ANKI_OWN_TAGS = new Set(["marked", "leech"]);

/** Case, '_', '-' and runs of spaces ignored: the form names are compared in. */
export const tagKey = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[\s_-]+/g, " ")
    .trim();

const LIST_BY_KEY = new Map<string, string>(CATEGORIES.map((c) => [tagKey(c), c]));

/** The category of the list `name` is written as, or null. */
export const listCategory = (name: string): string | null => LIST_BY_KEY.get(tagKey(name)) ?? null;

const levelsOf = (tag: string): string[] => tag.split("::").filter((level) => level.trim() !== "");

/** The list category the leaf names, else the nearest level above it that names one. */
function listCategoryOfTag(tag: string): string | null {
  const levels = levelsOf(tag);
  for (let i = levels.length - 1; i >= 0; i--) {
    const found = listCategory(levels[i]!);
    if (found) return found;
  }
  return null;
}

/** 'child_and_adolescent_psychiatry' → 'Child and adolescent psychiatry'; 'Neurology' as it is. */
function leafCategory(tag: string): string {
  const leaf = (levelsOf(tag).pop() ?? "").replace(/_/g, " ").replace(/\s+/g, " ").trim();
  const named = /\p{Lu}/u.test(leaf) ? leaf : leaf.charAt(0).toUpperCase() + leaf.slice(1);
  return named.slice(0, LIMITS.CATEGORY).trim();
}

/** A category as the user typed it: the list's spelling when it names one, else trimmed. */
export function chosenCategory(value: string): string {
  const trimmed = value.replace(/\s+/g, " ").trim();
  return listCategory(trimmed) ?? trimmed;
}

/**
 * Every tag of the deck with the category it sets, sorted by tag. `notes` are the deck's notes
 * (their tags and deck); `choices` override the rule for the tags they name.
 */
export function tagCategories(
  notes: readonly { tags: readonly string[]; deck: string }[],
  choices: TagCategoryChoices = new Map(),
): TagCategory[] {
  const seen = new Map<string, { tag: string; notes: number }>();
  const deckNames = new Set<string>();
  for (const note of notes) {
    if (note.deck !== "") {
      deckNames.add(tagKey(note.deck));
      deckNames.add(tagKey(levelsOf(note.deck).pop() ?? ""));
    }
    for (const tag of new Set(note.tags.map((t) => t.toLowerCase()))) {
      const entry = seen.get(tag);
      if (entry) entry.notes += 1;
      else seen.set(tag, { tag: note.tags.find((t) => t.toLowerCase() === tag)!, notes: 1 });
    }
  }
  const chosen = new Map([...choices].map(([tag, category]) => [tag.toLowerCase(), category]));
  const out = [...seen.entries()].map(([lower, { tag, notes: count }]): TagCategory => {
    const choice = chosen.get(lower);
    if (choice !== undefined) {
      return { tag, category: chosenCategory(choice), notes: count, rule: "chosen" };
    }
    const listed = listCategoryOfTag(tag);
    if (listed) return { tag, category: listed, notes: count, rule: "list" };
    const rule: TagRule | null = ANKI_OWN_TAGS.has(lower)
      ? "ankiTag"
      : deckNames.has(tagKey(tag)) || deckNames.has(tagKey(levelsOf(tag).pop() ?? ""))
        ? "deckName"
        : count > notes.length / 2
          ? "mostNotes"
          : null;
    if (rule) return { tag, category: "", notes: count, rule };
    return { tag, category: leafCategory(tag), notes: count, rule: "leaf" };
  });
  return out.sort((a, b) => a.tag.localeCompare(b.tag, "en", { sensitivity: "base" }));
}

/** Tag (lower case) → category, for `noteCategory`. */
export const categoryByTag = (tags: readonly TagCategory[]): Map<string, string> =>
  new Map(tags.map((t) => [t.tag.toLowerCase(), t.category]));

/**
 * A note's category from its tags: a tag setting a category of the list wins, then the deepest
 * leaf ('A::B::C' before 'D'), then the first written; '' when none sets one.
 */
export function noteCategory(tags: readonly string[], byTag: ReadonlyMap<string, string>): string {
  let best: { category: string; listed: boolean; depth: number } | null = null;
  for (const tag of tags) {
    const category = byTag.get(tag.toLowerCase()) ?? "";
    if (category === "") continue;
    const listed = listCategory(category) !== null;
    const depth = levelsOf(tag).length;
    if (
      best === null ||
      (listed && !best.listed) ||
      (listed === best.listed && depth > best.depth)
    ) {
      best = { category, listed, depth };
    }
  }
  return best?.category ?? "";
}

/**
 * A tag map's rows (CSV `tag,category`, an optional `tag,category` header) as choices. A row
 * without a tag, with more than two fields, a tag given twice or a category over the length limit
 * is refused with its row number, so a mistyped file imports nothing.
 */
export function parseTagMap(rows: readonly (readonly string[])[]): Map<string, string> {
  const choices = new Map<string, string>();
  rows.forEach((row, i) => {
    const at = `Row ${i + 1}`;
    const [tag = "", category = "", ...rest] = row.map((field) => field.trim());
    if (i === 0 && tag.toLowerCase() === "tag" && category.toLowerCase() === "category") return;
    if (row.every((field) => field.trim() === "")) return;
    if (rest.some((field) => field !== "")) {
      throw new ImportError(`${at}: expected two fields, tag and category.`);
    }
    if (tag === "") throw new ImportError(`${at}: the tag is empty.`);
    if (/\s/.test(tag))
      throw new ImportError(`${at}: "${tag}" is not an Anki tag (tags hold no spaces).`);
    if (choices.has(tag.toLowerCase())) {
      throw new ImportError(`${at}: the tag ${tag} is given twice.`);
    }
    if (chosenCategory(category).length > LIMITS.CATEGORY) {
      throw new ImportError(`${at}: the category is longer than ${LIMITS.CATEGORY} characters.`);
    }
    choices.set(tag.toLowerCase(), chosenCategory(category));
  });
  return choices;
}
