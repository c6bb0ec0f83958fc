import {
  formatDiscrimination,
  formatShare,
  ITEM_STATS_MIN_EXAMS,
  type ItemStatsBrief,
} from "@/core/item-stats";
import { Spinner } from "@/web/components/ui/spinner";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { cn } from "@/web/lib/utils";

export const ITEM_STATS_TEXT = {
  TITLE: "Statistics",
  LOADING: "Loading statistics...",
  FAILED: "Could not load the statistics",
  NONE: "Nobody has answered this question yet.",
  DISCRIMINATION_NOTE: `Discrimination is shown from ${ITEM_STATS_MIN_EXAMS} finished exam attempts on; below 0, strong residents miss it more than weak ones: check the key.`,
} as const;

/** Seconds with one decimal below 10 s, whole seconds above. */
export function formatSeconds(ms: number | null): string {
  if (ms === null) return "—";
  const s = ms / 1000;
  return s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}

/** The line a card listed by a statistics filter shows. */
export function briefText(brief: ItemStatsBrief): string {
  const parts = [`Answered ${brief.answered}`, `${formatShare(brief.shareCorrect)} correct`];
  if (brief.discrimination !== null) {
    parts.push(`discrimination ${formatDiscrimination(brief.discrimination)}`);
  }
  return parts.join(" · ");
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-md border px-3 py-2">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/**
 * A question's item statistics (issue 36 item 5, docs/product/item-statistics.md), for its owner,
 * its program's directors and admins: times answered by everyone, share right, each option's share,
 * mean time, leeches and, from exams, discrimination. Loaded when opened.
 */
export function ItemStatsPanel({
  questionId,
  correct,
}: {
  questionId: string;
  /** The key's letters, drawn as the right options. */
  correct: Set<string>;
}) {
  const stats = trpc.questions.itemStats.useQuery({ id: questionId }, { staleTime: 30_000 });
  if (stats.isPending) {
    return <Spinner label={ITEM_STATS_TEXT.LOADING} showLabel className="py-2" />;
  }
  if (stats.error) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(stats.error, ITEM_STATS_TEXT.FAILED)}
      </p>
    );
  }
  const s = stats.data;
  return (
    <section
      className="grid gap-3 rounded-md border bg-muted/40 p-3"
      aria-label={ITEM_STATS_TEXT.TITLE}
      data-testid="item-stats"
    >
      <h3 className="text-sm font-semibold">{ITEM_STATS_TEXT.TITLE}</h3>
      {s.answered === 0 && <p className="text-sm text-muted-foreground">{ITEM_STATS_TEXT.NONE}</p>}
      <dl className="grid grid-cols-2 gap-2 min-[480px]:grid-cols-3">
        <Figure label="Answered" value={String(s.answered)} testId="stats-answered" />
        <Figure label="Correct" value={formatShare(s.shareCorrect)} testId="stats-correct" />
        <Figure label="Mean time" value={formatSeconds(s.meanTimeMs)} testId="stats-time" />
        <Figure label="Leeches" value={String(s.leeches)} testId="stats-leeches" />
        <Figure
          label={`Discrimination (${s.examAttempts} exam${s.examAttempts === 1 ? "" : "s"})`}
          value={formatDiscrimination(s.discrimination)}
          testId="stats-discrimination"
        />
      </dl>
      {s.options.length > 0 && (
        <ul className="grid gap-1.5" aria-label="Answers per option">
          {s.options.map((o) => {
            const pct = o.share === null ? 0 : Math.round(o.share * 100);
            const right = correct.has(o.letter);
            return (
              <li
                key={o.letter}
                className="grid grid-cols-[1.5rem_1fr_3rem] items-center gap-2 text-sm"
                data-testid="stats-option"
              >
                <span className="font-semibold">{o.letter}</span>
                <span className="h-3 overflow-hidden rounded bg-muted" aria-hidden="true">
                  <span
                    className={cn("block h-full", right ? "bg-success" : "bg-primary/60")}
                    style={{ width: `${pct}%` }}
                  />
                </span>
                <span className="text-right tabular-nums">
                  {formatShare(o.share)}
                  <span className="sr-only">
                    {` of answers chose ${o.letter}${right ? " (correct answer)" : ""}`}
                  </span>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <p className="text-xs text-muted-foreground">{ITEM_STATS_TEXT.DISCRIMINATION_NOTE}</p>
    </section>
  );
}
