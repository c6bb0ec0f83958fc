import { useId, useRef, useState } from "react";
import type { QuestionVisibility } from "@/core/visibility";
import { ChoiceRadio } from "@/web/components/import/question-fields";
import { Checkbox } from "@/web/components/ui/checkbox";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { useSessionUser } from "@/web/lib/session";
import { trpc } from "@/web/lib/trpc";
import {
  EMPTY_VISIBILITY,
  SHARE_SOURCE_MAX,
  shownVisibility,
  storedVisibilityDraft,
  visibilityLevels,
  visibilityRequest,
  type VisibilityContext,
  type VisibilityDraft,
  type VisibilityRequest,
} from "./visibility-draft";

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

const HINTS: Record<QuestionVisibility, string> = {
  private: "Only you see them.",
  program: "You and the program's current members see them.",
  public: "Every account on this server sees them.",
};

/**
 * Who sees the questions (docs/product/visibility.md): Private, My program (members only) or Public;
 * Public asks for the statement that the user may share them, naming their source.
 */
export function VisibilityChoice({
  state,
  legend = "Who can see these questions",
}: {
  state: VisibilityChoiceState;
  legend?: string;
}) {
  const id = useId();
  const { draft, onChange, ctx, error } = state;
  const shown = shownVisibility(draft, ctx);
  const labels: Record<QuestionVisibility, string> = {
    private: "Private",
    program: ctx.program ? `My program: ${ctx.program.name}` : "My program",
    public: "Public",
  };
  const keptPublic = ctx.stored === "public";
  return (
    <fieldset className="grid min-w-0 gap-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {visibilityLevels(ctx).map((level) => (
        <ChoiceRadio
          key={level}
          id={`${id}-${level}`}
          name={`${id}-visibility`}
          value={level}
          label={labels[level]}
          hint={HINTS[level]}
          checked={shown === level}
          onSelect={() => onChange({ ...draft, chosen: level })}
        />
      ))}
      {shown === "public" && (
        <div className="grid gap-3 rounded-md border border-dashed p-3">
          {keptPublic && (
            <p className="text-sm text-muted-foreground">
              Already public: the statement given when it was shared is kept. Confirm and name a
              source to replace it.
            </p>
          )}
          <div className="flex min-h-11 items-start gap-3">
            <Checkbox
              id={`${id}-consent`}
              ref={state.consentRef}
              checked={draft.consent}
              aria-invalid={error ? true : undefined}
              aria-required={!keptPublic}
              onCheckedChange={(v) => onChange({ ...draft, consent: v === true })}
              className="mt-0.5"
            />
            <Label htmlFor={`${id}-consent`} className="leading-snug">
              I may share these questions publicly
            </Label>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-source`}>Source</Label>
            <Input
              id={`${id}-source`}
              value={draft.source}
              maxLength={SHARE_SOURCE_MAX}
              aria-required={!keptPublic}
              aria-invalid={error && !draft.source.trim() ? true : undefined}
              placeholder="e.g. written by me, or the book and its licence"
              onChange={(e) => onChange({ ...draft, source: e.target.value })}
            />
          </div>
        </div>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}
