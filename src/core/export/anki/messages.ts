/** What the web and the CLI say about "Export for Anki" (decision 245); no code, so the web's chunk stays small. */
export const ANKI_EXPORT_MESSAGES = {
  EXPORTED: "Anki deck exported successfully",
  NOTHING: "You have no questions to export yet. Create or import some first.",
} as const;
