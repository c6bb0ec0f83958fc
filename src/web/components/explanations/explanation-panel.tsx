import { Sparkles } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { cn } from "@/web/lib/utils";
import { paragraphs } from "./paragraphs";

export const NOT_CONFIGURED = "AI explanations are not configured on this server";

export interface ExplainableQuestion {
  _id: string;
  text: string;
  options: Record<string, string>;
  correctAnswer: string;
  correctAnswers: string[];
  generatedExplanation: string;
}

/** An explanation the panel knows about: saved on the question, or generated and not saved yet. */
export interface ExplanationValue {
  text: string;
  saved: boolean;
}

export function initialExplanation(q: Pick<ExplainableQuestion, "generatedExplanation">) {
  return q.generatedExplanation.trim() ? { text: q.generatedExplanation, saved: true } : null;
}

/** Paragraphs of an explanation, split on blank lines (docs/product/constants.md). */
export function ExplanationText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={cn("space-y-2 leading-relaxed", className)}>
      {paragraphs(text).map((p, i) => (
        <p key={i} className="whitespace-pre-line">
          {p}
        </p>
      ))}
    </div>
  );
}

interface ExplanationPanelProps {
  question: ExplainableQuestion;
  /** Only the question's creator may save onto it (decision 024). */
  canSave: boolean;
  /** Held by the parent so that Session Review shows what was generated during the session. */
  value: ExplanationValue | null;
  onChange: (value: ExplanationValue) => void;
  className?: string;
}

/**
 * The AI explanation panel in docs/product/states.md: saved → shown as saved; otherwise Generate yields an unsaved
 * explanation and Save Explanation marks it saved; errors offer Try again.
 */
export function ExplanationPanel({
  question,
  canSave,
  value,
  onChange,
  className,
}: ExplanationPanelProps) {
  const status = trpc.explanations.status.useQuery(undefined, { staleTime: Infinity });
  const generate = trpc.explanations.generate.useMutation();
  const save = trpc.explanations.save.useMutation();
  const [error, setError] = useState<{ kind: "generate" | "save"; message: string } | null>(null);

  const runGenerate = () => {
    setError(null);
    generate.mutate(
      {
        question: question.text,
        options: question.options,
        correctAnswer:
          question.correctAnswers.length > 0 ? question.correctAnswers : question.correctAnswer,
      },
      {
        onSuccess: (data) => onChange({ text: data.explanation, saved: false }),
        onError: (err) =>
          setError({
            kind: "generate",
            message: errorMessage(err, "Failed to generate explanation"),
          }),
      },
    );
  };

  const runSave = () => {
    if (!value) return;
    setError(null);
    save.mutate(
      { questionId: question._id, explanation: value.text },
      {
        onSuccess: (data) =>
          onChange({ text: data.question.generatedExplanation || value.text, saved: true }),
        onError: (err) =>
          setError({ kind: "save", message: errorMessage(err, "Failed to save explanation") }),
      },
    );
  };

  const notConfigured = status.data?.configured === false;
  // Until the server has said whether a model exists, offer nothing rather than a button that may fail.
  const statusKnown = status.data !== undefined || status.isError;

  return (
    <section
      aria-label="AI Explanation"
      className={cn("rounded-lg border bg-muted/40 p-4", className)}
    >
      <div className="mb-2 flex items-center gap-2">
        <Sparkles className="size-4 text-primary" aria-hidden="true" />
        <h3 className="font-semibold">AI Explanation</h3>
        {value && (
          <Badge variant={value.saved ? "success" : "warning"} className="ml-auto">
            {value.saved ? "Saved" : "Unsaved"}
          </Badge>
        )}
      </div>

      {value && <ExplanationText text={value.text} className="text-sm" />}

      {error && (
        <div
          role="alert"
          className="mt-3 rounded-md bg-error-soft p-3 text-sm text-error-soft-foreground"
        >
          <p>
            {error.kind === "generate"
              ? "Error generating explanation:"
              : "Error saving explanation:"}{" "}
            {error.message}
          </p>
          <Button
            variant="outline"
            size="sm"
            className="mt-2"
            onClick={error.kind === "generate" ? runGenerate : runSave}
          >
            Try again
          </Button>
        </div>
      )}

      {!value && !error && notConfigured && (
        <p className="text-sm text-muted-foreground">{NOT_CONFIGURED}</p>
      )}

      {!value && !error && statusKnown && !notConfigured && (
        <Button variant="outline" busy={generate.isPending} onClick={runGenerate}>
          {generate.isPending ? "Generating..." : "Generate AI Explanation"}
        </Button>
      )}

      {value && !value.saved && !error && (
        <div className="mt-3">
          {canSave ? (
            <Button size="sm" busy={save.isPending} onClick={runSave}>
              {save.isPending ? "Saving..." : "Save Explanation"}
            </Button>
          ) : (
            <p className="text-xs text-muted-foreground">
              Only the question&apos;s author can save an explanation to it.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
