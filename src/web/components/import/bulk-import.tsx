import { useState } from "react";
import type { ImportSettings, ParseRowsResult } from "@/core/import/types";
import type { VisibilityRequest } from "@/web/components/questions/visibility-draft";
import type { CommitSummary } from "./duplicate-detection";
import { ImportWizard } from "./import-wizard";
import { DuplicateDetection, ImportComplete, StepSuspense } from "./later-steps";

type Flow =
  | { phase: "upload" }
  | {
      phase: "detect";
      parsed: ParseRowsResult;
      settings: ImportSettings;
      visibility: VisibilityRequest;
    }
  | { phase: "complete"; parsed: ParseRowsResult; summary: CommitSummary };

/**
 * docs/product/states.md 'Import page flow': upload (the wizard), then duplicate detection, then complete.
 * The wizard stays mounted (hidden) during detection, so Cancel returns to it as it was left.
 */
export function BulkImport() {
  const [flow, setFlow] = useState<Flow>({ phase: "upload" });
  // A new key remounts the wizard: 'Import More Questions' starts from nothing.
  const [wizardKey, setWizardKey] = useState(0);

  return (
    <div className="grid gap-4">
      {flow.phase !== "complete" && (
        <div hidden={flow.phase !== "upload"}>
          <ImportWizard
            key={wizardKey}
            importing={flow.phase === "detect"}
            onImport={(parsed, settings, visibility) =>
              setFlow({ phase: "detect", parsed, settings, visibility })
            }
          />
        </div>
      )}
      <StepSuspense>
        {flow.phase === "detect" && (
          <DuplicateDetection
            questions={flow.parsed.questions}
            visibility={flow.visibility}
            onCancel={() => setFlow({ phase: "upload" })}
            onComplete={(summary) => setFlow({ phase: "complete", parsed: flow.parsed, summary })}
          />
        )}
        {flow.phase === "complete" && (
          <ImportComplete
            summary={flow.summary}
            rowErrors={flow.parsed.errors}
            rowWarnings={flow.parsed.warnings}
            onImportMore={() => {
              setWizardKey((k) => k + 1);
              setFlow({ phase: "upload" });
            }}
          />
        )}
      </StepSuspense>
    </div>
  );
}
