import { Layers, Upload } from "lucide-react";
import { useId, useState } from "react";
import { checkAnkiUpload } from "@/core/import/anki/messages";
import type { AnkiPlan } from "@/core/import/anki/plan";
import { ImportError } from "@/core/import/errors";
import type { Part, RowError } from "@/core/import/types";
import { useBanner } from "@/web/components/ui/alert";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { useVisibilityChoice } from "@/web/components/questions/visibility-state";
import { SpinnerIcon } from "@/web/components/ui/spinner";
import { trpc } from "@/web/lib/trpc";
import { cn } from "@/web/lib/utils";
import type { DetectFlow, Loaded } from "./anki-deck-steps";
import { defaultYear } from "./default-year";
import type { CommitSummary } from "./duplicate-detection";
import {
  DeckDetection,
  DeckReview,
  ImportComplete,
  StepSuspense,
  usePrefetchSteps,
} from "./later-steps";

type Reader = typeof import("./anki-reader");

/** The reader, sql.js and its WASM arrive with the first deck chosen, never with the page. */
let readerModule: Promise<Reader> | null = null;
const loadReader = (): Promise<Reader> => (readerModule ??= import("./anki-reader"));

const ANKI_STEPS = ["deck", "complete"] as const;

type Flow =
  | { phase: "upload" }
  | { phase: "review"; deck: Loaded }
  | DetectFlow
  | { phase: "complete"; plan: AnkiPlan; summary: CommitSummary };

const asRows = (issues: AnkiPlan["errors"]): RowError[] =>
  issues.map((i) => ({ row: i.note, message: i.message }));

/**
 * Import › Anki Import (issue 17): choose an .apkg/.colpkg, read it in the browser with the core
 * reader, review what it holds (multiple choice, flashcards, skipped notes with the reason, problems
 * by note), choose part, year, who sees the questions and "Keep my Anki progress", then the file import's duplicate
 * check and its one commit; the deck's images are uploaded just before the commit.
 */
export function AnkiImport() {
  const [flow, setFlow] = useState<Flow>({ phase: "upload" });
  const [part, setPart] = useState<Part>("1");
  const [year, setYear] = useState(defaultYear);
  const visibility = useVisibilityChoice();
  const [keepProgress, setKeepProgress] = useState(false);
  // The user's category for each tag they changed (lower case → category); the rule for the rest.
  const [tagChoices, setTagChoices] = useState<ReadonlyMap<string, string>>(new Map());
  const { show, clear, banner } = useBanner({ autoCloseMs: null });
  const [reading, setReading] = useState(false);
  const upload = trpc.imports.uploadMedia.useMutation();
  const uploadRef = upload.mutateAsync;
  usePrefetchSteps(ANKI_STEPS);

  const handleFile = async (file: File) => {
    clear();
    setReading(true);
    try {
      // Name and size first: a 2 GB video is refused before a byte is read.
      checkAnkiUpload(file.name, file.size);
      const bytes = new Uint8Array(await file.arrayBuffer());
      const reader = await loadReader();
      const pkg = await reader.readDeck(bytes);
      const plan = reader.planDeck(pkg, { part, year });
      setTagChoices(new Map());
      setFlow({ phase: "review", deck: { fileName: file.name, pkg, plan } });
    } catch (error) {
      if (!(error instanceof ImportError)) console.error("Anki deck not read", error);
      show(
        "error",
        error instanceof ImportError ? error.message : "This Anki deck could not be read.",
      );
    } finally {
      setReading(false);
    }
  };

  const startImport = async (deck: Loaded) => {
    clear();
    const level = visibility.check();
    if (!level) return;
    const reader = await loadReader();
    try {
      // Part and year are the drafts' own: the deck is converted again if they changed.
      const plan =
        deck.plan.drafts[0]?.part === part && deck.plan.drafts[0]?.year === year
          ? deck.plan
          : reader.planDeck(deck.pkg, { part, year, tagCategories: tagChoices });
      const checkItems = plan.drafts.map((d, i) => reader.ankiCheckItem(d, plan.views[i]!));
      setFlow({ phase: "detect", deck, plan, checkItems, visibility: level, keepProgress });
    } catch (error) {
      show("error", error instanceof ImportError ? error.message : "Failed to prepare the import");
    }
  };

  const chooseTagCategory = async (deck: Loaded, tag: string, category: string) => {
    const reader = await loadReader();
    const next = new Map(tagChoices).set(tag.toLowerCase(), category);
    try {
      const plan = reader.planDeck(deck.pkg, { part, year, tagCategories: next });
      setTagChoices(next);
      setFlow({ phase: "review", deck: { ...deck, plan } });
    } catch (error) {
      show("error", error instanceof ImportError ? error.message : "Failed to prepare the import");
    }
  };

  return (
    <div className="grid gap-4">
      {banner}
      {flow.phase === "upload" && <DeckUpload busy={reading} onFile={(f) => void handleFile(f)} />}
      <StepSuspense>
        {flow.phase === "review" && (
          <DeckReview
            deck={flow.deck}
            part={part}
            year={year}
            visibility={visibility.state}
            keepProgress={keepProgress}
            onPart={setPart}
            onYear={setYear}
            onKeepProgress={setKeepProgress}
            onTagCategory={(tag, category) => void chooseTagCategory(flow.deck, tag, category)}
            onBack={() => {
              clear();
              setFlow({ phase: "upload" });
            }}
            onImport={() => void startImport(flow.deck)}
          />
        )}
        {flow.phase === "detect" && (
          <DeckDetection
            flow={flow}
            upload={uploadRef}
            onCancel={() => setFlow({ phase: "review", deck: flow.deck })}
            onComplete={(summary) => setFlow({ phase: "complete", plan: flow.plan, summary })}
          />
        )}
        {flow.phase === "complete" && (
          <ImportComplete
            summary={flow.summary}
            rowErrors={asRows(flow.plan.errors)}
            rowWarnings={asRows(flow.plan.warnings)}
            unit="Note"
            onImportMore={() => setFlow({ phase: "upload" })}
          />
        )}
      </StepSuspense>
    </div>
  );
}

function DeckUpload({ onFile, busy }: { onFile: (file: File) => void; busy: boolean }) {
  const inputId = useId();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Layers className="size-5 text-primary" aria-hidden="true" />
          Anki Import
        </CardTitle>
        <CardDescription>
          Bring an Anki deck (.apkg or .colpkg, up to 200 MB) into your bank: notes with options A-E
          become multiple-choice questions, every other card a flashcard, with its images.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <label
          htmlFor={inputId}
          className={cn(
            "flex min-h-40 cursor-pointer flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed border-input p-6 text-center hover:bg-muted/50",
            "focus-within:ring-2 focus-within:ring-ring focus-within:ring-offset-2",
            busy && "pointer-events-none opacity-70",
          )}
        >
          {busy ? (
            <SpinnerIcon className="size-10 text-primary" />
          ) : (
            <Upload className="size-10 text-primary" aria-hidden="true" />
          )}
          <span className="text-base font-medium">
            {busy ? "Reading the deck..." : "Click to choose an Anki deck"}
          </span>
          <span className="text-sm text-muted-foreground">
            Export it from Anki with File › Export, as an .apkg
          </span>
          <input
            id={inputId}
            type="file"
            accept=".apkg,.colpkg"
            className="sr-only"
            disabled={busy}
            aria-label="Choose an Anki deck"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = "";
              if (file) onFile(file);
            }}
          />
        </label>
      </CardContent>
    </Card>
  );
}
