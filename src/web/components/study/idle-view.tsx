import { Link } from "@tanstack/react-router";
import { BookOpen } from "lucide-react";
import { StreakBanner, StreakPlaceholder } from "@/web/components/dashboard/streak";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Label } from "@/web/components/ui/label";
import { LazyOptionSelect } from "@/web/components/ui/lazy-select";
import type { SelectOption } from "@/web/components/ui/select";
import { Spinner } from "@/web/components/ui/spinner";
import type { RouterOutputs } from "@/web/lib/trpc";
import { DayPlan } from "./day-plan";

export const NO_QUESTIONS_DUE =
  "No questions due for review! Add some questions or check back later.";
export const ALL_CATEGORIES = "__all__";

type Summary = RouterOutputs["stats"]["summary"] | undefined;

/** The category list: all categories, then each category with questions due and how many. */
function categoryOptions(
  chosen: string,
  due: NonNullable<Summary>["dueCategories"],
): SelectOption[] {
  const options = [
    { value: ALL_CATEGORIES, label: "All categories" },
    ...due.map((c) => ({ value: c.name, label: `${c.name} (${c.due})` })),
  ];
  // A category chosen before its last question was studied stays shown as chosen.
  if (!options.some((o) => o.value === chosen)) options.push({ value: chosen, label: chosen });
  return options;
}

/** Study before a session: the streak, today's figures, the category and Start Studying. */
export function IdleView({
  summary,
  loading,
  category,
  onCategory,
  onStart,
  starting,
  emptyNotice,
}: {
  summary: Summary;
  loading: boolean;
  category: string;
  onCategory: (c: string) => void;
  onStart: () => void;
  starting: boolean;
  emptyNotice: boolean;
}) {
  return (
    <div className="space-y-4" data-testid="study-idle">
      {summary ? <StreakBanner streakDays={summary.streakDays} /> : <StreakPlaceholder />}
      <Card>
        <CardHeader>
          <CardTitle>Today&apos;s Study Overview</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          {loading || !summary ? (
            // As tall as the figures that replace it.
            <div className="flex min-h-[74px] items-center justify-center">
              <Spinner label="Loading..." showLabel />
            </div>
          ) : (
            <dl className="grid grid-cols-2 gap-2 text-center">
              <div className="rounded-md border p-3">
                <dt className="text-xs text-muted-foreground">Questions due</dt>
                <dd className="text-2xl font-semibold" data-testid="overview-due">
                  {summary.dueCount}
                </dd>
              </div>
              <div className="rounded-md border p-3">
                <dt className="text-xs text-muted-foreground">Answered today</dt>
                <dd className="text-2xl font-semibold" data-testid="overview-answered">
                  {summary.answeredToday}
                </dd>
              </div>
            </dl>
          )}
          <DayPlan />
          {summary && summary.dueCategories.length > 0 && (
            <div className="space-y-1.5">
              <Label htmlFor="study-category">Category</Label>
              <LazyOptionSelect
                id="study-category"
                value={category}
                onValueChange={onCategory}
                options={categoryOptions(category, summary.dueCategories)}
              />
            </div>
          )}
          <Button size="lg" className="w-full" onClick={onStart} busy={starting}>
            <BookOpen aria-hidden="true" />
            Start Studying
          </Button>
        </CardContent>
      </Card>
      {emptyNotice && (
        <Card data-testid="no-questions-due">
          <CardContent className="space-y-3 text-center">
            <p className="font-medium">{NO_QUESTIONS_DUE}</p>
            <div className="flex justify-center gap-2">
              <Button asChild variant="outline" size="sm">
                <Link to="/capture">Capture</Link>
              </Button>
              <Button asChild variant="outline" size="sm">
                <Link to="/import">Import</Link>
              </Button>
            </div>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
