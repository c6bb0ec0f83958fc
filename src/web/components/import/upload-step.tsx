import { FileSpreadsheet, Upload } from "lucide-react";
import { useId, useState, type DragEvent } from "react";
import { BULK_IMPORT } from "@/core/constants";
import { SpinnerIcon } from "@/web/components/ui/spinner";
import { cn } from "@/web/lib/utils";

interface UploadStepProps {
  onFile: (file: File) => void;
  busy: boolean;
}

/**
 * docs/product/screens.md Bulk Import step 1: click or drag a .csv, .xls or .xlsx file onto the box. The real file
 * input stays in the page (visually hidden) so keyboards and screen readers reach it, and phones
 * open their own file picker.
 */
export function UploadStep({ onFile, busy }: UploadStepProps) {
  const inputId = useId();
  const [dragging, setDragging] = useState(false);

  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !busy) onFile(file);
  };

  return (
    <div className="grid gap-4">
      <label
        htmlFor={inputId}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          "flex min-h-48 cursor-pointer flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed p-6 text-center transition-colors",
          "focus-within:ring-2 focus-within:ring-ring focus-within:ring-offset-2",
          dragging ? "border-primary bg-accent" : "border-input hover:bg-muted/50",
          busy && "pointer-events-none opacity-70",
        )}
      >
        {busy ? (
          <SpinnerIcon className="size-10 text-primary" />
        ) : (
          <Upload className="size-10 text-primary" aria-hidden="true" />
        )}
        <span className="text-base font-medium">
          {busy ? "Reading file..." : "Click to choose a file or drag and drop it here"}
        </span>
        <span className="text-sm text-muted-foreground">CSV or Excel, up to 10 MB</span>
        <input
          id={inputId}
          type="file"
          accept={[...BULK_IMPORT.FILE_EXTENSIONS].join(",")}
          className="sr-only"
          disabled={busy}
          aria-label="Choose a CSV or Excel file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            // Cleared so choosing the same file again (after fixing it) fires a change again.
            event.target.value = "";
            if (file) onFile(file);
          }}
        />
      </label>
      <div className="rounded-md bg-muted/60 p-4 text-sm">
        <p className="mb-2 font-medium">Supported formats</p>
        <ul className="grid gap-1.5">
          <li className="flex items-center gap-2">
            <FileSpreadsheet className="size-4 text-primary" aria-hidden="true" />
            CSV files (.csv)
          </li>
          <li className="flex items-center gap-2">
            <FileSpreadsheet className="size-4 text-primary" aria-hidden="true" />
            Excel workbooks (.xlsx)
          </li>
          <li className="flex items-center gap-2">
            <FileSpreadsheet className="size-4 text-primary" aria-hidden="true" />
            Older Excel workbooks (.xls)
          </li>
        </ul>
        <p className="mt-3 text-muted-foreground">
          One question per row with options in their own columns works best. Numbered questions with
          lettered options in one column (A. … E.) are read too, and question/answer row pairs whose
          question cell holds the options (&lsquo;Which …? A. … B. …&rsquo;).
        </p>
      </div>
    </div>
  );
}
