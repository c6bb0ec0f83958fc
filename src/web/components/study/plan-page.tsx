import { Link } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { PageHeader } from "@/web/components/layout/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { trpc } from "@/web/lib/trpc";

const PlanChart = lazy(() => import("./plan-chart"));

const percent = (x: number) => `${Math.round(x * 100)}%`;

/**
 * The exam plan and forecast (issue 34, docs/product/exam-plan.md): the new-question pace, reviews per
 * day for the next 30 days or up to the exam, the share of the bank seen, and the predicted recall
 * per category on the exam day.
 */
export function PlanPage() {
  const plan = trpc.study.plan.useQuery();
  const data = plan.data;
  return (
    <div className="space-y-4">
      <PageHeader title="Study plan" />
      {!data ? (
        <p className="text-muted-foreground">Loading the plan…</p>
      ) : (
        <>
          <Card>
            <CardHeader>
              <CardTitle>
                {data.settings.examDate ? `Exam on ${data.settings.examDate}` : "No exam date"}
              </CardTitle>
            </CardHeader>
            <CardContent className="flex flex-col gap-2 text-sm">
              <p data-testid="plan-pace">
                <strong>New questions: {data.pace.perDay} a day.</strong> {data.pace.message}
              </p>
              {data.switchToFsrs && <p>{data.switchToFsrs}</p>}
              <p data-testid="plan-share">
                {data.bank.total} questions in the plan; {percent(data.shareSeen)} seen
                {data.shareSeenByExam !== null &&
                  `, ${percent(data.shareSeenByExam)} by the exam at this pace`}
                .
              </p>
              <p>
                <Link to="/settings" search={{ tab: "study" }} className="underline">
                  Change the exam plan in Settings › Study
                </Link>
              </p>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Reviews per day</CardTitle>
            </CardHeader>
            <CardContent>
              <Suspense fallback={<div className="h-64" />}>
                <PlanChart days={data.days} />
              </Suspense>
              <p className="mt-2 text-xs text-muted-foreground">{data.assumptions}</p>
            </CardContent>
          </Card>
          {data.settings.examDate && (
            <Card>
              <CardHeader>
                <CardTitle>Predicted recall on the exam day</CardTitle>
              </CardHeader>
              <CardContent className="overflow-x-auto">
                <table className="w-full text-sm" data-testid="plan-recall">
                  <thead>
                    <tr className="text-left">
                      <th scope="col">Category</th>
                      <th scope="col">Seen by then</th>
                      <th scope="col">Recall</th>
                    </tr>
                  </thead>
                  <tbody>
                    {Object.entries(data.recallByCategory).map(([category, r]) => (
                      <tr key={category}>
                        <th scope="row" className="py-1 pr-2 text-left font-normal">
                          {category}
                        </th>
                        <td>
                          {r.seen}/{r.total}
                        </td>
                        <td>{r.seen > 0 ? percent(r.recall) : "—"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </CardContent>
            </Card>
          )}
        </>
      )}
    </div>
  );
}
