import { useId } from "react";
import type { QuestionVisibility } from "@/core/visibility-rules";
import { ChoiceRadio } from "@/web/components/import/question-fields";
import { Checkbox } from "@/web/components/ui/checkbox";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { SHARE_SOURCE_MAX, shownVisibility, visibilityLevels } from "./visibility-draft";
import type { VisibilityChoiceState } from "./visibility-state";

export {
  useVisibilityChoice,
  useVisibilityContext,
  type VisibilityChoiceState,
} from "./visibility-state";

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
