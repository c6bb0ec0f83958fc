import { Plus, Trash2 } from "lucide-react";
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from "react";
import { SUCCESS_CLOSE_DELAY_MS } from "@/core/constants";
import { PRITE_SCORE_MESSAGES } from "@/core/schemas/priteScore";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { OptionSelect } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { yearOptions } from "@/web/lib/options";
import { trpc } from "@/web/lib/trpc";
import {
  acceptPercentileInput,
  SCORE_CALL_DEFAULTS,
  scoreFailureText,
  type PriteScore,
} from "./score-format";

const OPTIONAL_FIELDS = [
  ["psychiatryPercentile", "Psychiatry Percentile"],
  ["neurosciencePercentile", "Neuroscience Percentile"],
  ["somaPercentile", "Somatic Percentile"],
  ["growthPercentile", "Growth Percentile"],
] as const;
type OptionalField = (typeof OPTIONAL_FIELDS)[number][0];

interface SectionDraft {
  key: number;
  name: string;
  percentile: string;
}

interface Draft {
  year: string;
  overallPercentile: string;
  psychiatryPercentile: string;
  neurosciencePercentile: string;
  somaPercentile: string;
  growthPercentile: string;
  sections: SectionDraft[];
  notes: string;
}

const text = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));

function draftFrom(score: PriteScore | null | undefined): Draft {
  return {
    year: score?.year ?? "",
    overallPercentile: text(score?.overallPercentile),
    psychiatryPercentile: text(score?.psychiatryPercentile),
    neurosciencePercentile: text(score?.neurosciencePercentile),
    somaPercentile: text(score?.somaPercentile),
    growthPercentile: text(score?.growthPercentile),
    sections: (score?.sections ?? []).map((s, i) => ({
      key: i,
      name: s.name,
      percentile: String(s.percentile),
    })),
    notes: score?.notes ?? "",
  };
}

const orNull = (value: string) => (value.trim() === "" ? null : Number(value));

/** docs/product/validation.md: sections only with a trimmed name and a percentile; empty optionals as null. */
export function scorePayload(draft: Draft) {
  return {
    year: draft.year,
    overallPercentile: Number(draft.overallPercentile),
    psychiatryPercentile: orNull(draft.psychiatryPercentile),
    neurosciencePercentile: orNull(draft.neurosciencePercentile),
    somaPercentile: orNull(draft.somaPercentile),
    growthPercentile: orNull(draft.growthPercentile),
    sections: draft.sections
      .filter((s) => s.name.trim() !== "" && s.percentile.trim() !== "")
      .map((s) => ({ name: s.name.trim(), percentile: Number(s.percentile) })),
    notes: draft.notes,
  };
}

interface PriteScoreFormProps {
  /** The record being edited; omitted to add a new one. */
  initial?: PriteScore | null;
  /** Runs 1.5 s after a successful save (docs/product/states.md). */
  onComplete: (saved: PriteScore) => void;
  /** Extra buttons beside Save (Skip, Cancel …). */
  secondaryAction?: ReactNode;
  submitLabel?: string;
}

/** The PRITE scores form in docs/product/screens.md, for onboarding and for adding or editing a record. */
export function PriteScoreForm({
  initial,
  onComplete,
  secondaryAction,
  submitLabel = "Save Scores",
}: PriteScoreFormProps) {
  const id = useId();
  const utils = trpc.useUtils();
  const create = trpc.scores.create.useMutation();
  const update = trpc.scores.update.useMutation();
  const { show, clear, banner } = useBanner();
  const [draft, setDraft] = useState<Draft>(() => draftFrom(initial));
  const [done, setDone] = useState(false);
  const nextSection = useRef(draft.sections.length);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const years = useMemo(() => {
    const initialYear = initial ? Number.parseInt(initial.year, 10) : null;
    return yearOptions(new Date(), Number.isFinite(initialYear) ? initialYear : null);
  }, [initial]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((previous) => ({ ...previous, [key]: value }));
  const setPercentile = (key: "overallPercentile" | OptionalField, value: string) =>
    setDraft((previous) => ({ ...previous, [key]: acceptPercentileInput(value, previous[key]) }));
  const setSection = (key: number, patch: Partial<SectionDraft>) =>
    setDraft((previous) => ({
      ...previous,
      sections: previous.sections.map((s) => (s.key === key ? { ...s, ...patch } : s)),
    }));

  const busy = create.isPending || update.isPending || done;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clear();
    if (!draft.year || draft.overallPercentile.trim() === "") {
      show("error", PRITE_SCORE_MESSAGES.REQUIRED);
      return;
    }
    try {
      const payload = scorePayload(draft);
      const saved = initial
        ? await update.mutateAsync({ ...payload, id: initial._id })
        : await create.mutateAsync(payload);
      await utils.scores.list.invalidate();
      setDone(true);
      show("success", "PRITE scores saved successfully");
      timer.current = window.setTimeout(() => onComplete(saved), SUCCESS_CLOSE_DELAY_MS);
    } catch (error) {
      const callDefault = initial ? SCORE_CALL_DEFAULTS.UPDATE : SCORE_CALL_DEFAULTS.CREATE;
      show("error", scoreFailureText(error, callDefault, "Failed to save PRITE scores"));
    }
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label="PRITE scores">
      {banner}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-year`}>Year</Label>
          <OptionSelect
            id={`${id}-year`}
            name="year"
            value={draft.year}
            onValueChange={(value) => set("year", value)}
            options={years}
            placeholder="Select Year"
            disabled={busy}
          />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-overall`}>Overall Percentile</Label>
          <Input
            id={`${id}-overall`}
            name="overallPercentile"
            inputMode="numeric"
            placeholder="0-99"
            value={draft.overallPercentile}
            onChange={(event) => setPercentile("overallPercentile", event.target.value)}
            disabled={busy}
            required
          />
        </div>
        {OPTIONAL_FIELDS.map(([field, label]) => (
          <div key={field} className="flex flex-col gap-2">
            <Label htmlFor={`${id}-${field}`}>
              {label} <span className="font-normal text-muted-foreground">(optional)</span>
            </Label>
            <Input
              id={`${id}-${field}`}
              name={field}
              inputMode="numeric"
              placeholder="0-99"
              value={draft[field]}
              onChange={(event) => setPercentile(field, event.target.value)}
              disabled={busy}
            />
          </div>
        ))}
      </div>

      <fieldset className="flex flex-col gap-3" disabled={busy}>
        <legend className="mb-2 text-sm font-medium">Additional Sections</legend>
        {draft.sections.map((section, index) => (
          <div key={section.key} className="flex items-end gap-2">
            <div className="flex flex-1 flex-col gap-2">
              <Label htmlFor={`${id}-section-${section.key}-name`}>Section {index + 1} Name</Label>
              <Input
                id={`${id}-section-${section.key}-name`}
                value={section.name}
                placeholder="e.g. Child Psychiatry"
                onChange={(event) => setSection(section.key, { name: event.target.value })}
              />
            </div>
            <div className="flex w-28 flex-col gap-2">
              <Label htmlFor={`${id}-section-${section.key}-percentile`}>Percentile</Label>
              <Input
                id={`${id}-section-${section.key}-percentile`}
                inputMode="numeric"
                placeholder="0-99"
                value={section.percentile}
                onChange={(event) =>
                  setSection(section.key, {
                    percentile: acceptPercentileInput(event.target.value, section.percentile),
                  })
                }
              />
            </div>
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Remove section ${index + 1}`}
              onClick={() =>
                set(
                  "sections",
                  draft.sections.filter((s) => s.key !== section.key),
                )
              }
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        ))}
        <Button
          variant="outline"
          className="w-fit"
          onClick={() =>
            set("sections", [
              ...draft.sections,
              { key: nextSection.current++, name: "", percentile: "" },
            ])
          }
        >
          <Plus aria-hidden="true" />
          Add Section
        </Button>
      </fieldset>

      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-notes`}>
          Notes <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Textarea
          id={`${id}-notes`}
          name="notes"
          rows={3}
          value={draft.notes}
          onChange={(event) => set("notes", event.target.value)}
          disabled={busy}
        />
      </div>

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {secondaryAction}
        <Button type="submit" busy={create.isPending || update.isPending} disabled={done}>
          {create.isPending || update.isPending ? "Saving..." : submitLabel}
        </Button>
      </div>
    </form>
  );
}
