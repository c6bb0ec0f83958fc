import { Link } from "@tanstack/react-router";
import { BookOpen, Share2 } from "lucide-react";
import { useState } from "react";
import { REVIEW_FILTERS, type ReviewFilter } from "@/core/exams/settings";
import { PageHeader } from "@/web/components/layout/page-header";
import { Alert, useBanner } from "@/web/components/ui/alert";
import { Badge } from "@/web/components/ui/badge";
import { QuestionImages } from "@/web/components/questions/question-images";
import { ReportProblem } from "@/web/components/reports/report-problem";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Spinner } from "@/web/components/ui/spinner";
import { errorMessage, trpc, type RouterOutputs } from "@/web/lib/trpc";
import { cn } from "@/web/lib/utils";
import { examStatusLabel, formatDuration, modeLabel } from "./exam-text";

type Report = RouterOutputs["exams"]["report"];

const FILTER_LABELS: Record<ReviewFilter, string> = {
  all: "All",
  incorrect: "Incorrect",
  flagged: "Flagged",
  unanswered: "Unanswered",
};

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-md border p-3 text-center">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-xl font-semibold">{value}</dd>
    </div>
  );
}

/** Correct % by category as plain bars: readable on a phone, no chart library on this screen. */
function CategoryBars({ report }: { report: Report }) {
  return (
    <ul className="grid gap-2" aria-label="Correct by category">
      {report.categories.map((c) => (
        <li key={c.category} className="grid gap-1 text-sm">
          <div className="flex justify-between gap-2">
            <span className="truncate">{c.category}</span>
            <span className="font-medium">
              {c.percent}% ({c.correct}/{c.total})
            </span>
          </div>
          <div className="h-2 rounded bg-muted" aria-hidden="true">
            <div className="h-2 rounded bg-primary" style={{ width: `${c.percent}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function ReportCard({ report }: { report: Report }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Score Report</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="exam-score">
          <Stat label="Score" value={`${report.percent}%`} />
          <Stat label="Correct" value={`${report.correct} of ${report.total}`} />
          <Stat label="Time used" value={formatDuration(report.timeUsedMs)} />
          <Stat label="Per question" value={formatDuration(report.averageMsPerQuestion)} />
        </dl>
        {(report.slowestCategory || report.mostMissedCategory) && (
          <p className="text-sm">
            {report.mostMissedCategory && (
              <>
                Most missed: <strong>{report.mostMissedCategory}</strong>.{" "}
              </>
            )}
            {report.slowestCategory && (
              <>
                Slowest: <strong>{report.slowestCategory}</strong>.
              </>
            )}
          </p>
        )}
        <CategoryBars report={report} />
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="mb-2 text-left text-xs text-muted-foreground">
              This exam beside your spaced-repetition accuracy and the cohort of residents who share
              usage data.
            </caption>
            <thead>
              <tr className="text-left">
                <th className="py-1 pr-2 font-medium">Category</th>
                <th className="py-1 pr-2 font-medium">Exam</th>
                <th className="py-1 pr-2 font-medium">Study</th>
                <th className="py-1 font-medium">Cohort</th>
              </tr>
            </thead>
            <tbody>
              {report.categories.map((c) => (
                <tr key={c.category} className="border-t">
                  <td className="py-1 pr-2">{c.category}</td>
                  <td className="py-1 pr-2">{c.percent}%</td>
                  <td className="py-1 pr-2">
                    {c.studyAccuracy === null ? "—" : `${c.studyAccuracy}%`}
                  </td>
                  <td className="py-1">
                    {c.cohortMean === null ? (
                      <span className="text-xs text-muted-foreground">{c.cohortNote ?? "—"}</span>
                    ) : (
                      `${c.cohortMean}% (${c.cohortUsers} residents)`
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </CardContent>
    </Card>
  );
}

function ReviewCard({ examId }: { examId: string }) {
  const [filter, setFilter] = useState<ReviewFilter>("all");
  const review = trpc.exams.review.useQuery({ examId, filter });
  return (
    <Card>
      <CardHeader className="gap-3">
        <CardTitle>Review</CardTitle>
        <div role="group" aria-label="Show" className="flex flex-wrap gap-1.5">
          {REVIEW_FILTERS.map((f) => (
            <Button
              key={f}
              size="sm"
              variant={filter === f ? "default" : "outline"}
              aria-pressed={filter === f}
              onClick={() => setFilter(f)}
            >
              {FILTER_LABELS[f]}
            </Button>
          ))}
        </div>
      </CardHeader>
      <CardContent>
        {review.isPending ? (
          <Spinner label="Loading review..." showLabel />
        ) : (review.data?.items ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground">No questions here.</p>
        ) : (
          <ol className="grid gap-4" aria-label="Exam questions">
            {review.data!.items.map((item) => (
              <li key={item.questionId} className="grid gap-2 rounded-md border p-3 text-sm">
                <div className="flex flex-wrap items-center gap-1.5">
                  <span className="font-semibold">Question {item.position + 1}</span>
                  <Badge
                    variant={
                      !item.answered ? "outline" : item.isCorrect ? "secondary" : "destructive"
                    }
                  >
                    {!item.answered ? "Unanswered" : item.isCorrect ? "Correct" : "Incorrect"}
                  </Badge>
                  {item.flagged && <Badge variant="outline">Flagged</Badge>}
                  <span className="text-xs text-muted-foreground">
                    {item.category} · {formatDuration(item.timeSpentMs)}
                  </span>
                </div>
                <p className="whitespace-pre-wrap">{item.text}</p>
                <QuestionImages images={item.images} />
                <ul className="grid gap-1">
                  {Object.entries(item.options)
                    .filter(([, t]) => t.trim() !== "")
                    .map(([letter, text]) => (
                      <li
                        key={letter}
                        className={cn(
                          item.correctAnswers.includes(letter) && "font-medium text-success",
                          item.selected.includes(letter) &&
                            !item.correctAnswers.includes(letter) &&
                            "text-destructive line-through",
                        )}
                      >
                        {letter}. {text}
                        {item.selected.includes(letter) && " ← your answer"}
                      </li>
                    ))}
                </ul>
                <p>
                  Correct answer: <strong>{item.correctAnswers.join(", ")}</strong>
                </p>
                {(item.explanation || item.generatedExplanation) && (
                  <p className="whitespace-pre-wrap text-muted-foreground">
                    {item.explanation || item.generatedExplanation}
                  </p>
                )}
                <ReportProblem questionId={item.questionId} />
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

/** Issue 16 items 3-4 and 6: the report, the review, sending the missed ones to study, sharing. */
export function ExamResults({ examId }: { examId: string }) {
  const utils = trpc.useUtils();
  const report = trpc.exams.report.useQuery({ examId });
  const studyIncorrect = trpc.exams.studyIncorrect.useMutation();
  const share = trpc.exams.share.useMutation();
  const { show, banner } = useBanner();
  const [shared, setShared] = useState<{ code: string; notice: string | null } | null>(null);

  if (report.isPending) return <Spinner label="Loading report..." showLabel />;
  if (!report.data) {
    return <Alert type="error">{errorMessage(report.error, "Failed to load the report")}</Alert>;
  }
  const exam = report.data.exam;
  const joinLink = shared ? `${window.location.origin}/exams?join=${shared.code}` : "";
  return (
    <div className="grid gap-4">
      <PageHeader
        title="Exam Results"
        description={`${modeLabel(exam.mode)} · ${exam.questionCount} questions · ${examStatusLabel(exam.status)} · ${new Date(exam.startedAt).toLocaleString()}`}
      />
      {banner}
      <ReportCard report={report.data} />
      <div className="flex flex-wrap gap-2">
        <Button
          busy={studyIncorrect.isPending}
          onClick={() =>
            studyIncorrect.mutate(
              { examId },
              {
                onSuccess: (r) => {
                  show(
                    "success",
                    r.added === 0
                      ? "No incorrect questions to study."
                      : `${r.added} ${r.added === 1 ? "question is" : "questions are"} due for study today.`,
                  );
                  void utils.stats.invalidate();
                  void utils.study.invalidate();
                },
                onError: (err) =>
                  show("error", errorMessage(err, "Failed to add the questions to study")),
              },
            )
          }
        >
          <BookOpen aria-hidden="true" />
          Study these incorrect
        </Button>
        {!exam.mockExamId && !shared && (
          <Button
            variant="outline"
            busy={share.isPending}
            onClick={() =>
              share.mutate(
                { examId },
                {
                  onSuccess: (r) => {
                    setShared({ code: r.mockExam.code, notice: r.notice });
                    void utils.exams.mocks.invalidate();
                  },
                  onError: (err) => show("error", errorMessage(err, "Failed to share the exam")),
                },
              )
            }
          >
            <Share2 aria-hidden="true" />
            Share as mock exam
          </Button>
        )}
        <Button asChild variant="ghost">
          <Link to="/exams">Back to Practice Exam</Link>
        </Button>
      </div>
      {shared && (
        <Alert type="success" dismissible={false} autoCloseMs={null}>
          Mock exam shared. Join code:{" "}
          <strong className="font-mono" data-testid="join-code">
            {shared.code}
          </strong>
          {" · "}link: <span className="break-all">{joinLink}</span>
          {shared.notice && <span className="block">{shared.notice}</span>}
          <span className="block">
            <Link to="/exams/mock/$code" params={{ code: shared.code }} className="underline">
              See the takers' results
            </Link>
          </span>
        </Alert>
      )}
      <ReviewCard examId={examId} />
    </div>
  );
}
