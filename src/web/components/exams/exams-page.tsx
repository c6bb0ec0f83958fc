import { Link, useNavigate } from "@tanstack/react-router";
import { ClipboardList, LogIn, Trash2 } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { EXAM_LIMITS, type ExamMode, type ExamPart, type ExamPool } from "@/core/exams/settings";
import { PageHeader } from "@/web/components/layout/page-header";
import { useBanner } from "@/web/components/ui/alert";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { TextField } from "@/web/components/ui/field";
import { Spinner } from "@/web/components/ui/spinner";
import { PART_OPTIONS } from "@/web/lib/options";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { examStatusLabel, modeLabel } from "./exam-text";

const PARTS: { value: ExamPart; label: string }[] = [
  { value: "both", label: "Both parts" },
  ...PART_OPTIONS,
];
const POOLS: { value: ExamPool; label: string }[] = [
  { value: "all", label: "All questions" },
  { value: "unused", label: "Unused by me" },
  { value: "incorrect", label: "Answered incorrectly by me" },
  { value: "flagged", label: "Flagged by me" },
];
const MODES: { value: ExamMode; label: string; hint: string }[] = [
  {
    value: "timed",
    label: "Timed",
    hint: "Like the PRITE: a clock, no feedback until you submit.",
  },
  {
    value: "tutor",
    label: "Tutor",
    hint: "The answer and explanation after each question; untimed, pause any time.",
  },
];

function RadioGroup<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: T;
  options: { value: T; label: string; hint?: string }[];
  onChange: (v: T) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={value === o.value}
            onChange={() => onChange(o.value)}
            className="mt-0.5 size-4 accent-primary"
          />
          <span>
            {o.label}
            {o.hint && <span className="block text-xs text-muted-foreground">{o.hint}</span>}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** Issue 16 item 1: the settings of a new exam. */
function CreateExamCard({ onError }: { onError: (message: string) => void }) {
  const id = useId();
  const navigate = useNavigate();
  const categories = trpc.questions.categories.useQuery();
  const create = trpc.exams.create.useMutation();
  const [size, setSize] = useState(String(EXAM_LIMITS.SIZE_DEFAULT));
  const [part, setPart] = useState<ExamPart>("both");
  const [pool, setPool] = useState<ExamPool>("all");
  const [mode, setMode] = useState<ExamMode>("timed");
  const [seconds, setSeconds] = useState(String(EXAM_LIMITS.SECONDS_DEFAULT));
  const [chosen, setChosen] = useState<string[]>([]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        size: Number(size),
        part,
        pool,
        mode,
        secondsPerQuestion: Number(seconds),
        categories: chosen,
      },
      {
        onSuccess: ({ exam, notice }) =>
          void navigate({
            to: "/exams/$examId",
            params: { examId: exam.id },
            search: notice ? { notice } : {},
          }),
        onError: (err) => onError(errorMessage(err, "Failed to create the exam")),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>New Exam</CardTitle>
        <CardDescription>
          Questions balanced across categories like the PRITE blueprint, only ones with an answer.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-5" aria-label="New exam">
          <TextField
            id={`${id}-size`}
            label="Number of questions"
            hint={`${EXAM_LIMITS.SIZE_MIN}–${EXAM_LIMITS.SIZE_MAX}`}
            className="grid gap-1.5"
            type="number"
            inputMode="numeric"
            min={EXAM_LIMITS.SIZE_MIN}
            max={EXAM_LIMITS.SIZE_MAX}
            value={size}
            onValueChange={setSize}
          />
          <RadioGroup
            legend="Mode"
            name={`${id}-mode`}
            value={mode}
            options={MODES}
            onChange={setMode}
          />
          {mode === "timed" && (
            <TextField
              id={`${id}-seconds`}
              label="Seconds per question"
              hint={`90 s is the PRITE's pace; ${EXAM_LIMITS.SECONDS_MIN}–${EXAM_LIMITS.SECONDS_MAX} s.`}
              className="grid gap-1.5"
              type="number"
              inputMode="numeric"
              min={EXAM_LIMITS.SECONDS_MIN}
              max={EXAM_LIMITS.SECONDS_MAX}
              value={seconds}
              onValueChange={setSeconds}
            />
          )}
          <RadioGroup
            legend="Part"
            name={`${id}-part`}
            value={part}
            options={PARTS}
            onChange={setPart}
          />
          <RadioGroup
            legend="Questions from"
            name={`${id}-pool`}
            value={pool}
            options={POOLS}
            onChange={setPool}
          />
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Categories</legend>
            <p className="text-xs text-muted-foreground">None ticked: every category.</p>
            {categories.isPending && <Spinner label="Loading categories..." />}
            <div className="grid grid-cols-1 gap-1.5 min-[480px]:grid-cols-2">
              {(categories.data ?? []).map((c) => (
                <label key={c} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={chosen.includes(c)}
                    onChange={(e) =>
                      setChosen((prev) =>
                        e.target.checked ? [...prev, c] : prev.filter((x) => x !== c),
                      )
                    }
                    className="size-4 accent-primary"
                  />
                  {c}
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit" busy={create.isPending}>
            <ClipboardList aria-hidden="true" />
            Start Exam
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

/** Issue 16 item 6: joining a chief resident's mock exam with its code. */
function JoinCard({ initialCode, onError }: { initialCode: string; onError: (m: string) => void }) {
  const id = useId();
  const navigate = useNavigate();
  const join = trpc.exams.join.useMutation();
  const [code, setCode] = useState(initialCode);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Join a Mock Exam</CardTitle>
        <CardDescription>Enter the 8-character code your chief resident shared.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            join.mutate(
              { code },
              {
                onSuccess: (exam) =>
                  void navigate({ to: "/exams/$examId", params: { examId: exam.id } }),
                onError: (err) => onError(errorMessage(err, "Failed to join the mock exam")),
              },
            );
          }}
        >
          <TextField
            id={`${id}-code`}
            label="Join code"
            className="grid flex-1 gap-1.5"
            value={code}
            autoCapitalize="characters"
            autoComplete="off"
            onValueChange={setCode}
            placeholder="e.g. K7M2Q9XA"
          />
          <Button type="submit" busy={join.isPending} disabled={!code.trim()}>
            <LogIn aria-hidden="true" />
            Join
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function HistoryCard({ onError }: { onError: (m: string) => void }) {
  const utils = trpc.useUtils();
  const list = trpc.exams.list.useQuery();
  const remove = trpc.exams.delete.useMutation({
    onSuccess: () => void utils.exams.list.invalidate(),
    onError: (err) => onError(errorMessage(err, "Failed to delete the exam")),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>My Exams</CardTitle>
      </CardHeader>
      <CardContent>
        {list.isPending ? (
          <Spinner label="Loading exams..." showLabel />
        ) : (list.data ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground">No exams yet.</p>
        ) : (
          <ul className="divide-y" aria-label="My exams">
            {list.data!.map((e) => (
              <li key={e.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <div className="min-w-0">
                  <p className="text-sm font-medium">
                    {new Date(e.startedAt).toLocaleDateString()} · {modeLabel(e.mode)} ·{" "}
                    {e.questionCount} questions
                    {e.mockExamId && " · mock exam"}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    <Badge variant={e.status === "in_progress" ? "info" : "secondary"}>
                      {examStatusLabel(e.status)}
                    </Badge>{" "}
                    {e.scorePercent !== null &&
                      `Score ${e.scorePercent}% (${e.correctCount}/${e.questionCount})`}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button
                    asChild
                    size="sm"
                    variant={e.status === "in_progress" ? "default" : "outline"}
                  >
                    <Link to="/exams/$examId" params={{ examId: e.id }}>
                      {e.status === "in_progress" ? "Resume" : "Review"}
                    </Link>
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Delete the exam of ${new Date(e.startedAt).toLocaleString()}`}
                    onClick={() => {
                      if (window.confirm("Delete this exam and its answers?"))
                        remove.mutate({ examId: e.id });
                    }}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function MyMocksCard() {
  const mocks = trpc.exams.mocks.useQuery();
  if (!mocks.data || mocks.data.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Mock Exams I Shared</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="divide-y" aria-label="Mock exams I shared">
          {mocks.data.map((m) => (
            <li
              key={m.id}
              className="flex flex-wrap items-center justify-between gap-2 py-3 text-sm"
            >
              <span>
                <span className="font-mono font-semibold">{m.code}</span> · {m.questionCount}{" "}
                questions · {m.takers} {m.takers === 1 ? "taker" : "takers"}
                {m.meanPercent !== null && ` · mean ${m.meanPercent}%`}
                {m.closed && " · closed"}
              </span>
              <Button asChild size="sm" variant="outline">
                <Link to="/exams/mock/$code" params={{ code: m.code }}>
                  Results
                </Link>
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/** Issue 16: the Practice Exam screen (create, join, history, shared mock exams). */
export function ExamsPage({ joinCode }: { joinCode?: string }) {
  const { show, banner } = useBanner();
  const onError = (m: string) => show("error", m);
  return (
    <div className="grid gap-4">
      <PageHeader
        title="Practice Exam"
        description="Timed blocks like the PRITE, or tutor mode with the explanation after each question."
      />
      {banner}
      <CreateExamCard onError={onError} />
      <JoinCard initialCode={joinCode ?? ""} onError={onError} />
      <HistoryCard onError={onError} />
      <MyMocksCard />
    </div>
  );
}
