import { RECENT_PERFORMANCE_LIMIT } from "@/core/constants";
import { percent } from "@/core/stats";
import { PerformanceStrip } from "@/web/components/dashboard/streak";

export interface SessionTally {
  answered: number;
  correct: number;
  /** This session's results in answer order. */
  results: { isCorrect: boolean }[];
}

/** docs/product/screens.md: the Session Progress box (answered, correct, accuracy, recent performance). */
export function SessionProgressBox({ tally }: { tally: SessionTally }) {
  const recent = tally.results.slice(-RECENT_PERFORMANCE_LIMIT).reverse();
  return (
    <section
      aria-labelledby="session-progress-title"
      className="rounded-lg border bg-card p-4"
      data-testid="session-progress"
    >
      <h2 id="session-progress-title" className="mb-3 font-semibold">
        Session Progress
      </h2>
      <dl className="grid grid-cols-3 gap-2 text-center">
        <div>
          <dt className="text-xs text-muted-foreground">Answered</dt>
          <dd className="text-lg font-semibold">{tally.answered}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Correct</dt>
          <dd className="text-lg font-semibold">{tally.correct}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Accuracy</dt>
          <dd className="text-lg font-semibold">{percent(tally.correct, tally.answered)}%</dd>
        </div>
      </dl>
      {recent.length > 0 && (
        <div className="mt-3">
          <p className="mb-1 text-xs text-muted-foreground">Recent performance</p>
          <PerformanceStrip
            results={recent}
            label={`${recent.filter((r) => r.isCorrect).length} of the last ${recent.length} correct`}
          />
        </div>
      )}
    </section>
  );
}
