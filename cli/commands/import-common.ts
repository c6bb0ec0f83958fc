import {
  QUESTION_VISIBILITIES,
  VISIBILITY_MESSAGES,
  shareStatementFor,
  type QuestionVisibility,
} from "../../src/core/visibility";
import type { TagCategory } from "../../src/core/import/anki/tags";
import { chunk, type CommitItem } from "../../src/core/import/plan";
import { CHECK_DUPLICATES_MAX } from "../../src/server/features/imports/imports.types";
import type { Api } from "../runtime";

/** What `prite import` of files and of an Anki deck share: options, summary, duplicate check. */

export type OnDuplicate = "skip" | "keep-both" | "newer" | "metadata";
export const ON_DUPLICATE: readonly OnDuplicate[] = ["skip", "keep-both", "newer", "metadata"];

export interface ImportOptions {
  part?: string;
  year?: string;
  format?: string;
  headerRow?: string;
  /** commander's --no-header sets header to false. */
  header?: boolean;
  sheet?: string;
  questionCol?: string;
  optionCols?: string;
  answerCol?: string;
  categoryCol?: string;
  explanationCol?: string;
  public?: boolean;
  /** private | program | public (docs/product/visibility.md); default: program for a program's member. */
  visibility?: string;
  /** With --visibility public: the source the user may share the questions from. */
  shareSource?: string;
  onDuplicate?: string;
  dryRun?: boolean;
  /** Anki decks: each card's Anki scheduling becomes the study state. */
  keepProgress?: boolean;
  /** Anki decks: a CSV file of `tag,category` rows overriding the category a tag sets. */
  tagMap?: string;
}

export interface ImportRowError {
  file: string;
  /** The row, or for an Anki deck the note (1-based, in creation order). */
  row: number;
  message: string;
  unit?: "note";
  /** A deck warning's kind (ANKI_WARNING_KINDS): warnings of one kind print as one line. */
  kind?: string;
}

export interface ImportSummary {
  dryRun: boolean;
  files: { file: string; sheet: string; questions: number; errors: number; warnings: number }[];
  /** Questions read from the files (rows with errors not included). */
  total: number;
  duplicates: number;
  merged: number;
  imported: number;
  skipped: number;
  /** Duplicates whose match belongs to another user, so --on-duplicate newer|metadata skipped them. */
  notMergeable: number;
  /** Rows that could not become questions, with file and row number. */
  errors: ImportRowError[];
  /** Rows imported with a note from the parser (e.g. an answer it could not read: imported without one). */
  warnings: ImportRowError[];
  /** An Anki deck's counts by kind, the notes it skipped with the reason, images and kept progress. */
  deck?: {
    multipleChoice: number;
    flashcards: number;
    skippedNotes: ImportRowError[];
    images: number;
    progressKept: number;
    /** Every tag of the deck with the category it set. */
    tags: TagCategory[];
  };
}

export interface Progress {
  update(label: string, done: number, total: number): void;
  done(): void;
}

export const silentProgress: Progress = { update: () => {}, done: () => {} };

/** Questions per duplicate-check call: ten calls for a 10,000-row file, each well under the limit. */
export const CLI_CHECK_BATCH = Math.min(1_000, CHECK_DUPLICATES_MAX);

export interface Resolved {
  /** For each question in order: its action and whether it had a duplicate. */
  items: Omit<CommitItem, "question">[];
  duplicates: number;
  merged: number;
  skipped: number;
  notMergeable: number;
}

/**
 * The duplicate check in batches, each flagged question resolved by --on-duplicate: skip, keep both,
 * or merge (newer/metadata) into the caller's own match; another user's match is skipped.
 */
export async function resolveDuplicates(
  api: Api,
  checkItems: readonly Parameters<
    Api["imports"]["checkDuplicates"]["mutate"]
  >[0]["questions"][number][],
  mode: OnDuplicate,
  progress: Progress,
): Promise<Resolved> {
  const out: Resolved = {
    items: checkItems.map(() => ({ action: "create" })),
    duplicates: 0,
    merged: 0,
    skipped: 0,
    notMergeable: 0,
  };
  let done = 0;
  progress.update("Checking for duplicates", 0, checkItems.length);
  const batches = chunk(checkItems, CLI_CHECK_BATCH);
  const ask = (batch: (typeof batches)[number]) => {
    const call = api.imports.checkDuplicates.mutate({ questions: batch });
    // Awaited in its turn; an import that fails on an earlier batch leaves no unhandled rejection.
    call.catch(() => undefined);
    return call;
  };
  /** Calls under way, by batch. */
  const asked = new Map<number, ReturnType<typeof ask>>();
  for (const [b, batch] of batches.entries()) {
    if (!asked.has(b)) asked.set(b, ask(batch));
    // From the second batch on (the first builds the server's index of the bank), the next batch is
    // asked before this one is answered: the server scores one batch while its search workers look
    // up the next (decision 422).
    if (b >= 1 && b + 1 < batches.length) asked.set(b + 1, ask(batches[b + 1]!));
    const offset = done;
    const { results } = await asked.get(b)!;
    asked.delete(b);
    for (const result of results) {
      if (!result.isDuplicate || result.matches.length === 0) continue;
      const item = out.items[offset + result.index]!;
      out.duplicates += 1;
      item.hadDuplicate = true;
      if (mode === "skip") {
        item.action = "skip";
        out.skipped += 1;
      } else if (mode === "newer" || mode === "metadata") {
        // Merging is only into the caller's own questions; another user's match is skipped.
        const own = result.matches.find((m) => m.canMerge);
        if (own) {
          item.action = { merge: mode, targetId: own.question._id };
          out.merged += 1;
        } else {
          item.action = "skip";
          out.skipped += 1;
          out.notMergeable += 1;
        }
      }
    }
    done += batch.length;
    progress.update("Checking for duplicates", done, checkItems.length);
  }
  return out;
}

/** The summary with the counts the commit reports (the server's word on what it did). */
export function withCommitCounts(
  summary: ImportSummary,
  result: Pick<ImportSummary, "total" | "duplicates" | "merged" | "imported" | "skipped">,
): ImportSummary {
  const { total, duplicates, merged, imported, skipped } = result;
  return { ...summary, total, duplicates, merged, imported, skipped };
}

/**
 * The visibility fields of an import's commit: --visibility (with --share-source for public), or the
 * original --public flag, or nothing (the server's default: program for a program's member).
 */
export function visibilityFields(opts: ImportOptions): {
  visibility?: QuestionVisibility;
  isPublic?: boolean;
  shareStatement?: string;
} {
  if (opts.visibility !== undefined) {
    const level = opts.visibility.trim().toLowerCase();
    if (!(QUESTION_VISIBILITIES as readonly string[]).includes(level)) {
      throw new Error(VISIBILITY_MESSAGES.VISIBILITY);
    }
    return {
      visibility: level as QuestionVisibility,
      ...(opts.shareSource ? { shareStatement: shareStatementFor(opts.shareSource) } : {}),
    };
  }
  return opts.public ? { isPublic: true } : {};
}
