import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { trpc } from "@/web/lib/trpc";
import { pgyLabel } from "./report-parts";

/** The resident's percentile per category within their class, shown only once the class has 5 residents. */
export function ClassPercentilesCard() {
  const q = trpc.programReport.classPercentiles.useQuery();
  const d = q.data;
  if (!d) return null;
  const shown = d.categories.filter((c) => c.percentile !== null);
  return (
    <Card data-testid="class-percentiles">
      <CardHeader>
        <CardTitle>Where You Stand in Your Class</CardTitle>
        <CardDescription>
          Your percentile per category among the {d.classSize} {pgyLabel(d.pgyLevel)} residents of
          your program.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {shown.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            Shown per category once you and at least 4 classmates have answered 5 questions there.
          </p>
        ) : (
          <dl className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            {shown.map((c) => (
              <div key={c.category} className="flex justify-between gap-4 border-b py-1 text-sm">
                <dt>{c.category}</dt>
                <dd className="font-medium tabular-nums">{c.percentile}th percentile</dd>
              </div>
            ))}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
