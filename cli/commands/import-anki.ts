import fs from "node:fs";
import path from "node:path";
import {
  ANKI_MESSAGES,
  checkAnkiUpload,
  convertAnkiPackage,
  parseTagMap,
  readAnkiPackage,
  type NoteIssue,
  type TagCategory,
  type TagCategoryChoices,
} from "../../src/core/import/anki";
import { parseCsv } from "../../src/core/import";
import { prepareAnkiCommit } from "../../src/core/import/anki/commit";
import { ankiCheckItem, planAnkiImport } from "../../src/core/import/anki/plan";
import { ImportError } from "../../src/core/import/errors";
import { parsePart, parseYear, usage } from "../options";
import { CliError } from "../output";
import type { Api } from "../runtime";
import {
  resolveDuplicates,
  withCommitCounts,
  type ImportOptions,
  type ImportRowError,
  type ImportSummary,
  type OnDuplicate,
  type Progress,
  visibilityFields,
} from "./import-common";

/** Anki packages `prite import` reads (issue 17). */
export const isAnkiFile = (file: string): boolean => /\.(?:apkg|colpkg)$/i.test(file);

/**
 * `prite import deck.apkg`: the web's Anki tab without the screens. The deck is read and converted by
 * the core reader, checked for duplicates (flashcards by front), its images uploaded, then one commit.
 */
export async function runAnkiImport(
  api: Api,
  file: string,
  opts: ImportOptions,
  mode: OnDuplicate,
  progress: Progress,
): Promise<ImportSummary> {
  const part = parsePart(opts.part ?? "1");
  const year = opts.year === undefined ? new Date().getFullYear() : parseYear(opts.year);
  const name = path.basename(file);
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    throw new CliError(`Cannot read ${file}: no such file, or no permission.`);
  }
  const tagChoices = opts.tagMap === undefined ? undefined : readTagMap(opts.tagMap);
  const inDeck = (e: NoteIssue): ImportRowError => ({
    file: name,
    row: e.note,
    message: e.message,
    unit: "note",
    ...(e.kind ? { kind: e.kind } : {}),
  });
  try {
    checkAnkiUpload(name, size);
    progress.update("Reading the deck", 0, 1);
    const pkg = await readAnkiPackage(new Uint8Array(fs.readFileSync(file)));
    const conversion = convertAnkiPackage(pkg, { part, year, tagCategories: tagChoices });
    if (tagChoices) checkTagsInDeck(opts.tagMap!, tagChoices, conversion.tags);
    const plan = planAnkiImport(conversion, new Date());
    progress.update("Reading the deck", 1, 1);
    const errors = plan.errors.map(inDeck);
    const warnings = plan.warnings.map(inDeck);
    const skippedNotes = plan.skipped.map(inDeck);
    const deck = {
      multipleChoice: plan.counts.multipleChoice,
      flashcards: plan.counts.flashcards,
      skippedNotes,
      images: plan.images.length,
      progressKept: 0,
      tags: plan.tags,
    };
    const files: ImportSummary["files"] = [
      {
        file: name,
        sheet: "",
        questions: plan.drafts.length,
        errors: errors.length,
        warnings: warnings.length,
      },
    ];
    if (plan.drafts.length === 0) throw new ImportError(ANKI_MESSAGES.noUsableNotes);

    const checks = plan.drafts.map((d, i) => ankiCheckItem(d, plan.views[i]!));
    const resolved = await resolveDuplicates(api, checks, mode, progress);
    const total = plan.drafts.length;
    const summary: ImportSummary = {
      dryRun: Boolean(opts.dryRun),
      files,
      total,
      duplicates: resolved.duplicates,
      merged: resolved.merged,
      imported: total - resolved.merged - resolved.skipped,
      skipped: resolved.skipped,
      notMergeable: resolved.notMergeable,
      errors,
      warnings,
      deck,
    };
    if (opts.dryRun) return summary;

    const keepProgress = Boolean(opts.keepProgress);
    const items = await prepareAnkiCommit(plan, pkg.media, resolved.items, {
      upload: (data) => api.imports.uploadMedia.mutate({ data }),
      keepProgress,
      onProgress: (done, all) => progress.update("Uploading images", done, all),
    });
    progress.update("Saving", 0, summary.imported + summary.merged);
    const result = await api.imports.commit.mutate({
      items,
      ...visibilityFields(opts),
      ...(keepProgress ? { keepProgress: true } : {}),
    });
    return {
      ...withCommitCounts(summary, result),
      deck: { ...deck, progressKept: result.progressKept },
    };
  } catch (err) {
    if (err instanceof ImportError) throw new CliError(`${name}: ${err.message}`);
    throw err;
  } finally {
    progress.done();
  }
}

/** Decks are imported one per command: each is its own commit and its own review. */
export function checkAnkiFiles(files: string[], opts: ImportOptions = {}): string | null {
  const decks = files.filter(isAnkiFile);
  if (decks.length === 0) {
    if (opts.tagMap !== undefined) throw usage("--tag-map applies to an Anki deck only.");
    return null;
  }
  if (files.length > 1) throw usage("Import one Anki deck at a time, without other files.");
  return decks[0]!;
}

/** `--tag-map FILE`: CSV `tag,category` rows, read with the import's CSV reader. */
export function readTagMap(file: string): Map<string, string> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    throw new CliError(`Cannot read ${file}: no such file, or no permission.`);
  }
  try {
    return parseTagMap(parseCsv(text, { delimiter: "," }));
  } catch (err) {
    if (err instanceof ImportError) {
      throw new CliError(`--tag-map ${path.basename(file)}: ${err.message} Nothing was imported.`);
    }
    throw err;
  }
}

/** A tag the deck does not have is a typo more often than not: refused before anything is sent. */
function checkTagsInDeck(file: string, choices: TagCategoryChoices, tags: TagCategory[]): void {
  const known = new Set(tags.map((t) => t.tag.toLowerCase()));
  const unknown = [...choices.keys()].filter((tag) => !known.has(tag));
  if (unknown.length > 0) {
    throw new CliError(
      `--tag-map ${path.basename(file)}: the deck has no tag ${unknown.join(", ")}. Nothing was imported.`,
    );
  }
}

/** One line per tag: what it sets, and why it sets nothing. */
export function formatTagCategories(tags: readonly TagCategory[]): string[] {
  if (tags.length === 0) return [];
  const why: Record<TagCategory["rule"], string> = {
    list: "",
    leaf: "",
    chosen: "",
    ankiTag: " (Anki's own tag)",
    deckName: " (the deck's name)",
    mostNotes: " (on more than half of the notes)",
  };
  return [
    "Tag categories (change with --tag-map FILE, CSV tag,category):",
    ...tags.map(
      (t) =>
        `  ${t.tag} → ${t.category === "" ? "no category" : t.category}${why[t.rule]}, ${t.notes} ${t.notes === 1 ? "note" : "notes"}`,
    ),
  ];
}
