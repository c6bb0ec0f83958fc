import { Download, Lock } from "lucide-react";
import { PageHeader } from "@/web/components/layout/page-header";
import { Alert, useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Spinner } from "@/web/components/ui/spinner";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { formatDuration, reportedStatusLabel } from "./exam-text";

const pct = (share: number | null) => (share === null ? "—" : `${Math.round(share * 100)}%`);

/** Issue 16 item 6: a mock exam's takers, spread and item analysis, for its creator (and admins). */
export function MockResultsPage({ code }: { code: string }) {
  const utils = trpc.useUtils();
  const results = trpc.exams.mockResults.useQuery({ code });
  const close = trpc.exams.close.useMutation();
  const { show, banner } = useBanner();

  if (results.isPending) return <Spinner label="Loading results..." showLabel />;
  if (!results.data) {
    return (
      <div className="grid gap-4">
        <PageHeader title="Mock Exam Results" />
        <Alert type="error" dismissible={false}>
          {errorMessage(results.error, "Failed to load the results")}
        </Alert>
      </div>
    );
  }
  const { mockExam, takers, spread, items, csv } = results.data;
  const download = () => {
    const url = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `mock-exam-${mockExam.code}.csv`;
    a.click();
    URL.revokeObjectURL(url);
  };
  const letters = [...new Set(items.flatMap((i) => Object.keys(i.optionShares)))].sort();

  return (
    <div className="grid gap-4">
      <PageHeader
        title="Mock Exam Results"
        description={`Code ${mockExam.code} · ${mockExam.questionCount} questions${mockExam.closed ? " · closed to new takers" : ""}`}
        actions={
          <div className="flex gap-2">
            <Button variant="outline" size="sm" onClick={download}>
              <Download aria-hidden="true" />
              CSV
            </Button>
            {!mockExam.closed && (
              <Button
                variant="outline"
                size="sm"
                busy={close.isPending}
                onClick={() =>
                  close.mutate(
                    { code },
                    {
                      onSuccess: () => void utils.exams.invalidate(),
                      onError: (err) =>
                        show("error", errorMessage(err, "Failed to close the mock exam")),
                    },
                  )
                }
              >
                <Lock aria-hidden="true" />
                Close to new takers
              </Button>
            )}
          </div>
        }
      />
      {banner}
      <Card>
        <CardHeader>
          <CardTitle>Takers</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3">
          <p className="text-sm" data-testid="mock-spread">
            {spread.count === 0
              ? "Nobody has finished yet."
              : `${spread.count} finished · mean ${spread.mean?.toFixed(1)}% · SD ${spread.standardDeviation?.toFixed(1)} · median ${spread.median}% · range ${spread.min}–${spread.max}%`}
          </p>
          {takers.length > 0 && (
            <div className="overflow-x-auto">
              <table className="w-full text-sm">
                <thead>
                  <tr className="text-left">
                    <th className="py-1 pr-2 font-medium">Resident</th>
                    <th className="py-1 pr-2 font-medium">Score</th>
                    <th className="py-1 pr-2 font-medium">Time</th>
                    <th className="py-1 font-medium">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {takers.map((t) => (
                    <tr key={`${t.username}-${t.startedAt}`} className="border-t">
                      <td className="py-1 pr-2">{t.username}</td>
                      <td className="py-1 pr-2">
                        {t.percent}% ({t.correct}/{t.total})
                      </td>
                      <td className="py-1 pr-2">{formatDuration(t.timeUsedMs)}</td>
                      <td className="py-1">{reportedStatusLabel(t.status)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Item Analysis</CardTitle>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          <table className="w-full text-sm" aria-label="Item analysis">
            <thead>
              <tr className="text-left">
                <th className="py-1 pr-2 font-medium">#</th>
                <th className="py-1 pr-2 font-medium">Correct</th>
                {letters.map((l) => (
                  <th key={l} className="py-1 pr-2 font-medium">
                    {l}
                  </th>
                ))}
                <th className="py-1 font-medium">Discrimination</th>
              </tr>
            </thead>
            <tbody>
              {items.map((i) => (
                <tr key={i.questionId} className="border-t" title={i.text}>
                  <td className="py-1 pr-2">{i.position + 1}</td>
                  <td className="py-1 pr-2">{pct(i.pValue)}</td>
                  {letters.map((l) => (
                    <td
                      key={l}
                      className={
                        i.correctAnswers.includes(l) ? "py-1 pr-2 font-semibold" : "py-1 pr-2"
                      }
                    >
                      {pct(i.optionShares[l] ?? 0)}
                    </td>
                  ))}
                  <td className="py-1">
                    {i.discrimination === null ? "—" : i.discrimination.toFixed(2)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </CardContent>
      </Card>
    </div>
  );
}
