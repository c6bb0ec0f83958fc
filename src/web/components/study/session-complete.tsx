import { PartyPopper } from "lucide-react";
import { MasteryBar, PerformanceStrip, StreakBanner } from "@/web/components/dashboard/streak";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Spinner } from "@/web/components/ui/spinner";
import { trpc } from "@/web/lib/trpc";
import { RankingsCard } from "./rankings-card";

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-md border p-3 text-center">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-xl font-semibold">{value}</dd>
    </div>
  );
}

function CategoryList({
  title,
  items,
  tone,
}: {
  title: string;
  items: { name: string; accuracy: number }[];
  tone: "good" | "bad";
}) {
  return (
    <div>
      <h4 className="mb-1 text-sm font-medium">{title}</h4>
      {items.length === 0 ? (
        <p className="text-xs text-muted-foreground">Needs at least 5 answers in a category.</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {items.map((c) => (
            <li key={c.name} className="flex justify-between gap-2">
              <span className="truncate">{c.name}</span>
              <span className={tone === "good" ? "text-success" : "text-destructive"}>
                {c.accuracy}%
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A session studied offline, tallied in the browser: the server has no record of it yet. */
export interface OfflineTally {
  answered: number;
  correct: number;
  timeSpentMs: number;
}

interface SessionCompleteProps {
  sessionId: string;
  offline?: OfflineTally;
  onNewSession: () => void;
  onReview: () => void;
  starting: boolean;
}

/** docs/product/screens.md Session Complete, from the server's record of the session and the review log. */
export function SessionComplete({
  sessionId,
  offline,
  onNewSession,
  onReview,
  starting,
}: SessionCompleteProps) {
  const session = trpc.stats.session.useQuery({ sessionId }, { enabled: !offline });
  const summary = trpc.stats.summary.useQuery();
  const s = offline
    ? {
        questionsAnswered: offline.answered,
        correctAnswers: offline.correct,
        accuracy: offline.answered ? Math.round((100 * offline.correct) / offline.answered) : 0,
        averageTimeSeconds: offline.answered
          ? Math.round(offline.timeSpentMs / offline.answered / 1000)
          : 0,
      }
    : session.data;
  const sum = summary.data;
  return (
    <div className="space-y-4" data-testid="session-complete">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-xl">
            <PartyPopper className="size-5 text-primary" aria-hidden="true" />
            Session Complete
          </CardTitle>
        </CardHeader>
        <CardContent>
          {!s ? (
            <Spinner label="Loading session stats..." showLabel />
          ) : (
            <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="session-stats">
              <Stat label="Questions" value={s.questionsAnswered} />
              <Stat label="Accuracy" value={`${s.accuracy}%`} />
              <Stat label="Avg. Time" value={`${s.averageTimeSeconds}s`} />
              <Stat label="Correct" value={s.correctAnswers} />
            </dl>
          )}
          {offline && (
            <p className="mt-3 text-sm text-muted-foreground">
              Studied offline: these answers are saved on this device and sync when you are back
              online.
            </p>
          )}
        </CardContent>
      </Card>

      {sum && <StreakBanner streakDays={sum.streakDays} />}

      {sum && (
        <Card>
          <CardHeader>
            <CardTitle>Overall Progress</CardTitle>
          </CardHeader>
          <CardContent className="space-y-4">
            <div>
              <MasteryBar percent={sum.masteryLevel} />
              <p className="mt-1 text-xs text-muted-foreground">
                {sum.correctAnswers} of {sum.totalStudied} answers correct · {sum.masteredCount} of{" "}
                {sum.totalQuestions} questions mastered
              </p>
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <CategoryList title="Weakest Categories" items={sum.weakestCategories} tone="bad" />
              <CategoryList
                title="Strongest Categories"
                items={sum.strongestCategories}
                tone="good"
              />
            </div>
            {sum.recentPerformance.length > 0 && (
              <div>
                <h4 className="mb-1 text-sm font-medium">Recent Performance</h4>
                <PerformanceStrip
                  results={sum.recentPerformance}
                  label={`${sum.recentPerformance.filter((r) => r.isCorrect).length} of the last ${sum.recentPerformance.length} correct`}
                />
              </div>
            )}
          </CardContent>
        </Card>
      )}

      {!offline && <RankingsCard />}

      <div className="flex flex-wrap gap-2">
        <Button onClick={onNewSession} busy={starting}>
          Start New Session
        </Button>
        <Button variant="outline" onClick={onReview}>
          Review Session
        </Button>
      </div>
    </div>
  );
}
