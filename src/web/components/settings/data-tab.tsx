import { Download, RotateCcw } from "lucide-react";
import { useState } from "react";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { ANKI_EXPORT_MESSAGES } from "@/core/export/anki/messages";
import { exportFileName } from "@/core/file-names";
import { downloadBase64, downloadJson } from "./download";
import { useConfirmedAction } from "./use-confirmed-action";

export const RESET_CONFIRMATION =
  "Are you sure you want to reset all your study progress? This cannot be undone.";

const EXPORTS = {
  study: {
    prefix: "prite_study_data_",
    preparing: "Preparing your study data for export...",
    success: "Study data exported successfully",
    failure: "Failed to export study data",
  },
  questions: {
    prefix: "prite_questions_",
    preparing: "Preparing your questions for export...",
    success: "Questions exported successfully",
    failure: "Failed to export questions",
  },
  anki: {
    prefix: "prite_questions_",
    preparing: "Preparing your Anki deck...",
    success: ANKI_EXPORT_MESSAGES.EXPORTED,
    failure: "Failed to export for Anki",
  },
} as const;

type ExportKind = keyof typeof EXPORTS;

/** Settings › Data Management (docs/product/screens.md, states.md and errors.md): two exports and the study-progress reset. */
export function DataTab() {
  const utils = trpc.useUtils();
  const reset = trpc.users.resetStudyProgress.useMutation();
  const { show, banner } = useBanner();
  const [busy, setBusy] = useState<ExportKind | null>(null);

  /**
   * docs/product/errors.md: an info banner while preparing, then success or the failure message. `save` saves the
   * file and answers false when there was nothing to save (the banner then says why).
   */
  const runExport = async (kind: ExportKind, save: () => Promise<boolean>) => {
    const texts = EXPORTS[kind];
    setBusy(kind);
    show("info", texts.preparing);
    try {
      if (await save()) show("success", texts.success);
    } catch (error) {
      show("error", errorMessage(error, texts.failure));
    } finally {
      setBusy(null);
    }
  };
  const saveJson = (kind: ExportKind, data: unknown) => {
    downloadJson(data, exportFileName(EXPORTS[kind].prefix, new Date()));
    return true;
  };
  const exportStudyData = () =>
    runExport("study", async () => {
      const result = await utils.users.exportStudyData.fetch(undefined, { staleTime: 0 });
      return saveJson("study", result.data);
    });
  const exportQuestions = () =>
    runExport("questions", async () => {
      const result = await utils.users.exportQuestions.fetch(undefined, { staleTime: 0 });
      return saveJson("questions", result.questions);
    });
  // Decision 245: the same questions as Export My Questions, as an Anki deck built by the server.
  const exportAnki = () =>
    runExport("anki", async () => {
      const result = await utils.users.exportAnki.fetch(undefined, { staleTime: 0, gcTime: 0 });
      if (result.counts.multipleChoice + result.counts.flashcards === 0) {
        show("info", ANKI_EXPORT_MESSAGES.NOTHING);
        return false;
      }
      downloadBase64(
        result.package,
        exportFileName(EXPORTS.anki.prefix, new Date(), "apkg"),
        "application/octet-stream",
      );
      return true;
    });

  const resetting = useConfirmedAction({
    confirmation: {
      title: "Reset Study Progress",
      description: RESET_CONFIRMATION,
      confirmLabel: "Reset",
      destructive: true,
    },
    run: () => reset.mutateAsync(),
    successMessage: "Study progress reset successfully",
    failureMessage: "Failed to reset study progress",
    // docs/product/states.md: the page reloads 1.5 s later, so every screen starts from the cleared state.
    afterSuccess: () => window.location.reload(),
    show,
  });

  return (
    <Card>
      {resetting.dialog}
      <CardHeader>
        <CardTitle>Data Management</CardTitle>
        <CardDescription>Download your data or start your studying over.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {banner}
        <section className="flex flex-col gap-2">
          <h3 className="font-medium">Export Study Data</h3>
          <p className="text-sm text-muted-foreground">
            Your study progress, review history, study sessions, PRITE scores, answer keys and
            settings as a JSON file.
          </p>
          <Button
            variant="outline"
            className="w-full sm:w-fit"
            busy={busy === "study"}
            disabled={busy !== null}
            onClick={() => void exportStudyData()}
          >
            {busy !== "study" && <Download aria-hidden="true" />}
            Export Study Data
          </Button>
        </section>
        <section className="flex flex-col gap-2">
          <h3 className="font-medium">Export My Questions</h3>
          <p className="text-sm text-muted-foreground">
            Every question you created, as a JSON file.
          </p>
          <Button
            variant="outline"
            className="w-full sm:w-fit"
            busy={busy === "questions"}
            disabled={busy !== null}
            onClick={() => void exportQuestions()}
          >
            {busy !== "questions" && <Download aria-hidden="true" />}
            Export My Questions
          </Button>
        </section>
        <section className="flex flex-col gap-2">
          <h3 className="font-medium">Export for Anki</h3>
          <p className="text-sm text-muted-foreground">
            Every question you created as an Anki deck (.apkg) with its images: multiple choice as
            &ldquo;PRITE MCQ&rdquo; notes, flashcards as Basic notes, the category as a tag. Opens
            in Anki, AnkiDroid and AnkiMobile.
          </p>
          <Button
            variant="outline"
            className="w-full sm:w-fit"
            busy={busy === "anki"}
            disabled={busy !== null}
            onClick={() => void exportAnki()}
          >
            {busy !== "anki" && <Download aria-hidden="true" />}
            Export for Anki
          </Button>
        </section>
        <section className="flex flex-col gap-2 border-t pt-5">
          <h3 className="font-medium">Reset Study Progress</h3>
          <p className="text-sm text-muted-foreground">
            Clears your review history, study sessions and scheduling. Your questions and PRITE
            scores are kept.
          </p>
          <Button
            variant="destructive"
            className="w-full sm:w-fit"
            busy={resetting.running}
            disabled={resetting.done}
            onClick={() => void resetting.trigger()}
          >
            {!resetting.running && <RotateCcw aria-hidden="true" />}
            Reset Study Progress
          </Button>
        </section>
      </CardContent>
    </Card>
  );
}
