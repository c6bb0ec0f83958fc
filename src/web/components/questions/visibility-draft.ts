import {
  SHARE_STATEMENT_MAX,
  VISIBILITY_MESSAGES,
  defaultVisibility,
  shareStatementFor,
  type QuestionVisibility,
} from "@/core/visibility-rules";

/**
 * The visibility choice of every screen that creates or edits questions (docs/product/visibility.md):
 * what the user picked, and for public the statement that they may share the questions.
 */
export interface VisibilityDraft {
  /** The level picked; null until the user picks one (the default shows and is sent). */
  chosen: QuestionVisibility | null;
  /** "I may share these questions publicly". */
  consent: boolean;
  /** The questions' source, named in the statement. */
  source: string;
}

export const EMPTY_VISIBILITY: VisibilityDraft = { chosen: null, consent: false, source: "" };

/** What the screen knows about the user and, for an edit, the question. */
export interface VisibilityContext {
  /** The user's program, or null; undefined while it is being read. */
  program: { name: string } | null | undefined;
  /** The Public Profile setting (the default of a user in no program). */
  publicByDefault: boolean;
  /** An edited question's stored level. */
  stored?: QuestionVisibility;
}

/** The longest source that fits the statement. */
export const SHARE_SOURCE_MAX = SHARE_STATEMENT_MAX - shareStatementFor("").length;

/** The level shown as picked: the user's pick, else the stored one, else the server's default. */
export function shownVisibility(
  draft: VisibilityDraft,
  ctx: VisibilityContext,
): QuestionVisibility {
  return (
    draft.chosen ??
    ctx.stored ??
    defaultVisibility({ inProgram: Boolean(ctx.program), publicByDefault: ctx.publicByDefault })
  );
}

/** The levels offered: program only to a member (or for a question already in a program). */
export function visibilityLevels(ctx: VisibilityContext): QuestionVisibility[] {
  return ctx.program || ctx.stored === "program"
    ? ["private", "program", "public"]
    : ["private", "public"];
}

/** What a write sends: the level and, for public, the statement. */
export interface VisibilityRequest {
  visibility?: QuestionVisibility;
  shareStatement?: string;
}

/**
 * The request for the draft, or the product's message when it may not be sent: public needs the
 * checkbox and a source, unless the question is public already (its statement is kept). While the
 * program is still being read and nothing was picked, nothing is sent: the server applies the same
 * default.
 */
export function visibilityRequest(
  draft: VisibilityDraft,
  ctx: VisibilityContext,
): { ok: true; request: VisibilityRequest } | { ok: false; message: string } {
  if (draft.chosen === null && ctx.stored === undefined && ctx.program === undefined) {
    return { ok: true, request: {} };
  }
  const visibility = shownVisibility(draft, ctx);
  if (visibility === "program" && !ctx.program && ctx.stored !== "program") {
    return { ok: false, message: VISIBILITY_MESSAGES.NOT_IN_PROGRAM };
  }
  if (visibility !== "public") return { ok: true, request: { visibility } };
  const source = draft.source.trim();
  if (draft.consent && source) {
    return { ok: true, request: { visibility, shareStatement: shareStatementFor(source) } };
  }
  if (ctx.stored === "public" && !draft.consent && !source) {
    return { ok: true, request: { visibility } };
  }
  return { ok: false, message: VISIBILITY_MESSAGES.STATEMENT_REQUIRED };
}

/** A stored question's draft: its level, nothing to confirm yet. */
export function storedVisibilityDraft(stored: QuestionVisibility): VisibilityDraft {
  return { ...EMPTY_VISIBILITY, chosen: stored };
}
