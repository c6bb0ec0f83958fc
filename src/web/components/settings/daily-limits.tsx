import { useEffect, useId, useState } from "react";
import { LEECH_THRESHOLD, NEW_PER_DAY } from "@/core/srs/daily";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { errorMessage, trpc } from "@/web/lib/trpc";

/**
 * Settings › Study: new questions per day and the leech threshold (issue 34,
 * docs/product/study-plan.md).
 */
export function DailyLimits() {
  const id = useId();
  const utils = trpc.useUtils();
  const plan = trpc.study.dayPlan.useQuery();
  const save = trpc.study.setDailyLimits.useMutation();
  const { show, banner } = useBanner();
  const [newPerDay, setNewPerDay] = useState("20");
  const [threshold, setThreshold] = useState("8");
  const data = plan.data;

  useEffect(() => {
    if (!data) return;
    setNewPerDay(String(data.newPerDay));
    setThreshold(String(data.leechThreshold));
  }, [data]);

  if (!data) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Daily limits</CardTitle>
      </CardHeader>
      <CardContent>
        {banner}
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            save
              .mutateAsync({ newPerDay: Number(newPerDay), leechThreshold: Number(threshold) })
              .then(async () => {
                await utils.study.dayPlan.invalidate();
                await utils.stats.summary.invalidate();
                show("success", "Daily limits saved");
              })
              .catch((error: unknown) => show("error", errorMessage(error, "Failed to save")));
          }}
        >
          <div className="flex flex-col gap-1">
            <Label htmlFor={`${id}-new`}>New questions per day</Label>
            <p id={`${id}-new-help`} className="text-sm text-muted-foreground">
              Questions you have never studied come in at most this many a day, oldest first, mixed
              with your reviews (0 to 500). Questions you write or capture yourself come in the day
              you add them.
            </p>
            <Input
              id={`${id}-new`}
              type="number"
              min={NEW_PER_DAY.MIN}
              max={NEW_PER_DAY.MAX}
              step={1}
              value={newPerDay}
              aria-describedby={`${id}-new-help`}
              onChange={(e) => setNewPerDay(e.target.value)}
            />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor={`${id}-leech`}>Leech threshold</Label>
            <p id={`${id}-leech-help`} className="text-sm text-muted-foreground">
              A question you get wrong this many times becomes a leech: it leaves your daily study
              and waits in Browse › Leeches (1 to 99).
            </p>
            <Input
              id={`${id}-leech`}
              type="number"
              min={LEECH_THRESHOLD.MIN}
              max={LEECH_THRESHOLD.MAX}
              step={1}
              value={threshold}
              aria-describedby={`${id}-leech-help`}
              onChange={(e) => setThreshold(e.target.value)}
            />
          </div>
          <div>
            <Button type="submit" busy={save.isPending}>
              Save limits
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
