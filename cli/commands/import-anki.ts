import fs from "node:fs";
import path from "node:path";
import {
  ANKI_MESSAGES,
  checkAnkiUpload,
  convertAnkiPackage,
  readAnkiPackage,
  type NoteIssue,
} from "../../src/core/import/anki";
import {
  ankiCheckItem,
  ankiCommitQuestion,
  planAnkiImport,
  type AnkiCommitQuestion,
} from "../../src/core/import/anki/plan";
import { uploadDeckImages } from "../../src/core/import/anki/upload";
import { ImportError } from "../../src/core/import/errors";
import type { CommitItem } from "../../src/core/import/plan";
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
} from "./import";

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
  const inDeck = (e: NoteIssue): ImportRowError => ({
    file: name,
    row: e.note,
    message: e.message,
    unit: "note",
  });
  try {
    checkAnkiUpload(name, size);
    progress.update("Reading the deck", 0, 1);
    const pkg = await readAnkiPackage(new Uint8Array(fs.readFileSync(file)));
    const plan = planAnkiImport(convertAnkiPackage(pkg, { part, year }));
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

    // Only the images of questions that will be written are sent.
    const needed = new Set(
      plan.drafts.flatMap((d, i) => (resolved.items[i]!.action === "skip" ? [] : d.images)),
    );
    const hashes = await uploadDeckImages(
      plan.images.filter((n) => needed.has(n)),
      pkg.media,
      (data) => api.imports.uploadMedia.mutate({ data }),
      (done, all) => progress.update("Uploading images", done, all),
    );
    const keepProgress = Boolean(opts.keepProgress);
    const items: CommitItem<AnkiCommitQuestion>[] = plan.drafts.map((draft, i) => ({
      question: ankiCommitQuestion(draft, plan.views[i]!, { hashes, keepProgress }),
      ...resolved.items[i]!,
    }));
    progress.update("Saving", 0, summary.imported + summary.merged);
    const result = await api.imports.commit.mutate({
      items,
      ...(opts.public ? { isPublic: true } : {}),
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
export function checkAnkiFiles(files: string[]): string | null {
  const decks = files.filter(isAnkiFile);
  if (decks.length === 0) return null;
  if (files.length > 1) throw usage("Import one Anki deck at a time, without other files.");
  return decks[0]!;
}
