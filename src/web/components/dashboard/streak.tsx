import { Flame } from "lucide-react";
import { STREAK_MAX_BARS } from "@/core/constants";
import { Progress } from "@/web/components/ui/progress";
import { cn } from "@/web/lib/utils";

// One height for both states and the placeholder, so the banner arriving moves nothing below it.
const BANNER_BOX = "flex min-h-16 items-center gap-3 rounded-lg border p-4";

/** The banner's box while the streak loads (layout shift, issue 8). */
export function StreakPlaceholder() {
  return (
    <div
      className={cn(BANNER_BOX, "bg-card")}
      aria-hidden="true"
      data-testid="streak-placeholder"
    />
  );
}

/** docs/product/screens.md: at most 5 bars and 'N-day study streak', or the invitation to start one. */
export function StreakBanner({
  streakDays,
  className,
}: {
  streakDays: number;
  className?: string;
}) {
  if (streakDays <= 0) {
    return (
      <div className={cn(BANNER_BOX, "bg-card", className)} data-testid="streak">
        <Flame className="size-5 text-muted-foreground" aria-hidden="true" />
        <p className="text-sm">Start studying today to build your streak!</p>
      </div>
    );
  }
  const bars = Math.min(streakDays, STREAK_MAX_BARS);
  return (
    <div
      className={cn(
        BANNER_BOX,
        "border-warning/30 bg-warning-soft text-warning-soft-foreground",
        className,
      )}
      data-testid="streak"
    >
      <Flame className="size-5 text-warning" aria-hidden="true" />
      <div className="flex items-end gap-1" aria-hidden="true" data-testid="streak-bars">
        {Array.from({ length: bars }, (_, i) => (
          <span
            key={i}
            className="w-2.5 rounded-sm bg-warning"
            style={{ height: `${14 + i * 4}px` }}
          />
        ))}
      </div>
      <p className="font-medium">{streakDays}-day study streak</p>
    </div>
  );
}

/** A row of green/red marks, newest first: the Recent Questions strip. */
export function PerformanceStrip({
  results,
  label,
}: {
  results: { isCorrect: boolean }[];
  label: string;
}) {
  return (
    <div className="flex gap-1" role="img" aria-label={label}>
      {results.map((r, i) => (
        <span
          key={i}
          className={cn("h-3 flex-1 rounded-sm", r.isCorrect ? "bg-success" : "bg-destructive")}
          style={{ maxWidth: "2rem" }}
        />
      ))}
    </div>
  );
}

/** docs/product/constants.md Overall Mastery: correct answers / answers, as a labelled bar. */
export function MasteryBar({ percent, testId }: { percent: number; testId?: string }) {
  return (
    <div>
      <div className="mb-1 flex justify-between text-sm">
        <span>Overall Mastery</span>
        <span className="font-medium" data-testid={testId}>
          {percent}%
        </span>
      </div>
      <Progress value={percent} aria-label="Overall mastery" />
    </div>
  );
}
