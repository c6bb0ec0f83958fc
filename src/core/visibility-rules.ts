/**
 * Who sees a question (docs/product/visibility.md, decisions 350-354): its creator always; with
 * `private` no one else, with `program` the current members of the program whose bank holds it
 * (reserved ones: its directors only), with `public` every account.
 */
export const QUESTION_VISIBILITIES = ["private", "program", "public"] as const;
export type QuestionVisibility = (typeof QUESTION_VISIBILITIES)[number];

/** The longest statement of permission kept with public questions. */
export const SHARE_STATEMENT_MAX = 500;

export const VISIBILITY_MESSAGES = {
  VISIBILITY: "Visibility must be private, program or public",
  NOT_IN_PROGRAM: "You are not a member of a program, so the questions cannot be shared with one",
  STATEMENT_REQUIRED:
    "To make questions public, confirm that you may share them and name their source",
  STATEMENT_LONG: `The statement must be at most ${SHARE_STATEMENT_MAX} characters`,
} as const;

/** The stored columns a visibility is read from. */
export interface VisibilityColumns {
  isPublic: boolean;
  programId: string | null;
}

/** A stored question's visibility: public when isPublic, else program when it has a program, else private. */
export function visibilityOf(q: VisibilityColumns): QuestionVisibility {
  if (q.isPublic) return "public";
  return q.programId ? "program" : "private";
}

/** The statement a public share keeps, written from the source the user names. */
export function shareStatementFor(source: string): string {
  return `I may share these questions publicly. Source: ${source.trim()}`;
}

/** The default of a new question or import: program for a program's member, else the profile's choice. */
export function defaultVisibility(opts: {
  inProgram: boolean;
  publicByDefault: boolean;
}): QuestionVisibility {
  if (opts.inProgram) return "program";
  return opts.publicByDefault ? "public" : "private";
}

/**
 * The visibility a write asks for: `visibility` when given, else the original clients' `isPublic`
 * (true → public; false → private), else undefined (the caller's default).
 */
export function requestedVisibility(input: {
  visibility?: QuestionVisibility;
  isPublic?: boolean;
}): QuestionVisibility | undefined {
  if (input.visibility) return input.visibility;
  if (input.isPublic === undefined) return undefined;
  return input.isPublic ? "public" : "private";
}

export type VisibilityDecision =
  | { ok: true; isPublic: boolean; programId: string | null; shareStatement: string }
  | { ok: false; message: string };

/**
 * The stored columns for a chosen visibility, or the product's message when it may not be chosen:
 * program needs a program; public needs the statement (`keptStatement` is one already stored with
 * the question, which an edit that leaves it public need not repeat).
 */
export function decideVisibility(opts: {
  visibility: QuestionVisibility;
  programId: string | null;
  shareStatement?: string;
  keptStatement?: string;
}): VisibilityDecision {
  switch (opts.visibility) {
    case "private":
      return { ok: true, isPublic: false, programId: null, shareStatement: "" };
    case "program":
      if (!opts.programId) return { ok: false, message: VISIBILITY_MESSAGES.NOT_IN_PROGRAM };
      return { ok: true, isPublic: false, programId: opts.programId, shareStatement: "" };
    case "public": {
      const statement = (opts.shareStatement ?? "").trim() || (opts.keptStatement ?? "").trim();
      if (!statement) return { ok: false, message: VISIBILITY_MESSAGES.STATEMENT_REQUIRED };
      return { ok: true, isPublic: true, programId: null, shareStatement: statement };
    }
  }
}
