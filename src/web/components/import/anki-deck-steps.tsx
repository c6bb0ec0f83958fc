import { useCallback, useId } from "react";
import type { AnkiPackage } from "@/core/import/anki";
import { ANKI_WARNING_KINDS } from "@/core/import/anki/messages";
import type { AnkiPlan } from "@/core/import/anki/plan";
import { groupIssues } from "@/core/import/issue-groups";
import { buildCommitItems, type DuplicateItem, type Resolution } from "@/core/import/plan";
import type { RowError } from "@/core/import/types";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { Checkbox } from "@/web/components/ui/checkbox";
import { VisibilityChoice } from "@/web/components/questions/visibility-choice";
import type { VisibilityChoiceState } from "@/web/components/questions/visibility-state";
import type { VisibilityRequest } from "@/web/components/questions/visibility-draft";
import type { Part } from "@/core/import/types";
import { TagCategories } from "./anki-tag-categories";
import { DuplicateDetection, type CommitInput, type CommitSummary } from "./duplicate-detection";
import { PartYearFields } from "./question-fields";
import { RowNoteList, StatGrid } from "./review-step";

/**
 * The Anki tab's steps after a deck is read (its review, then the duplicate check), a chunk of their
 * own loaded through later-steps.tsx (issue 35 item 2, decision 421).
 */

export interface Loaded {
  fileName: string;
  pkg: AnkiPackage;
  plan: AnkiPlan;
}

export interface DetectFlow {
  phase: "detect";
  deck: Loaded;
  plan: AnkiPlan;
  checkItems: object[];
  visibility: VisibilityRequest;
  keepProgress: boolean;
}

const asRows = (issues: AnkiPlan["errors"]): RowError[] =>
  issues.map((i) => ({ row: i.note, message: i.message }));

export function DeckDetection({
  flow,
  upload,
  onCancel,
  onComplete,
}: {
  flow: DetectFlow;
  upload: (input: { data: string }) => Promise<{ sha256: string }>;
  onCancel: () => void;
  onComplete: (summary: CommitSummary) => void;
}) {
  const { plan, deck, checkItems, visibility, keepProgress } = flow;
  const prepare = useCallback(
    async (
      duplicates: readonly DuplicateItem[],
      resolutions: ReadonlyMap<number, Resolution>,
    ): Promise<CommitInput> => {
      const reader = await import("./anki-reader");
      const actions = buildCommitItems(plan.views, duplicates, resolutions, () => null);
      const items = await reader.prepareAnkiCommit(plan, deck.pkg.media, actions, {
        upload: (data) => upload({ data }),
        keepProgress,
      });
      return { items, ...(keepProgress ? { keepProgress: true } : {}) };
    },
    [plan, deck, upload, keepProgress],
  );
  return (
    <DuplicateDetection
      questions={plan.views}
      checkItems={checkItems}
      prepare={prepare}
      visibility={visibility}
      onCancel={onCancel}
      onComplete={onComplete}
    />
  );
}

export interface DeckReviewProps {
  deck: Loaded;
  part: Part;
  year: number;
  visibility: VisibilityChoiceState;
  keepProgress: boolean;
  onPart: (part: Part) => void;
  onYear: (year: number) => void;
  onKeepProgress: (value: boolean) => void;
  onTagCategory: (tag: string, category: string) => void;
  onBack: () => void;
  onImport: () => void;
}

const SHOWN = 10;

export function DeckReview({
  deck,
  part,
  year,
  visibility,
  keepProgress,
  onPart,
  onYear,
  onKeepProgress,
  onTagCategory,
  onBack,
  onImport,
}: DeckReviewProps) {
  const { plan } = deck;
  const progressId = useId();
  const studied = plan.drafts.filter((d) => d.progress !== null).length;
  const stats: [string, number][] = [
    ["Multiple choice", plan.counts.multipleChoice],
    ["Flashcards", plan.counts.flashcards],
    ["Skipped notes", plan.counts.skipped],
    ["Images", plan.images.length],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Review {deck.fileName}</CardTitle>
        <CardDescription>
          {plan.drafts.length} questions from {deck.pkg.notes.length} notes
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <StatGrid label="Deck contents" stats={stats} columns={4} />
        <PartYearFields
          idPrefix="anki"
          part={part}
          year={year}
          onPartChange={onPart}
          onYearChange={onYear}
        />
        <VisibilityChoice state={visibility} />
        <div className="flex items-start gap-2">
          <Checkbox
            id={progressId}
            checked={keepProgress}
            onCheckedChange={(v) => onKeepProgress(v === true)}
          />
          <label htmlFor={progressId} className="text-sm">
            Keep my Anki progress
            <span className="block text-muted-foreground">
              {studied} of the cards were studied in Anki: their interval, ease, due date, reviews
              and lapses become your study schedule.
            </span>
          </label>
        </div>
        <TagCategories tags={plan.tags} onChange={onTagCategory} />
        <ol className="grid gap-2" aria-label="First questions of the deck">
          {plan.views.slice(0, SHOWN).map((q, i) => (
            <li key={i} className="grid gap-1 rounded-md border p-3">
              <div className="flex flex-wrap gap-1.5">
                <Badge variant="secondary">
                  {plan.drafts[i]!.type === "flashcard" ? "Flashcard" : "Multiple choice"}
                </Badge>
                {q.category && <Badge variant="info">{q.category}</Badge>}
              </div>
              <p className="line-clamp-3 break-words whitespace-pre-wrap">{q.text}</p>
            </li>
          ))}
        </ol>
        {plan.skipped.length > 0 && (
          <RowNoteList kind="skipped" unit="Note" notes={asRows(plan.skipped)} />
        )}
        {plan.errors.length > 0 && (
          <RowNoteList kind="errors" unit="Note" notes={asRows(plan.errors)} />
        )}
        {plan.warnings.length > 0 && (
          <RowNoteList
            kind="warnings"
            unit="Note"
            notes={asRows(plan.warnings)}
            groups={groupIssues(plan.warnings, (w) => w.note, ANKI_WARNING_KINDS)}
          />
        )}
      </CardContent>
      <CardFooter className="flex-wrap justify-between">
        <Button variant="outline" onClick={onBack}>
          Back
        </Button>
        <Button onClick={onImport} disabled={plan.drafts.length === 0}>
          Import {plan.drafts.length} Questions
        </Button>
      </CardFooter>
    </Card>
  );
}
