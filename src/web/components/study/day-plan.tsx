import { Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { errorMessage, trpc } from "@/web/lib/trpc";

/** New and Review counts of today's list (Study and the Dashboard; docs/product/study-plan.md). */
export function DayCounts() {
  const plan = trpc.study.dayPlan.useQuery();
  if (!plan.data) return null;
  return (
    <dl className="grid grid-cols-2 gap-2 text-center" aria-label="Today's study list">
      <div className="rounded-md border p-3">
        <dt className="text-xs text-muted-foreground">New</dt>
        <dd className="text-2xl font-semibold" data-testid="overview-new">
          {plan.data.newCount}
        </dd>
      </div>
      <div className="rounded-md border p-3">
        <dt className="text-xs text-muted-foreground">Review</dt>
        <dd className="text-2xl font-semibold" data-testid="overview-review">
          {plan.data.reviewCount}
        </dd>
      </div>
    </dl>
  );
}

/** Study's plan panel: the counts, the catch-up offer after time away, and the way to the leeches. */
export function DayPlan() {
  const id = useId();
  const utils = trpc.useUtils();
  const plan = trpc.study.dayPlan.useQuery();
  const start = trpc.study.startCatchUp.useMutation();
  const end = trpc.study.endCatchUp.useMutation();
  const { show, banner } = useBanner();
  const [days, setDays] = useState<string | null>(null);
  const data = plan.data;
  if (!data) return null;
  const refresh = async () => {
    await Promise.all([utils.study.dayPlan.invalidate(), utils.stats.summary.invalidate()]);
  };
  const { catchUp } = data;
  return (
    <div className="space-y-3" data-testid="day-plan">
      {banner}
      <DayCounts />
      {catchUp.offered && (
        <form
          className="space-y-2 rounded-md border p-3"
          aria-labelledby={`${id}-title`}
          onSubmit={(event) => {
            event.preventDefault();
            start
              .mutateAsync({ days: Number(days ?? catchUp.defaultDays) })
              .then(async (r) => {
                await refresh();
                show("success", `Catch-up planned: ${r.perDay[0] ?? 0} reviews today.`);
              })
              .catch((error: unknown) => show("error", errorMessage(error, "Catch-up failed")));
          }}
        >
          <p id={`${id}-title`} className="font-medium">
            Catch up on {catchUp.backlog} overdue reviews
          </p>
          <p className="text-sm text-muted-foreground">
            That is more than three days of your reviews (about {catchUp.reviewsPerDay} a day).
            Spread them over a few days, the ones you are most likely to have forgotten first. New
            questions wait until you are through; nothing is lost or reset.
          </p>
          <div className="flex items-end gap-2">
            <div className="grid gap-1">
              <Label htmlFor={`${id}-days`}>Days</Label>
              <Input
                id={`${id}-days`}
                type="number"
                className="w-24"
                min={catchUp.minDays}
                max={catchUp.maxDays}
                value={days ?? String(catchUp.defaultDays)}
                onChange={(e) => setDays(e.target.value)}
              />
            </div>
            <Button type="submit" busy={start.isPending}>
              Start catch-up
            </Button>
          </div>
        </form>
      )}
      {catchUp.until && (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 text-sm">
          <p>
            Catching up until {new Date(catchUp.until).toLocaleDateString()}: new questions are
            paused.
          </p>
          <Button
            variant="outline"
            size="sm"
            busy={end.isPending}
            onClick={() => void end.mutateAsync().then(refresh)}
          >
            Resume new questions
          </Button>
        </div>
      )}
      {data.leechCount > 0 && (
        <p className="text-sm">
          <Link to="/browse" hash="leeches" className="underline" data-testid="leeches-link">
            Leeches ({data.leechCount})
          </Link>{" "}
          <span className="text-muted-foreground">
            — questions you keep getting wrong, out of your daily study.
          </span>
        </p>
      )}
    </div>
  );
}
