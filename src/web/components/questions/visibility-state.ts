import { useRef, useState } from "react";
import type { QuestionVisibility } from "@/core/visibility-rules";
import { useSessionUser } from "@/web/lib/session";
import { trpc } from "@/web/lib/trpc";
import {
  EMPTY_VISIBILITY,
  shownVisibility,
  storedVisibilityDraft,
  visibilityRequest,
  type VisibilityContext,
  type VisibilityDraft,
  type VisibilityRequest,
} from "./visibility-draft";

// The choice's state apart from its fieldset (visibility-choice.tsx, with Radix's checkbox and the
// import's radio rows): a screen keeps the state from its first render and shows the fieldset in a
// later step, loaded then (issue 35 item 2, decision 421).

/** The user's program and Public Profile, and an edited question's stored level. */
export function useVisibilityContext(stored?: QuestionVisibility): VisibilityContext {
  const user = useSessionUser();
  const mine = trpc.programs.mine.useQuery(undefined, { staleTime: 60_000 });
  return {
    program: mine.isPending ? undefined : mine.data ? { name: mine.data.name } : null,
    publicByDefault: user.settings.publicProfile,
    ...(stored ? { stored } : {}),
  };
}

export interface VisibilityChoiceState {
  draft: VisibilityDraft;
  onChange: (draft: VisibilityDraft) => void;
  ctx: VisibilityContext;
  error: string | null;
  /** Where focus goes when the statement is missing. */
  consentRef: React.RefObject<HTMLButtonElement | null>;
}

/**
 * The choice's state for a screen: `check()` returns what to send, or null after showing why it may
 * not be sent (public without the statement) and moving focus to the checkbox.
 */
export function useVisibilityChoice(stored?: QuestionVisibility) {
  const ctx = useVisibilityContext(stored);
  const [draft, setDraft] = useState<VisibilityDraft>(() =>
    stored ? storedVisibilityDraft(stored) : EMPTY_VISIBILITY,
  );
  const [error, setError] = useState<string | null>(null);
  const consentRef = useRef<HTMLButtonElement | null>(null);
  const check = (): VisibilityRequest | null => {
    const result = visibilityRequest(draft, ctx);
    if (result.ok) {
      setError(null);
      return result.request;
    }
    setError(result.message);
    consentRef.current?.focus();
    return null;
  };
  const state: VisibilityChoiceState = {
    draft,
    onChange: (next) => {
      setDraft(next);
      setError(null);
    },
    ctx,
    error,
    consentRef,
  };
  return { state, check, shown: shownVisibility(draft, ctx) };
}
