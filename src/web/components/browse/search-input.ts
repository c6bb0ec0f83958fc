/**
 * Browse's filters and the search they ask for. Apart from the page, so the first search can be asked
 * for with the session check (lib/early-data.ts) with exactly the input the page's first render uses.
 */
export const PAGE_SIZE = 20;
export const ALL = "all";

export interface Filters {
  text: string;
  part: string;
  category: string;
  visibility: "all" | "mine" | "private" | "program" | "public";
  type: string;
  source: string;
  /** Issue 36 item 5: list by item statistics (ALL: an ordinary search). */
  stats: string;
}

export const NO_FILTERS: Filters = {
  text: "",
  part: ALL,
  category: ALL,
  visibility: "all",
  type: ALL,
  source: ALL,
  stats: ALL,
};

/** The `questions.search` input of the filters `applied` (its pages start at cursor 1). */
export function searchInput(applied: Filters) {
  return {
    text: applied.text.trim() || undefined,
    part: applied.part === ALL ? undefined : applied.part,
    category: applied.category === ALL ? undefined : applied.category,
    visibility: applied.visibility,
    type: applied.type === ALL ? undefined : (applied.type as "flashcard" | "multipleChoice"),
    source: applied.source === ALL ? undefined : applied.source,
    // Only when asked: the first search's input (lib/early-data.ts) stays as it was.
    ...(applied.stats === ALL
      ? {}
      : { stats: applied.stats as "mostMissed" | "negativeDiscrimination" | "reported" }),
    pageSize: PAGE_SIZE,
  };
}

export const FIRST_CURSOR = 1;
