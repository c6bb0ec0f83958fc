import { useMemo, type ReactNode } from "react";
import { BULK_IMPORT } from "@/core/constants";
import { previewRows } from "@/core/import/parse-rows";
import { LETTERS, type ImportFormat, type ImportSettings, type Letter } from "@/core/import/types";
import { Button } from "@/web/components/ui/button";
import { Checkbox } from "@/web/components/ui/checkbox";
import { Label } from "@/web/components/ui/label";
import { OptionSelect, type SelectOption } from "@/web/components/ui/select";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/web/components/ui/table";
import { NONE_VALUE, PartYearFields } from "./question-fields";

const FORMAT_OPTIONS: SelectOption[] = [
  { value: "standard", label: "Standard (numbered questions, lettered options)" },
  { value: "questionPerRow", label: "Question Per Row" },
  { value: "qa", label: "Q&A (question row, then answer row)" },
];

/** What each format expects of the file, under the Format Type select. */
const FORMAT_HINTS: Record<ImportFormat, string> = {
  standard:
    "A cell starting '12.' begins question 12; cells starting 'A.' to 'E.' are its options.",
  questionPerRow:
    "One question per row, with its options, answer and category in their own columns.",
  qa: "A question row, then its answer row. Write the options in the question cell after the question: 'Which …? A. … B. … C. …'.",
};

const OPTION_KEY: Record<Letter, keyof ImportSettings> = {
  A: "optionAColumn",
  B: "optionBColumn",
  C: "optionCColumn",
  D: "optionDColumn",
  E: "optionEColumn",
};

export interface LoadedSheet {
  fileName: string;
  sheets: string[];
  sheet: string;
  rows: string[][];
}

interface ConfigureStepProps {
  file: LoadedSheet;
  settings: ImportSettings;
  /** One label per column of the file ('Column N' where the header is blank or absent). */
  labels: string[];
  onChange: (patch: Partial<ImportSettings>) => void;
  onHeaderRowChange: (headerRow: number) => void;
  onSheetChange: (sheet: string) => void;
  onBack: () => void;
  onNext: () => void;
  processing: boolean;
}

/** docs/product/screens.md Bulk Import step 2 'Configure Import': preview and settings, auto-detected values filled in. */
export function ConfigureStep({
  file,
  settings,
  labels,
  onChange,
  onHeaderRowChange,
  onSheetChange,
  onBack,
  onNext,
  processing,
}: ConfigureStepProps) {
  const preview = useMemo(
    () => previewRows(file.rows, settings.headerRow),
    [file.rows, settings.headerRow],
  );

  const columnOptions: SelectOption[] = useMemo(
    () => [
      { value: NONE_VALUE, label: "-- Not set --" },
      ...labels.map((label, index) => ({ value: String(index), label })),
    ],
    [labels],
  );

  const headerOptions: SelectOption[] = useMemo(() => {
    const offered = Math.min(BULK_IMPORT.HEADER_ROWS_OFFERED, Math.max(file.rows.length, 1));
    const rows: SelectOption[] = [];
    for (let r = 0; r < offered; r++) {
      const cells = (file.rows[r] ?? []).filter((c) => c.trim() !== "");
      const sample = cells.slice(0, 3).join(", ");
      rows.push({
        value: String(r),
        label: `Row ${r + 1}${sample ? `: ${sample.length > 40 ? `${sample.slice(0, 40)}…` : sample}` : ""}`,
      });
    }
    rows.push({ value: "-1", label: "No header row" });
    return rows;
  }, [file.rows]);

  const columnSelect = (key: keyof ImportSettings, id: string, label: string, hint?: ReactNode) => {
    const value = settings[key];
    return (
      <div className="grid gap-2">
        <Label htmlFor={id}>{label}</Label>
        <OptionSelect
          id={id}
          value={typeof value === "number" ? String(value) : NONE_VALUE}
          onValueChange={(v) =>
            onChange({ [key]: v === NONE_VALUE ? null : Number(v) } as Partial<ImportSettings>)
          }
          options={columnOptions}
        />
        {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
      </div>
    );
  };

  const perRow = settings.format === "questionPerRow";

  return (
    <div className="grid gap-6">
      <section aria-labelledby="preview-heading" className="grid gap-2">
        <h3 id="preview-heading" className="font-semibold">
          File Preview
        </h3>
        <p className="text-sm text-muted-foreground">
          {file.fileName}
          {file.sheets.length > 1 ? ` · sheet ${file.sheet}` : ""} · {file.rows.length} rows
        </p>
        {preview.header.length === 0 ? (
          <p className="text-sm text-muted-foreground">The file is empty.</p>
        ) : (
          <Table aria-label="File preview">
            <TableHeader>
              <TableRow>
                {preview.header.map((label, i) => (
                  <TableHead key={i} className="max-w-48 truncate">
                    {label}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {preview.rows.map((row, r) => (
                <TableRow key={r}>
                  {row.map((cell, c) => (
                    <TableCell key={c} className="max-w-64 min-w-24 align-top">
                      <span className="line-clamp-3 break-words">{cell}</span>
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>

      <section aria-labelledby="settings-heading" className="grid gap-4">
        <h3 id="settings-heading" className="font-semibold">
          Import Settings
        </h3>

        {file.sheets.length > 1 && (
          <div className="grid gap-2">
            <Label htmlFor="import-sheet">Sheet</Label>
            <OptionSelect
              id="import-sheet"
              value={file.sheet}
              onValueChange={onSheetChange}
              options={file.sheets.map((s) => ({ value: s, label: s }))}
            />
          </div>
        )}

        <PartYearFields
          idPrefix="import"
          part={settings.part}
          year={settings.year}
          onPartChange={(part) => onChange({ part })}
          onYearChange={(year) => onChange({ year })}
        />

        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor="import-format">Format Type</Label>
            <OptionSelect
              id="import-format"
              value={settings.format}
              onValueChange={(v) => onChange({ format: v as ImportFormat })}
              options={FORMAT_OPTIONS}
            />
            <p className="text-xs text-muted-foreground">{FORMAT_HINTS[settings.format]}</p>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="import-header-row">Header Row</Label>
            <OptionSelect
              id="import-header-row"
              value={String(settings.headerRow)}
              onValueChange={(v) => onHeaderRowChange(Number(v))}
              options={headerOptions}
            />
          </div>
        </div>

        {columnSelect(
          "questionColumn",
          "import-question-column",
          "Question Column",
          settings.questionColumn === null ? "Choose the column that holds the questions." : null,
        )}

        {perRow && (
          <div className="grid gap-3 rounded-md border p-3">
            <div className="flex min-h-11 items-center gap-3">
              <Checkbox
                id="import-has-options"
                checked={settings.hasOptions}
                onCheckedChange={(checked) => onChange({ hasOptions: checked === true })}
              />
              <Label htmlFor="import-has-options" className="cursor-pointer leading-snug">
                File includes answer options in separate columns
              </Label>
            </div>
            {settings.hasOptions && (
              <div className="grid gap-4 sm:grid-cols-2">
                {LETTERS.map((letter) => (
                  <div key={letter}>
                    {columnSelect(
                      OPTION_KEY[letter],
                      `import-option-${letter.toLowerCase()}-column`,
                      `Option ${letter} Column`,
                    )}
                  </div>
                ))}
              </div>
            )}
          </div>
        )}

        {columnSelect(
          "answerColumn",
          "import-answer-column",
          "Answer Column (optional)",
          "A letter A-E or an option number 1-5.",
        )}

        <div className="grid gap-3 rounded-md border p-3">
          <div className="flex min-h-11 items-center gap-3">
            <Checkbox
              id="import-has-category"
              checked={settings.hasCategory}
              onCheckedChange={(checked) => onChange({ hasCategory: checked === true })}
            />
            <Label htmlFor="import-has-category" className="cursor-pointer leading-snug">
              File includes category information
            </Label>
          </div>
          {settings.hasCategory &&
            columnSelect("categoryColumn", "import-category-column", "Category Column")}
        </div>

        {columnSelect(
          "explanationColumn",
          "import-explanation-column",
          "Explanation Column (optional)",
        )}
      </section>

      <div className="flex flex-wrap justify-between gap-2">
        <Button variant="outline" onClick={onBack} disabled={processing}>
          Back
        </Button>
        <Button
          onClick={onNext}
          disabled={settings.questionColumn === null || processing}
          busy={processing}
        >
          {processing ? "Processing..." : "Next"}
        </Button>
      </div>
    </div>
  );
}
