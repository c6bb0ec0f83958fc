import { Trophy } from "lucide-react";
import { pgyLabel } from "@/core/constants";
import { percentileBand } from "@/core/stats";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { Spinner } from "@/web/components/ui/spinner";
import { trpc, type RouterOutputs } from "@/web/lib/trpc";
import { cn } from "@/web/lib/utils";

type Ranking = RouterOutputs["stats"]["comparative"]["overall"];

const bandClass = {
  success: "text-success",
  primary: "text-primary",
  warning: "text-warning",
  danger: "text-destructive",
} as const;

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  const suffix = { 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th";
  return `${n}${suffix}`;
}

function RankingRow({ title, ranking }: { title: string; ranking: Ranking }) {
  return (
    <div className="rounded-md border p-3" data-testid="ranking-row">
      <div className="flex items-baseline justify-between gap-2">
        <h4 className="font-medium">{title}</h4>
        {ranking.available && ranking.percentile !== null ? (
          <span
            className={cn("text-xl font-semibold", bandClass[percentileBand(ranking.percentile)])}
          >
            {ordinal(ranking.percentile)} percentile
          </span>
        ) : null}
      </div>
      {ranking.available ? (
        <p className="mt-1 text-sm text-muted-foreground">
          {ranking.percentile === null ? "Answer some questions to be ranked. " : ""}
          {ranking.totalUsers} users · average score {ranking.averageScore}%
          {ranking.score !== null ? ` · your score ${ranking.score}%` : ""}
        </p>
      ) : (
        <p className="mt-1 text-sm text-muted-foreground">
          Not available yet: rankings need at least {ranking.minimumOthers} other users who share
          anonymous usage data.
          {ranking.score !== null ? ` Your score: ${ranking.score}%.` : ""}
        </p>
      )}
    </div>
  );
}

/**
 * Performance Rankings (docs/product/screens.md Session Complete) from real shared data only (decision 025): no sample
 * numbers when the call fails or the cohort is too small.
 */
export function RankingsCard() {
  const query = trpc.stats.comparative.useQuery(undefined, { staleTime: 60_000 });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Trophy className="size-5 text-warning" aria-hidden="true" />
          Performance Rankings
        </CardTitle>
        <CardDescription>
          Compared with residents who share anonymous usage data (percent of answers correct).
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-2">
        {query.isPending && <Spinner label="Loading rankings..." showLabel />}
        {query.isError && (
          <p className="text-sm text-muted-foreground">Rankings could not be loaded right now.</p>
        )}
        {query.data && (
          <>
            <RankingRow title="Overall" ranking={query.data.overall} />
            <RankingRow
              title={
                query.data.pgyLevel.level ? pgyLabel(query.data.pgyLevel.level) : "Your PGY level"
              }
              ranking={query.data.pgyLevel}
            />
            <RankingRow title="This week" ranking={query.data.timeBasedRanking} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
