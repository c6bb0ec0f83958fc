/**
 * The Anki reader as the web runs it. This module, sql.js and its WASM are fetched only when a deck
 * is chosen on the Anki tab (`import("./anki-reader")`): never in the first page load.
 */
import wasmUrl from "sql.js/dist/sql-wasm-browser.wasm?url";
import {
  convertAnkiPackage,
  readAnkiPackage,
  sqlJsLoader,
  type AnkiConvertOptions,
  type AnkiPackage,
} from "@/core/import/anki";
import { planAnkiImport, type AnkiPlan } from "@/core/import/anki/plan";

const loadSqlite = sqlJsLoader({ locateFile: () => wasmUrl });

export async function readDeck(bytes: Uint8Array): Promise<AnkiPackage> {
  return readAnkiPackage(bytes, { loadSqlite });
}

/** Notes → the review step's plan, for the part, year and tag categories chosen. */
export function planDeck(pkg: AnkiPackage, options: AnkiConvertOptions): AnkiPlan {
  return planAnkiImport(convertAnkiPackage(pkg, options), new Date());
}

export { prepareAnkiCommit } from "@/core/import/anki/commit";
export { ankiCheckItem } from "@/core/import/anki/plan";
