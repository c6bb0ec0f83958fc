import { useId, useState } from "react";
import { CATEGORIES } from "@/core/constants";
import type { TagCategory } from "@/core/import/anki/tags";
import { Input } from "@/web/components/ui/input";

const WHY_NONE: Partial<Record<TagCategory["rule"], string>> = {
  ankiTag: "Anki's own tag",
  deckName: "the deck's name",
  mostNotes: "on more than half of the notes",
};

/**
 * The Anki review's tag list (issue 31): each tag with the category it sets, which the user can
 * change (a category of the list or any other; empty for none). A change is applied when the field
 * is left or Enter is pressed, since it converts the deck again.
 */
export function TagCategories({
  tags,
  onChange,
}: {
  tags: readonly TagCategory[];
  onChange: (tag: string, category: string) => void;
}) {
  const headingId = useId();
  const listId = useId();
  if (tags.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="grid gap-2">
      <h3 id={headingId} className="font-medium">
        Tag categories
      </h3>
      <p className="text-sm text-muted-foreground">
        Each tag sets the category shown; a note with several takes the one from the category list,
        else its deepest tag. Change any of them, or empty one for no category.
      </p>
      <datalist id={listId}>
        {CATEGORIES.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <ul className="grid max-h-80 gap-2 overflow-y-auto" aria-label="Tag categories">
        {tags.map((t) => (
          <TagRow key={`${t.tag}\u0000${t.category}`} tag={t} listId={listId} onChange={onChange} />
        ))}
      </ul>
    </section>
  );
}

function TagRow({
  tag,
  listId,
  onChange,
}: {
  tag: TagCategory;
  listId: string;
  onChange: (tag: string, category: string) => void;
}) {
  const [value, setValue] = useState(tag.category);
  const apply = () => {
    if (value.trim() !== tag.category) onChange(tag.tag, value);
  };
  const why = tag.category === "" ? WHY_NONE[tag.rule] : undefined;
  return (
    <li className="grid items-center gap-1 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] sm:gap-3">
      <span className="text-sm break-all">
        <code>{tag.tag}</code>{" "}
        <span className="text-muted-foreground">
          ({tag.notes} {tag.notes === 1 ? "note" : "notes"}
          {why ? `; ${why}` : ""})
        </span>
      </span>
      <Input
        aria-label={`Category for tag ${tag.tag}`}
        list={listId}
        value={value}
        placeholder="No category"
        onChange={(e) => setValue(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === "Enter") apply();
        }}
      />
    </li>
  );
}
