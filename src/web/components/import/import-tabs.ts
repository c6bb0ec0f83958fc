/**
 * The Import screen's tabs, for the route's `?tab=` (issue 35 item 2). A module of its own: the route's
 * search check is in the main bundle, and importing it from import-page would pull the whole page in.
 */
export const IMPORT_TABS = ["bulk", "anki", "scores"] as const;
export type ImportTab = (typeof IMPORT_TABS)[number];
export const isImportTab = (value: unknown): value is ImportTab =>
  (IMPORT_TABS as readonly unknown[]).includes(value);
