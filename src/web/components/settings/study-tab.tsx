import { useEffect, useState } from "react";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { errorMessage, trpc, type RouterOutputs } from "@/web/lib/trpc";
import { optimizeOutcome, parametersInUse } from "./optimize-text";

type Optimized = RouterOutputs["study"]["optimize"];

const SCHEDULERS = [
  {
    value: "fsrs",
    label: "FSRS",
    description:
      "Predicts when you are about to forget each question and brings it back just before: fewer reviews for the same recall.",
  },
  {
    value: "sm2",
    label: "SM-2",
    description:
      "The classic schedule: each right answer multiplies the wait by the question's ease.",
  },
] as const;

function NumberField(props: {
  id: string;
  label: string;
  description: string;
  min: number;
  max: number;
  step: number;
  value: string;
  onChange: (value: string) => void;
}) {
  const { id, label, description, onChange, ...input } = props;
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>{label}</Label>
      <p id={`${id}-description`} className="text-sm text-muted-foreground">
        {description}
      </p>
      <Input
        id={id}
        type="number"
        {...input}
        aria-describedby={`${id}-description`}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** Settings › Study (issue 19): scheduler, desired retention, maximum interval, Optimize. */
export function StudyTab() {
  const utils = trpc.useUtils();
  const query = trpc.study.scheduler.useQuery();
  const update = trpc.study.updateScheduler.useMutation();
  const optimize = trpc.study.optimize.useMutation();
  const { show, banner } = useBanner();
  const [retention, setRetention] = useState("0.90");
  const [maxInterval, setMaxInterval] = useState("36500");
  // The radio shows the choice at once; the server's answer then confirms (or reverts) it.
  const [choice, setChoice] = useState<string | null>(null);
  const [optimized, setOptimized] = useState<Optimized | null>(null);
  const data = query.data;

  useEffect(() => {
    if (!data) return;
    setRetention(data.desiredRetention.toFixed(2));
    setMaxInterval(String(data.maximumInterval));
  }, [data]);

  const save = async (input: Parameters<typeof update.mutateAsync>[0]) => {
    try {
      const result = await update.mutateAsync(input);
      utils.study.scheduler.setData(undefined, result);
      show("success", "Study settings saved");
    } catch (error) {
      show("error", errorMessage(error, "Failed to update settings"));
    }
  };

  const runOptimize = async () => {
    try {
      const result = await optimize.mutateAsync();
      setOptimized(result);
      await utils.study.scheduler.invalidate();
      const { banner } = optimizeOutcome(result);
      if (banner) show("success", banner);
    } catch (error) {
      show("error", errorMessage(error, "Optimizing failed"));
    }
  };

  if (!data) return null;
  const busy = update.isPending || optimize.isPending;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Study</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {banner}
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 font-medium">Scheduler</legend>
          {SCHEDULERS.map((s) => (
            <label key={s.value} className="flex items-start gap-3">
              <input
                type="radio"
                name="scheduler"
                value={s.value}
                className="mt-1"
                checked={(choice ?? data.scheduler) === s.value}
                disabled={busy}
                onChange={() => {
                  setChoice(s.value);
                  void save({ scheduler: s.value }).finally(() => setChoice(null));
                }}
              />
              <span className="flex flex-col gap-1">
                <span>{s.label}</span>
                <span className="text-sm text-muted-foreground">{s.description}</span>
              </span>
            </label>
          ))}
          <p className="text-sm text-muted-foreground">
            Switching keeps your history: every question is rescheduled from your past answers.
          </p>
        </fieldset>

        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void save({
              desiredRetention: Number(retention),
              maximumInterval: Number(maxInterval),
            });
          }}
        >
          <NumberField
            id="study-retention"
            label="Desired retention"
            description="The chance of remembering a question when it comes back (FSRS, 0.70 to 0.97): higher means more reviews."
            min={0.7}
            max={0.97}
            step={0.01}
            value={retention}
            onChange={setRetention}
          />
          <NumberField
            id="study-max-interval"
            label="Maximum interval (days)"
            description="The longest a question may wait before it comes back, however well you know it."
            min={1}
            max={36500}
            step={1}
            value={maxInterval}
            onChange={setMaxInterval}
          />
          <div>
            <Button type="submit" busy={update.isPending} disabled={busy}>
              Save
            </Button>
          </div>
        </form>

        <section className="flex flex-col gap-2">
          <h3 className="font-medium">Your own parameters</h3>
          <p className="text-sm text-muted-foreground">
            Optimize fits FSRS to your {data.reviewCount} reviews so it predicts your memory better
            {data.canOptimize ? "." : ` (from ${data.minReviewsToOptimize} reviews).`}
            {` ${parametersInUse(data.customParameters)}`}
          </p>
          <div>
            <Button
              variant="secondary"
              disabled={!data.canOptimize || busy}
              busy={optimize.isPending}
              onClick={() => void runOptimize()}
            >
              Optimize
            </Button>
          </div>
          {optimized && optimizeOutcome(optimized).keptDefaults && (
            <p className="text-sm" role="status">
              {optimized.keptDefaults}
            </p>
          )}
          {optimized && !optimizeOutcome(optimized).keptDefaults && (
            <table className="text-sm" aria-label="Prediction quality">
              <thead>
                <tr>
                  <th className="text-left"></th>
                  <th className="text-left">Log loss</th>
                  <th className="text-left">RMSE</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td>Before</td>
                  <td>{optimized.before.logLoss.toFixed(4)}</td>
                  <td>{optimized.before.rmse.toFixed(4)}</td>
                </tr>
                <tr>
                  <td>After</td>
                  <td>{optimized.after.logLoss.toFixed(4)}</td>
                  <td>{optimized.after.rmse.toFixed(4)}</td>
                </tr>
              </tbody>
            </table>
          )}
        </section>
      </CardContent>
    </Card>
  );
}
