import { Link } from "@tanstack/react-router";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Spinner } from "@/web/components/ui/spinner";
import { trpc } from "@/web/lib/trpc";

/** Issue 16 item 6: every mock exam's summary, for admins. */
export function MockExamsCard() {
  const mocks = trpc.exams.allMocks.useQuery();
  return (
    <Card className="mt-4">
      <CardHeader>
        <CardTitle>Mock Exams</CardTitle>
      </CardHeader>
      <CardContent>
        {mocks.isPending ? (
          <Spinner label="Loading mock exams..." showLabel />
        ) : (mocks.data ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground">No mock exams yet.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm" aria-label="Mock exams">
              <thead>
                <tr className="text-left">
                  <th className="py-1 pr-2 font-medium">Code</th>
                  <th className="py-1 pr-2 font-medium">Created by</th>
                  <th className="py-1 pr-2 font-medium">Questions</th>
                  <th className="py-1 pr-2 font-medium">Takers</th>
                  <th className="py-1 font-medium">Mean</th>
                </tr>
              </thead>
              <tbody>
                {mocks.data!.map((m) => (
                  <tr key={m.id} className="border-t">
                    <td className="py-1 pr-2 font-mono">
                      <Link to="/exams/mock/$code" params={{ code: m.code }} className="underline">
                        {m.code}
                      </Link>
                      {m.closed && " (closed)"}
                    </td>
                    <td className="py-1 pr-2">{m.creator}</td>
                    <td className="py-1 pr-2">{m.questionCount}</td>
                    <td className="py-1 pr-2">
                      {m.takers}
                      {m.inProgress > 0 && ` (+${m.inProgress} in progress)`}
                    </td>
                    <td className="py-1">{m.meanPercent === null ? "—" : `${m.meanPercent}%`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
