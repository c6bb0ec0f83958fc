import { useState } from "react";
import { MANUAL_MERGE_FIELDS, type ManualMergeField, type MergeStrategy } from "@/core/similarity";
import { Alert } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Checkbox } from "@/web/components/ui/checkbox";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";
import { Label } from "@/web/components/ui/label";
import { OptionSelect } from "@/web/components/ui/select";
import {
  defaultResolution,
  previewText,
  resolutionFor,
  type DuplicateItem,
  type MatchView,
  type Resolution,
} from "@/core/import/plan";
import { ChoiceRadio, OptionList } from "./question-fields";

const STRATEGIES: { value: MergeStrategy; label: string; description: string }[] = [
  {
    value: "newer",
    label: "Use Newer",
    description:
      "Replace the existing question's content with the new one. Its study progress and visibility are kept.",
  },
  {
    value: "metadata",
    label: "Use Metadata",
    description:
      "Keep the existing question and fill in part, year, number and category from the new one.",
  },
  {
    value: "manual",
    label: "Manual Merge",
    description: "Choose which fields to take from the new question.",
  },
  {
    value: "keepBoth",
    label: "Keep Both",
    description: "Import the new question as a separate question.",
  },
];

interface DuplicateDialogProps {
  items: readonly DuplicateItem[];
  /** All items resolved, in item order: index → resolution. */
  onDone: (resolutions: Map<number, Resolution>) => void;
  onCancel: () => void;
}

/** docs/product/screens.md 'Duplicate resolution dialog' and states.md 'Duplicate resolution'. */
export function DuplicateDialog({ items, onDone, onCancel }: DuplicateDialogProps) {
  const [position, setPosition] = useState(0);
  const [resolved, setResolved] = useState<Map<number, Resolution>>(() => new Map());
  const item = items[position];
  const [current, setCurrent] = useState<Resolution>(() => defaultResolution(item?.matches[0]));

  if (!item) return null;
  const match = item.matches[current.matchIndex] ?? item.matches[0];

  const advance = (next: Map<number, Resolution>) => {
    const following = position + 1;
    if (following >= items.length) {
      onDone(next);
      return;
    }
    setResolved(next);
    setPosition(following);
    setCurrent(defaultResolution(items[following]?.matches[0]));
  };

  const resolveCurrent = (resolution: Resolution) => {
    const next = new Map(resolved);
    next.set(item.index, resolution);
    advance(next);
  };

  const applyToAllRemaining = () => {
    const next = new Map(resolved);
    next.set(item.index, current);
    for (const later of items.slice(position + 1))
      next.set(later.index, resolutionFor(later, current));
    onDone(next);
  };

  const canApply = current.strategy !== "manual" || current.fields.length > 0;

  return (
    <Dialog open onOpenChange={(open) => !open && onCancel()}>
      <DialogContent showClose={false} className="max-w-4xl">
        <DialogHeader>
          <DialogTitle>Duplicate Questions Detected</DialogTitle>
          <DialogDescription>
            Question {position + 1} of {items.length}
          </DialogDescription>
        </DialogHeader>

        {match && (
          <Alert type="warning" dismissible={false} autoCloseMs={null}>
            <p className="font-medium">
              Possible duplicate detected ({Math.round(match.similarity.score * 100)}% match)
            </p>
            {match.similarity.reasons.length > 0 && (
              <ul className="mt-1 list-disc pl-5">
                {match.similarity.reasons.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            )}
          </Alert>
        )}

        {item.matches.length > 1 && (
          <div className="grid gap-2">
            <Label htmlFor="duplicate-match">Compare with</Label>
            <OptionSelect
              id="duplicate-match"
              value={String(current.matchIndex)}
              onValueChange={(v) => {
                const matchIndex = Number(v);
                setCurrent({ ...defaultResolution(item.matches[matchIndex], matchIndex) });
              }}
              options={item.matches.map((m, i) => ({
                value: String(i),
                label: `Match ${i + 1} (${Math.round(m.similarity.score * 100)}%): ${previewText(m.question.text)}`,
              }))}
            />
          </div>
        )}

        {match && (
          <div className="grid gap-4 md:grid-cols-2">
            <ExistingQuestion match={match} />
            <QuestionPanel
              title="New Question"
              details={[
                ["Part", item.question.part],
                ["Year", String(item.question.year)],
                ["Number", item.question.number == null ? "-" : String(item.question.number)],
                ["Category", item.question.category || "Uncategorized"],
              ]}
              text={item.question.text}
              options={item.question.options}
              correctAnswer={item.question.correctAnswer}
              explanation={item.question.explanation}
            />
          </div>
        )}

        {match && !match.canMerge && (
          <p className="rounded-md bg-muted px-3 py-2 text-sm">
            The existing question belongs to another user, so it cannot be changed. You can skip
            this question or keep both.
          </p>
        )}

        <fieldset className="grid gap-2">
          <legend className="mb-2 font-semibold">Resolution Strategy</legend>
          {STRATEGIES.filter((s) => match?.canMerge || s.value === "keepBoth").map((strategy) => (
            <ChoiceRadio
              key={strategy.value}
              id={`strategy-${strategy.value}`}
              name="resolution-strategy"
              value={strategy.value}
              label={strategy.label}
              hint={strategy.description}
              checked={current.strategy === strategy.value}
              onSelect={() => setCurrent({ ...current, strategy: strategy.value })}
            />
          ))}
        </fieldset>

        {current.strategy === "manual" && (
          <ManualFields
            fields={current.fields}
            onChange={(fields) => setCurrent({ ...current, fields })}
          />
        )}

        <DialogFooter className="flex-wrap">
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            variant="outline"
            onClick={() => resolveCurrent({ strategy: "keepBoth", matchIndex: 0, fields: [] })}
          >
            Skip This Question
          </Button>
          <Button variant="secondary" onClick={applyToAllRemaining} disabled={!canApply}>
            Apply to All Remaining
          </Button>
          <Button onClick={() => resolveCurrent(current)} disabled={!canApply}>
            Apply &amp; Continue
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function ManualFields({
  fields,
  onChange,
}: {
  fields: ManualMergeField[];
  onChange: (fields: ManualMergeField[]) => void;
}) {
  return (
    <fieldset className="grid gap-1 rounded-md border p-3">
      <legend className="px-1 text-sm font-medium">Fields to take from the new question</legend>
      <div className="grid grid-cols-1 gap-x-4 min-[400px]:grid-cols-2 sm:grid-cols-3">
        {MANUAL_MERGE_FIELDS.map(({ key, label }) => {
          const id = `merge-field-${key}`;
          return (
            <div key={key} className="flex min-h-11 items-center gap-3">
              <Checkbox
                id={id}
                checked={fields.includes(key)}
                onCheckedChange={(checked) =>
                  onChange(
                    checked === true ? [...fields, key] : fields.filter((field) => field !== key),
                  )
                }
              />
              <Label htmlFor={id} className="flex min-h-11 flex-1 cursor-pointer items-center">
                {label}
              </Label>
            </div>
          );
        })}
      </div>
      {fields.length === 0 && (
        <p className="text-sm text-muted-foreground">Choose at least one field.</p>
      )}
    </fieldset>
  );
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "-" : date.toLocaleDateString();
}

function ExistingQuestion({ match }: { match: MatchView }) {
  const q = match.question;
  return (
    <QuestionPanel
      title="Existing Question"
      details={[
        ["Added", formatDate(q.createdAt)],
        ["Part", q.part],
        ["Year", String(q.year)],
        ["Number", q.number == null ? "-" : String(q.number)],
        ["Category", q.category || "Uncategorized"],
      ]}
      text={q.text}
      options={q.options}
      correctAnswer={q.correctAnswer}
      explanation={q.explanation}
    />
  );
}

interface QuestionPanelProps {
  title: string;
  details: [string, string][];
  text: string;
  options: Partial<Record<string, string>>;
  correctAnswer: string;
  explanation: string;
}

function QuestionPanel({
  title,
  details,
  text,
  options,
  correctAnswer,
  explanation,
}: QuestionPanelProps) {
  return (
    <section className="grid content-start gap-3 rounded-md border p-3" aria-label={title}>
      <h3 className="font-semibold">{title}</h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
        {details.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="break-words whitespace-pre-wrap">{text}</p>
      <OptionList options={options} correctAnswer={correctAnswer} />
      {explanation && (
        <div className="text-sm">
          <p className="font-medium">Explanation</p>
          <p className="break-words whitespace-pre-wrap text-muted-foreground">{explanation}</p>
        </div>
      )}
    </section>
  );
}
