import { Link } from "@tanstack/react-router";
import { CircleCheck } from "lucide-react";
import { useState } from "react";
import type { ParsedQuestion, Part } from "@/core/import/types";
import { defaultYear } from "@/web/components/import/question-fields";
import { useBanner } from "@/web/components/ui/alert";
import {
  VisibilityChoice,
  useVisibilityChoice,
} from "@/web/components/questions/visibility-choice";
import { Button } from "@/web/components/ui/button";
import { useConfirm } from "@/web/components/ui/dialog";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { fillAnswers, questionsFromData, saveItems, useStoredAnswerKey } from "./paste-shared";
import { OutcomeCard, PasteInputCard, StickyActions } from "./paste-parts";
import { ReviewCard } from "./review-card";

type Step = "input" | "review" | "complete";

/** docs/product/screens.md Question import, 'Parse Questions' tab: input, review, complete (states.md, validation.md and errors.md). */
export function ParseQuestions() {
  const { show, clear, banner } = useBanner();
  const { confirm, dialog } = useConfirm();
  const [step, setStep] = useState<Step>("input");
  const [part, setPart] = useState<Part>("1");
  const [year, setYear] = useState(() => defaultYear());
  const [text, setText] = useState("");
  const [questions, setQuestions] = useState<ParsedQuestion[]>([]);
  const [savedCount, setSavedCount] = useState(0);
  const [busy, setBusy] = useState(false);

  const aiProcess = trpc.ai.process.useMutation();
  const bulkCreate = trpc.questions.bulkCreate.useMutation();
  const visibility = useVisibilityChoice();
  const utils = trpc.useUtils();
  const storedKey = useStoredAnswerKey();

  /**
   * docs/product/validation.md: a stored key for this part and year is applied silently when no question has an answer
   * yet, otherwise only if the user agrees (and then the key's answers win).
   */
  const withStoredKey = async (found: ParsedQuestion[]): Promise<ParsedQuestion[]> => {
    const answers = await storedKey(part, year);
    if (!answers) return found;
    try {
      if (!found.some((q) => q.correctAnswer !== "")) {
        return fillAnswers(found, answers, false).questions;
      }
      const agreed = await confirm({
        title: `Answer key found for PRITE ${year} Part ${part}. Apply these answers to your questions?`,
        confirmLabel: "Apply",
      });
      return agreed ? fillAnswers(found, answers, true).questions : found;
    } catch (error) {
      show(
        "error",
        `Error applying answers: ${error instanceof Error ? error.message : String(error)}`,
      );
      return found;
    }
  };

  const parse = async () => {
    if (text.trim() === "" || busy) return;
    clear();
    setBusy(true);
    try {
      let result;
      try {
        result = await aiProcess.mutateAsync({
          text,
          format: "json",
          kind: "questions",
          part,
          year,
        });
      } catch (error) {
        show(
          "error",
          errorMessage(error, error instanceof Error ? error.message : "Unknown error"),
        );
        return;
      }
      if (!result.success) {
        show("error", result.error || "Unknown error");
        return;
      }
      let found: ParsedQuestion[] | null;
      try {
        found = questionsFromData(result.data, { part, year });
        if (found === null) throw new Error("the response holds no questions");
        if (found.length === 0) throw new Error("no questions were found in the text");
      } catch (error) {
        show(
          "error",
          `Failed to parse questions from response: ${error instanceof Error ? error.message : String(error)}`,
        );
        return;
      }
      setQuestions(await withStoredKey(found));
      setStep("review");
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
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
      setStep("complete");
    } catch (error) {
      show("error", errorMessage(error, "Failed to create questions"));
    }
  };

  const startOver = () => {
    clear();
    setText("");
    setQuestions([]);
    setSavedCount(0);
    setStep("input");
  };

  const answered = questions.filter((q) => q.correctAnswer !== "").length;

  return (
    <div className="grid gap-4">
      {banner}
      {dialog}

      {step === "input" && (
        <PasteInputCard
          idPrefix="paste-questions"
          part={part}
          year={year}
          onPartChange={setPart}
          onYearChange={setYear}
          textLabel="Question Text"
          rows={12}
          text={text}
          onTextChange={setText}
          placeholder={"1. Question text\nA. First option\nB. Second option\n…"}
          actionLabel="Parse Questions"
          busy={busy}
          onSubmit={() => void parse()}
        />
      )}

      {step === "review" && (
        <section aria-labelledby="paste-review-heading" className="grid gap-4">
          <h2 id="paste-review-heading" className="text-lg font-semibold">
            Review Questions ({answered}/{questions.length} answered)
          </h2>
          <ol className="grid gap-4">
            {questions.map((question, index) => (
              <ReviewCard
                key={index}
                question={question}
                index={index}
                showPartYear
                categoryNoneLabel="-- Select a category --"
                onChange={(patch) =>
                  setQuestions((list) => list.map((q, i) => (i === index ? { ...q, ...patch } : q)))
                }
                onRemove={() => setQuestions((list) => list.filter((_, i) => i !== index))}
              />
            ))}
          </ol>
          <VisibilityChoice state={visibility.state} />
          <StickyActions>
            <Button
              variant="outline"
              onClick={() => {
                clear();
                setStep("input");
              }}
              disabled={bulkCreate.isPending}
            >
              Back
            </Button>
            <Button
              onClick={() => void save()}
              disabled={answered === 0}
              busy={bulkCreate.isPending}
            >
              {answered === 0 ? "Select at least one answer" : `Save ${questions.length} Questions`}
            </Button>
          </StickyActions>
        </section>
      )}

      {step === "complete" && (
        <OutcomeCard
          icon={CircleCheck}
          iconClassName="text-success"
          title="Questions Saved!"
          actions={
            <>
              <Button variant="outline" onClick={startOver}>
                Add More Questions
              </Button>
              <Button asChild>
                <Link to="/study">Start Studying</Link>
              </Button>
            </>
          }
        >
          {savedCount} {savedCount === 1 ? "question was" : "questions were"} added to your bank.
        </OutcomeCard>
      )}
    </div>
  );
}
