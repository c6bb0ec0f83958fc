import { Link } from "@tanstack/react-router";
import { DayCounts } from "@/web/components/study/day-plan";
import { BookOpen, Camera, ClipboardList, FileUp, Layers, Star, Clock } from "lucide-react";
import type { ReactNode } from "react";
import { OpenAssignmentsCard } from "@/web/components/assignments/open-assignments-card";
import { PageHeader } from "@/web/components/layout/page-header";
import { Alert } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { Progress } from "@/web/components/ui/progress";
import { Spinner } from "@/web/components/ui/spinner";
import { useSessionUser } from "@/web/lib/session";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { MasteryBar, PerformanceStrip, StreakBanner } from "./streak";
import { ClassPercentilesCard } from "@/web/components/programs/class-percentiles-card";

function Tile({ label, value, icon }: { label: string; value: number; icon: ReactNode }) {
  return (
    <div className="flex flex-col items-center rounded-lg border bg-card p-3 text-center shadow-sm">
      <dt className="order-last text-xs text-muted-foreground">{label}</dt>
      <dd className="flex flex-col items-center text-2xl font-semibold">
        <span className="mb-1 text-primary" aria-hidden="true">
          {icon}
        </span>
        {value}
      </dd>
    </div>
  );
}

/** docs/product/screens.md Dashboard, from `stats.summary` (the review log, in the user's time zone). */
export function DashboardPage() {
  const user = useSessionUser();
  const summary = trpc.stats.summary.useQuery();
  const s = summary.data;

  return (
    <div className="space-y-4">
      <PageHeader title="Dashboard" description={`Welcome, ${user.username}`} />

      <OpenAssignmentsCard />

      {summary.isError && (
        <Alert type="error" autoCloseMs={null}>
          {errorMessage(summary.error, "Failed to load your study statistics")}
        </Alert>
      )}
      {summary.isPending && <Spinner label="Loading..." showLabel />}

      {s && (
        <>
          <StreakBanner streakDays={s.streakDays} />

          <dl className="grid grid-cols-3 gap-2" data-testid="dashboard-tiles">
            <Tile label="Total" value={s.totalQuestions} icon={<Layers className="size-5" />} />
            <Tile label="Due Today" value={s.dueCount} icon={<Clock className="size-5" />} />
            <Tile label="Mastered" value={s.masteredCount} icon={<Star className="size-5" />} />
          </dl>

          <Card>
            <CardHeader>
              <CardTitle>Study Progress</CardTitle>
            </CardHeader>
            <CardContent className="space-y-4">
              <MasteryBar percent={s.masteryLevel} testId="overall-mastery" />
              <div>
                <div className="mb-1 flex justify-between text-sm">
                  <span>Recent Questions</span>
                  <span className="font-medium" data-testid="recent-questions">
                    {s.recentPerformance.filter((r) => r.isCorrect).length}/
                    {s.recentPerformance.length} correct
                  </span>
                </div>
                {s.recentPerformance.length > 0 ? (
                  <PerformanceStrip
                    results={s.recentPerformance}
                    label="Recent questions, newest first"
                  />
                ) : (
                  <p className="text-xs text-muted-foreground">No questions answered yet.</p>
                )}
              </div>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Category Progress</CardTitle>
            </CardHeader>
            <CardContent className="space-y-3">
              {s.categoryProgress.length === 0 ? (
                <p className="text-sm text-muted-foreground">No questions yet.</p>
              ) : (
                <ul className="space-y-3" data-testid="category-progress">
                  {s.categoryProgress.map((c) => (
                    <li key={c.name}>
                      <div className="mb-1 flex justify-between gap-2 text-sm">
                        <span className="truncate font-medium">{c.name}</span>
                        <span>{c.masteryPercent}% mastered</span>
                      </div>
                      <Progress value={c.masteryPercent} aria-label={`${c.name} mastery`} />
                      <p className="mt-1 text-xs text-muted-foreground">
                        {c.total} {c.total === 1 ? "question" : "questions"} · {c.mastered} mastered
                        · {c.due} due
                      </p>
                    </li>
                  ))}
                </ul>
              )}
              <Button asChild variant="link" className="px-0">
                <Link to="/browse">Browse all questions</Link>
              </Button>
            </CardContent>
          </Card>

          <ClassPercentilesCard />

          <Card>
            <CardHeader>
              <CardTitle>Areas to Improve</CardTitle>
            </CardHeader>
            <CardContent>
              {s.weakestCategories.length === 0 ? (
                <p className="text-sm text-muted-foreground">
                  Answer at least 5 questions in a category to see where to focus.
                </p>
              ) : (
                <ul className="space-y-2" data-testid="areas-to-improve">
                  {s.weakestCategories.map((c) => (
                    <li key={c.name} className="flex justify-between gap-2 text-sm">
                      <span className="truncate">{c.name}</span>
                      <span className="font-medium text-destructive">{c.accuracy}% accuracy</span>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Ready to Study</CardTitle>
              <CardDescription>
                {s.dueCount === 1
                  ? "1 question is due for review."
                  : `${s.dueCount} questions are due for review.`}
              </CardDescription>
            </CardHeader>
            <CardContent className="space-y-3">
              <DayCounts />
              <Button asChild className="w-full">
                <Link to="/study">
                  <BookOpen aria-hidden="true" />
                  Start Studying
                </Link>
              </Button>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Practice Exam</CardTitle>
              <CardDescription>
                A timed block like the PRITE, or tutor mode, with a report by category.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Button asChild variant="outline" className="w-full">
                <Link to="/exams">
                  <ClipboardList aria-hidden="true" />
                  Practice Exam
                </Link>
              </Button>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Need More Questions</CardTitle>
              <CardDescription>Capture questions from your exam or import a file.</CardDescription>
            </CardHeader>
            <CardContent className="flex gap-2">
              <Button asChild variant="outline" className="flex-1">
                <Link to="/capture">
                  <Camera aria-hidden="true" />
                  Capture
                </Link>
              </Button>
              <Button asChild variant="outline" className="flex-1">
                <Link to="/import">
                  <FileUp aria-hidden="true" />
                  Import
                </Link>
              </Button>
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}
