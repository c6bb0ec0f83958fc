import { CircleCheck, SearchX, Smartphone } from "lucide-react";
import { useState } from "react";
import type { ParsedQuestion, Part } from "@/core/import/types";
import { parseQuestionsText } from "@/core/parsing";
import { PageHeader } from "@/web/components/layout/page-header";
import { ChoiceRadio, PartYearFields, defaultYear } from "@/web/components/import/question-fields";
import { OutcomeCard, StickyActions } from "@/web/components/question-import/paste-parts";
import { ReviewCard } from "@/web/components/question-import/review-card";
import {
  dataAsText,
  fillAnswers,
  questionsFromData,
  saveItems,
  useStoredAnswerKey,
} from "@/web/components/question-import/paste-shared";
import { useBanner } from "@/web/components/ui/alert";
import {
  VisibilityChoice,
  useVisibilityChoice,
} from "@/web/components/questions/visibility-choice";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Label } from "@/web/components/ui/label";
import { Textarea } from "@/web/components/ui/textarea";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { cn } from "@/web/lib/utils";

type Step = "upload" | "parse" | "review" | "complete" | "empty";
type Format = "json" | "text";

const STEP_NUMBER: Record<Step, number> = { upload: 1, parse: 2, review: 3, complete: 4, empty: 2 };

/** docs/product/screens.md 'Capture (four steps)', states.md 'Capture flow', validation.md 'Capture'. */
export function CapturePage() {
  const { show, clear, banner } = useBanner();
  const [step, setStep] = useState<Step>("upload");
  const [part, setPart] = useState<Part>("1");
  const [year, setYear] = useState(() => defaultYear());
  const [format, setFormat] = useState<Format>("json");
  const [text, setText] = useState("");
  const [parseText, setParseText] = useState("");
  const [questions, setQuestions] = useState<ParsedQuestion[]>([]);
  const [savedCount, setSavedCount] = useState(0);

  const aiProcess = trpc.ai.process.useMutation();
  const bulkCreate = trpc.questions.bulkCreate.useMutation();
  const visibility = useVisibilityChoice();
  const utils = trpc.useUtils();
  const storedKey = useStoredAnswerKey();

  /** docs/product/validation.md: answers from a stored key for this part and year, by question number. */
  const toReview = async (found: ParsedQuestion[]) => {
    if (found.length === 0) {
      setStep("empty");
      return;
    }
    const answers = await storedKey(part, year);
    setQuestions(answers ? fillAnswers(found, answers, false).questions : found);
    setStep("review");
  };

  const process = async () => {
    if (text.trim() === "" || aiProcess.isPending) return;
    clear();
    try {
      const result = await aiProcess.mutateAsync({ text, format, kind: "questions", part, year });
      if (!result.success) throw new Error(result.error || "Failed to process with AI");
      if (format === "json") {
        const found = questionsFromData(result.data, { part, year });
        if (found === null) {
          // docs/product/validation.md: a JSON error falls back to the plain-text path.
          show("error", "Error processing the JSON data. Please check the format.");
          setParseText(text);
          setStep("parse");
          return;
        }
        await toReview(found);
      } else {
        const returned = dataAsText(result.data);
        setParseText(typeof result.data === "string" && returned.trim() ? returned : text);
        setStep("parse");
      }
    } catch (error) {
      const reason = errorMessage(error, error instanceof Error ? error.message : "Unknown error");
      show("error", `An error occurred while processing: ${reason}`);
    }
  };

  const parse = async () => {
    clear();
    if (parseText.trim() === "") {
      show("error", "Please enter some text to parse");
      return;
    }
    try {
      await toReview(parseQuestionsText(parseText, { part, year }));
    } catch (error) {
      show(
        "error",
        `Failed to parse questions: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };

  const saveAll = async () => {
    clear();
    const level = visibility.check();
    if (!level) return;
    try {
      const saved = await bulkCreate.mutateAsync({
        questions: saveItems(questions),
        part,
        year,
        ...level,
      });
      void utils.invalidate();
      setSavedCount(saved.length);
      show("success", `Successfully saved ${saved.length} questions!`);
      setStep("complete");
    } catch (error) {
      const reason = errorMessage(error, error instanceof Error ? error.message : "Unknown error");
      show("error", `Failed to save questions: ${reason}`);
    }
  };

  const reset = () => {
    clear();
    setText("");
    setParseText("");
    setQuestions([]);
    setSavedCount(0);
    setStep("upload");
  };

  const update = (index: number, patch: Partial<ParsedQuestion>) =>
    setQuestions((list) => list.map((q, i) => (i === index ? { ...q, ...patch } : q)));

  return (
    <>
      <PageHeader title="Capture Questions" />
      <CaptureSteps current={STEP_NUMBER[step]} />
      <div className="mt-4 grid gap-4">
        {banner}

        {step === "upload" && (
          <Card>
            <CardHeader>
              <CardTitle>Paste Questions</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-5">
              <PartYearFields
                idPrefix="capture"
                part={part}
                year={year}
                onPartChange={setPart}
                onYearChange={setYear}
                partLabel="PRITE Part"
                yearLabel="Year"
              />
              <LiveTextHelp />
              <div className="grid gap-2">
                <Label htmlFor="capture-text">Question text</Label>
                <Textarea
                  id="capture-text"
                  rows={12}
                  value={text}
                  onChange={(event) => setText(event.target.value)}
                  placeholder="Paste the text copied from your photo here"
                />
              </div>
              <fieldset className="grid gap-2">
                <legend className="mb-1 text-sm font-medium">Format</legend>
                <ChoiceRadio
                  id="capture-format-json"
                  name="capture-format"
                  value="json"
                  label="JSON (recommended)"
                  hint="The questions are read straight into the review."
                  checked={format === "json"}
                  onSelect={() => setFormat("json")}
                />
                <ChoiceRadio
                  id="capture-format-text"
                  name="capture-format"
                  value="text"
                  label="Plain Text"
                  hint="You can correct the extracted text before it is split into questions."
                  checked={format === "text"}
                  onSelect={() => setFormat("text")}
                />
              </fieldset>
            </CardContent>
            <CardFooter className="justify-end">
              <Button
                onClick={() => void process()}
                disabled={text.trim() === ""}
                busy={aiProcess.isPending}
              >
                {aiProcess.isPending ? "Processing..." : "Process"}
              </Button>
            </CardFooter>
          </Card>
        )}

        {step === "parse" && (
          <Card>
            <CardHeader>
              <CardTitle>Review Text</CardTitle>
              <p className="text-sm text-muted-foreground">
                Correct the extracted text if needed: number each question (1., 2., …) and start
                each option with its letter (A., B., …).
              </p>
            </CardHeader>
            <CardContent className="grid gap-2">
              <Label htmlFor="capture-parse-text">Extracted text</Label>
              <Textarea
                id="capture-parse-text"
                rows={12}
                value={parseText}
                onChange={(event) => setParseText(event.target.value)}
              />
            </CardContent>
            <CardFooter className="flex-wrap justify-between">
              <Button variant="outline" onClick={() => setStep("upload")}>
                Back
              </Button>
              <Button onClick={() => void parse()}>Parse Questions</Button>
            </CardFooter>
          </Card>
        )}

        {step === "review" && (
          <section aria-labelledby="capture-review-heading" className="grid gap-4">
            <h2 id="capture-review-heading" className="text-lg font-semibold">
              Review Questions ({questions.length})
            </h2>
            <ol className="grid gap-4">
              {questions.map((question, index) => (
                <ReviewCard
                  key={index}
                  question={question}
                  index={index}
                  categoryNoneLabel="Uncategorized"
                  onChange={(patch) => update(index, patch)}
                  onRemove={() => setQuestions((list) => list.filter((_, i) => i !== index))}
                />
              ))}
            </ol>
            <VisibilityChoice state={visibility.state} />
            <StickyActions>
              <Button
                variant="outline"
                onClick={() => setStep("upload")}
                disabled={bulkCreate.isPending}
              >
                Back
              </Button>
              <Button
                onClick={() => void saveAll()}
                busy={bulkCreate.isPending}
                disabled={questions.length === 0}
              >
                {bulkCreate.isPending ? "Saving..." : "Save All"}
              </Button>
            </StickyActions>
          </section>
        )}

        {step === "complete" && (
          <OutcomeCard
            icon={CircleCheck}
            iconClassName="text-success"
            title="Questions Saved!"
            actions={<Button onClick={reset}>Add More Questions</Button>}
          >
            {savedCount} {savedCount === 1 ? "question was" : "questions were"} added to your bank.
          </OutcomeCard>
        )}

        {step === "empty" && (
          <OutcomeCard
            icon={SearchX}
            iconClassName="text-muted-foreground"
            title="No Questions Found"
            actions={
              <Button
                onClick={() => {
                  clear();
                  setStep("upload");
                }}
              >
                Try Again
              </Button>
            }
          >
            No questions with answer options were found in the text. Check that each question is
            numbered and each option starts with its letter.
          </OutcomeCard>
        )}
      </div>
    </>
  );
}

const CAPTURE_STEPS = ["Upload", "Parse", "Review", "Complete"];

function CaptureSteps({ current }: { current: number }) {
  return (
    <nav aria-label="Capture steps">
      <ol className="grid grid-cols-4 gap-2 text-center text-xs">
        {CAPTURE_STEPS.map((label, i) => (
          <li
            key={label}
            aria-current={i + 1 === current ? "step" : undefined}
            className="grid justify-items-center gap-1"
          >
            <span
              className={cn(
                "h-1.5 w-full rounded-full",
                i + 1 <= current ? "bg-primary" : "bg-muted",
              )}
            />
            <span className={i + 1 === current ? "font-medium" : "text-muted-foreground"}>
              {label}
            </span>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function LiveTextHelp() {
  return (
    <details className="rounded-md bg-info-soft p-3 text-sm text-info-soft-foreground">
      <summary className="flex min-h-8 cursor-pointer items-center gap-2 font-medium">
        <Smartphone className="size-4" aria-hidden="true" />
        How to copy text from a photo
      </summary>
      <ol className="mt-2 list-decimal space-y-1 pl-5">
        <li>Take a clear photo of the question page, straight on and well lit.</li>
        <li>
          iPhone (Live Text): open the photo, press and hold on the text, drag to select all of it,
          then tap Copy.
        </li>
        <li>
          Android (Google Lens): open the photo, tap Lens, choose Text, select all, then tap Copy
          text.
        </li>
        <li>Come back here and paste the text into the box below.</li>
      </ol>
    </details>
  );
}
