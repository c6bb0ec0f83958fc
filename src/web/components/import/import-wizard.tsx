import { useState } from "react";
import { ImportError, NO_VALID_QUESTIONS_MESSAGE } from "@/core/import/errors";
import {
  columnLabels,
  defaultImportSettings,
  detectColumns,
  parseRows,
  suggestImportSettings,
} from "@/core/import/parse-rows";
import type { ImportSettings, ParseRowsResult, RowError } from "@/core/import/types";
import { checkUpload } from "@/core/import/zip-guard";
import { useBanner } from "@/web/components/ui/alert";
import { useVisibilityChoice } from "@/web/components/questions/visibility-state";
import type { VisibilityRequest } from "@/web/components/questions/visibility-draft";
import type { LoadedSheet } from "./configure-step";
import { defaultYear } from "./default-year";
import {
  ConfigureStep,
  ReviewStep,
  RowNoteList,
  loadPlan,
  StepSuspense,
  usePrefetchSteps,
} from "./later-steps";
import { StepIndicator, WIZARD_STEPS } from "./step-indicator";
import { UploadStep } from "./upload-step";

const BULK_STEPS = ["plan", "configure", "review", "detection", "complete"] as const;

interface WizardFile extends LoadedSheet {
  bytes: Uint8Array;
}

interface ImportWizardProps {
  /** Step 3's Import Questions: hands the parsed questions to the page flow. */
  onImport: (
    result: ParseRowsResult,
    settings: ImportSettings,
    visibility: VisibilityRequest,
  ) => void;
  /** True while the page flow is busy with what `onImport` started. */
  importing: boolean;
}

/**
 * Reads the file. SheetJS is big, so the workbook reader (and SheetJS behind it) is fetched only when a
 * file is chosen: it is never part of the first page load.
 */
async function readFile(fileName: string, bytes: Uint8Array, sheet?: string) {
  const { readSpreadsheet } = await import("@/core/import/workbook");
  return readSpreadsheet(fileName, bytes, sheet ? { sheet } : {});
}

function widthOf(rows: readonly (readonly string[])[]): number {
  return rows.reduce((w, row) => Math.max(w, row.length), 0);
}

/** docs/product/screens.md and states.md Bulk import wizard, steps 1 to 3 (step 4 is the page flow's complete screen). */
export function ImportWizard({ onImport, importing }: ImportWizardProps) {
  const { show, clear: clearBanner, banner } = useBanner();
  // Rows that failed when nothing at all could be imported: the banner alone would not say why.
  const [rejected, setRejected] = useState<readonly RowError[]>([]);
  const clear = () => {
    clearBanner();
    setRejected([]);
  };
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [reading, setReading] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [file, setFile] = useState<WizardFile | null>(null);
  const [settings, setSettings] = useState<ImportSettings>(() =>
    defaultImportSettings({ year: defaultYear() }),
  );
  const [labels, setLabels] = useState<string[]>([]);
  const [parsed, setParsed] = useState<ParseRowsResult | null>(null);
  const visibility = useVisibilityChoice();
  usePrefetchSteps(BULK_STEPS);

  const failure = (error: unknown, fallback: string) =>
    error instanceof ImportError ? error.message : fallback;

  /** Auto-detection from the sheet, keeping what the user already chose for part and year. */
  const configure = (loaded: WizardFile) => {
    const suggestion = suggestImportSettings(loaded.rows, {
      part: settings.part,
      year: settings.year,
      sheet: loaded.sheet,
    });
    setFile(loaded);
    setSettings({ ...suggestion.settings, sheet: loaded.sheet });
    setLabels(suggestion.labels);
  };

  const handleFile = async (chosen: File) => {
    clear();
    setReading(true);
    try {
      // Name and size are checked before a byte is read (a 2 GB video is refused at once).
      checkUpload(chosen.name, chosen.size);
      const bytes = new Uint8Array(await chosen.arrayBuffer());
      const sheet = await readFile(chosen.name, bytes);
      configure({ fileName: chosen.name, bytes, ...sheet });
      setStep(2);
    } catch (error) {
      show("error", failure(error, "Failed to process file"));
    } finally {
      setReading(false);
    }
  };

  const changeSheet = async (sheet: string) => {
    if (!file || sheet === file.sheet) return;
    clear();
    setReading(true);
    try {
      const read = await readFile(file.fileName, file.bytes, sheet);
      configure({ ...file, ...read });
    } catch (error) {
      show("error", failure(error, "Failed to process file"));
    } finally {
      setReading(false);
    }
  };

  /** A new header row means new labels: detect the columns again from them. */
  const changeHeaderRow = (headerRow: number) => {
    if (!file) return;
    setRejected([]);
    const width = widthOf(file.rows);
    const header = headerRow >= 0 ? file.rows[headerRow] : undefined;
    setLabels(columnLabels(header ?? [], width));
    if (header) {
      const detected = detectColumns(header, {
        dataRows: file.rows.slice(headerRow + 1, headerRow + 201),
        base: { part: settings.part, year: settings.year, headerRow, sheet: settings.sheet },
      });
      if (detected.settings.questionColumn !== null) {
        setSettings(detected.settings);
        return;
      }
    }
    setSettings({ ...settings, headerRow });
  };

  const next = () => {
    if (!file) return;
    clear();
    setProcessing(true);
    // Lets 'Processing...' paint before a large file is parsed.
    window.setTimeout(() => void check(file), 0);
  };

  /**
   * The plan's checks come with the schemas (zod) and the scheduler's helpers, fetched here (long
   * since prefetched) and not with the page's first chunk (issue 35 item 2, decision 421).
   */
  const check = async (file: WizardFile) => {
    try {
      const { splitImportable } = await loadPlan();
      const result = splitImportable(parseRows(file.rows, settings), new Date());
      if (result.questions.length === 0) {
        show("error", NO_VALID_QUESTIONS_MESSAGE);
        setRejected(result.errors);
        return;
      }
      setParsed(result);
      setStep(3);
    } catch (error) {
      if (error instanceof ImportError) show("error", error.message);
      else if (error instanceof Error && error.message) {
        show("error", `Error parsing questions: ${error.message}`);
      } else show("error", "Failed to parse questions");
    } finally {
      setProcessing(false);
    }
  };

  return (
    <div className="grid gap-4">
      <StepIndicator step={step} />
      <h2 className="text-lg font-semibold">
        Step {step}: {WIZARD_STEPS[step - 1]}
      </h2>
      {banner}
      {step === 1 && <UploadStep onFile={(f) => void handleFile(f)} busy={reading} />}
      <StepSuspense>
        {step === 2 && rejected.length > 0 && <RowNoteList kind="errors" notes={rejected} />}
        {step === 2 && file && (
          <ConfigureStep
            file={file}
            settings={settings}
            labels={labels}
            onChange={(patch) => {
              setRejected([]);
              setSettings({ ...settings, ...patch });
            }}
            onHeaderRowChange={changeHeaderRow}
            onSheetChange={(sheet) => void changeSheet(sheet)}
            onBack={() => {
              clear();
              setStep(1);
            }}
            onNext={next}
            processing={processing || reading}
          />
        )}
        {step === 3 && parsed && (
          <ReviewStep
            questions={parsed.questions}
            errors={parsed.errors}
            warnings={parsed.warnings}
            skipped={parsed.skipped}
            settings={settings}
            onBack={() => {
              clear();
              setStep(2);
            }}
            visibility={visibility.state}
            onImport={() => {
              const level = visibility.check();
              if (level) onImport(parsed, settings, level);
            }}
            importing={importing}
          />
        )}
      </StepSuspense>
    </div>
  );
}
