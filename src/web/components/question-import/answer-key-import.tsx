import { CircleCheck } from "lucide-react";
import { useState } from "react";
import type { Part } from "@/core/import/types";
import { defaultYear } from "@/web/components/import/question-fields";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/web/components/ui/card";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { keyFromResponse } from "./answer-key-data";
import { OutcomeCard, ParserWarnings, PasteInputCard } from "./paste-parts";

type Step = "input" | "review" | "complete";

/** docs/product/validation.md: the instruction sent with an answer key to the AI service. */
export const ANSWER_KEY_PROMPT =
  "Extract the answer key from the following text. Return only a JSON object that maps each question number to its answer, " +
  'for example {"1": "B", "2": "D"}. Each answer is a single letter from A to E. ' +
  "When a line lists several letters and one of them is in parentheses, the letter in parentheses is the correct answer.";

/** docs/product/screens.md Question import, 'Process Answer Key' tab: input, review, complete. */
export function AnswerKeyImport() {
  const { show, clear, banner } = useBanner();
  const [step, setStep] = useState<Step>("input");
  const [part, setPart] = useState<Part>("1");
  const [year, setYear] = useState(() => defaultYear());
  const [text, setText] = useState("");
  const [answers, setAnswers] = useState<Record<number, string>>({});
  // The parser's notes on how it read the key (sections left out, numbers read as letters…).
  const [warnings, setWarnings] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const aiProcess = trpc.ai.process.useMutation();
  const saveKey = trpc.answerKeys.save.useMutation();
  const utils = trpc.useUtils();

  const process = async () => {
    if (text.trim() === "" || busy) return;
    clear();
    setBusy(true);
    try {
      const result = await aiProcess.mutateAsync({
        text,
        format: "json",
        kind: "answerKey",
        prompt: ANSWER_KEY_PROMPT,
        part,
        year,
      });
      if (!result.success) {
        show("error", result.error || "Failed to process answer key");
        return;
      }
      const found = keyFromResponse(result);
      if (Object.keys(found.answers).length === 0) {
        show("error", "Error processing answer key: no answers were found in the text");
        return;
      }
      setAnswers(found.answers);
      setWarnings(found.warnings);
      setStep("review");
    } catch (error) {
      const detail = errorMessage(error, error instanceof Error ? error.message : "");
      show(
        "error",
        detail ? `Error processing answer key: ${detail}` : "Failed to process answer key",
      );
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    clear();
    try {
      await saveKey.mutateAsync({ part, year, answers });
      void utils.answerKeys.invalidate();
      setStep("complete");
    } catch (error) {
      show(
        "error",
        `Error applying answers: ${errorMessage(error, error instanceof Error ? error.message : "Unknown error")}`,
      );
    }
  };

  const numbers = Object.keys(answers)
    .map(Number)
    .sort((a, b) => a - b);

  return (
    <div className="grid gap-4">
      {banner}

      {step === "input" && (
        <PasteInputCard
          idPrefix="answer-key"
          part={part}
          year={year}
          onPartChange={setPart}
          onYearChange={setYear}
          textLabel="Answer Key Text"
          rows={10}
          text={text}
          onTextChange={setText}
          placeholder={"1. B\n2. D\n3. A\n…"}
          actionLabel="Process Answer Key"
          busy={busy}
          onSubmit={() => void process()}
        />
      )}

      {step === "review" && (
        <Card>
          <CardHeader>
            <CardTitle>Review Answer Key</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            <dl className="grid grid-cols-3 gap-3 text-center">
              <div className="rounded-md bg-muted/60 p-2">
                <dt className="text-xs text-muted-foreground">Part</dt>
                <dd className="font-semibold">{part}</dd>
              </div>
              <div className="rounded-md bg-muted/60 p-2">
                <dt className="text-xs text-muted-foreground">Year</dt>
                <dd className="font-semibold">{year}</dd>
              </div>
              <div className="rounded-md bg-muted/60 p-2">
                <dt className="text-xs text-muted-foreground">Answers</dt>
                <dd className="font-semibold">{numbers.length} answers found</dd>
              </div>
            </dl>
            <ParserWarnings warnings={warnings} />
            <ul
              aria-label="Answers by question number"
              className="grid grid-cols-4 gap-2 min-[420px]:grid-cols-5 sm:grid-cols-8"
            >
              {numbers.map((n) => (
                <li
                  key={n}
                  className="flex items-center justify-center gap-1 rounded-md border px-2 py-1.5 text-sm"
                >
                  <span className="text-muted-foreground">{n}.</span>
                  <span className="font-semibold">{answers[n]}</span>
                </li>
              ))}
            </ul>
          </CardContent>
          <CardFooter className="flex-wrap justify-between">
            <Button
              variant="outline"
              onClick={() => {
                clear();
                setStep("input");
              }}
              disabled={saveKey.isPending}
            >
              Go Back
            </Button>
            <Button onClick={() => void save()} busy={saveKey.isPending}>
              Save Answer Key
            </Button>
          </CardFooter>
        </Card>
      )}

      {step === "complete" && (
        <OutcomeCard
          icon={CircleCheck}
          iconClassName="text-success"
          title="Answer Key Saved!"
          actions={
            <Button
              onClick={() => {
                clear();
                setText("");
                setAnswers({});
                setWarnings([]);
                setStep("input");
              }}
            >
              Process Another Answer Key
            </Button>
          }
        >
          {numbers.length} answers for PRITE {year} Part {part} will be filled in when you import
          those questions.
        </OutcomeCard>
      )}
    </div>
  );
}
