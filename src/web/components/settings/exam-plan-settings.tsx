import { Link } from "@tanstack/react-router";
import { useEffect, useState, type FormEvent } from "react";
import { CATEGORIES } from "@/core/constants";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { errorMessage, trpc } from "@/web/lib/trpc";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/**
 * Settings › Study › Exam plan (issue 34, docs/product/exam-plan.md): the exam date and target recall,
 * the daily maximum of new questions, the plan's categories, load balancing and easy days.
 */
export function ExamPlanSettings() {
  const utils = trpc.useUtils();
  const plan = trpc.study.plan.useQuery();
  const setPlan = trpc.study.setPlan.useMutation();
  const { show, banner } = useBanner();
  const [examDate, setExamDate] = useState("");
  const [target, setTarget] = useState("0.90");
  const [maxNew, setMaxNew] = useState("100");
  const [categories, setCategories] = useState<string[]>([]);
  const [loadBalance, setLoadBalance] = useState(true);
  const [easyDays, setEasyDays] = useState<number[]>([]);
  const s = plan.data?.settings;

  useEffect(() => {
    if (!s) return;
    setExamDate(s.examDate ?? "");
    setTarget(s.examTargetRetention.toFixed(2));
    setMaxNew(String(s.maxNewPerDay));
    setCategories(s.planCategories);
    setLoadBalance(s.loadBalance);
    setEasyDays(s.easyDays);
  }, [s]);

  if (!plan.data || !s) return null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const result = await setPlan.mutateAsync({
        examDate: examDate === "" ? null : examDate,
        examTargetRetention: Number(target),
        maxNewPerDay: Number(maxNew),
        planCategories: categories,
        loadBalance,
        easyDays,
      });
      utils.study.plan.setData(undefined, result);
      show("success", "Exam plan saved");
    } catch (error) {
      show("error", errorMessage(error, "Failed to save the exam plan"));
    }
  };

  const toggle = <T,>(list: T[], value: T) =>
    list.includes(value) ? list.filter((v) => v !== value) : [...list, value];

  return (
    <Card data-testid="exam-plan-settings">
      <CardHeader>
        <CardTitle>Exam plan</CardTitle>
      </CardHeader>
      <CardContent>
        <form className="flex flex-col gap-5" onSubmit={(e) => void submit(e)}>
          {banner}
          <div className="flex flex-col gap-1">
            <Label htmlFor="exam-date">Date of your next PRITE</Label>
            <p id="exam-date-description" className="text-sm text-muted-foreground">
              Reviews are brought forward so your predicted recall on that day reaches the target,
              and new questions are paced to see the whole plan a week before it.
            </p>
            <Input
              id="exam-date"
              type="date"
              value={examDate}
              aria-describedby="exam-date-description"
              onChange={(e) => setExamDate(e.target.value)}
            />
          </div>
          {plan.data.switchToFsrs && (
            <p className="rounded-md border p-3 text-sm" data-testid="switch-to-fsrs">
              {plan.data.switchToFsrs}
            </p>
          )}
          <div className="flex flex-col gap-1">
            <Label htmlFor="exam-target">Target recall on the exam day</Label>
            <p id="exam-target-description" className="text-sm text-muted-foreground">
              The predicted chance of remembering each question that day, 0.70 to 0.99.
            </p>
            <Input
              id="exam-target"
              type="number"
              min={0.7}
              max={0.99}
              step={0.01}
              value={target}
              aria-describedby="exam-target-description"
              onChange={(e) => setTarget(e.target.value)}
            />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="max-new">Most new questions a day</Label>
            <p id="max-new-description" className="text-sm text-muted-foreground">
              The plan may raise your daily new questions up to this to cover the bank in time.
            </p>
            <Input
              id="max-new"
              type="number"
              min={0}
              max={500}
              step={1}
              value={maxNew}
              aria-describedby="max-new-description"
              onChange={(e) => setMaxNew(e.target.value)}
            />
          </div>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 font-medium">Categories in the plan</legend>
            <p className="text-sm text-muted-foreground">None ticked: every category.</p>
            <div className="grid max-h-48 grid-cols-1 gap-1 overflow-y-auto sm:grid-cols-2">
              {CATEGORIES.map((c) => (
                <label key={c} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={categories.includes(c)}
                    onChange={() => setCategories((list) => toggle(list, c))}
                  />
                  {c}
                </label>
              ))}
            </div>
          </fieldset>
          <label className="flex items-start gap-3">
            <input
              type="checkbox"
              className="mt-1"
              checked={loadBalance}
              onChange={(e) => setLoadBalance(e.target.checked)}
            />
            <span className="flex flex-col gap-1">
              <span>Load balancing</span>
              <span className="text-sm text-muted-foreground">
                Each review lands on the lightest of the days its interval allows. Turning it on or
                off moves nothing already scheduled.
              </span>
            </span>
          </label>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 font-medium">Easy days</legend>
            <p className="text-sm text-muted-foreground">
              Days you mark (call days, say) get fewer reviews.
            </p>
            <div className="flex flex-wrap gap-3">
              {WEEKDAYS.map((day, i) => (
                <label key={day} className="flex items-center gap-1 text-sm">
                  <input
                    type="checkbox"
                    checked={easyDays.includes(i)}
                    onChange={() => setEasyDays((list) => toggle(list, i))}
                  />
                  {day}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={setPlan.isPending}>
              Save exam plan
            </Button>
            <Link to="/study/plan" className="text-sm underline">
              See the forecast
            </Link>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
