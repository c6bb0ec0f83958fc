import { useMemo, useState } from "react";
import type { QuestionJson } from "@/web/components/questions/question-kind";
import { useBanner } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { useConfirm } from "@/web/components/ui/dialog";
import { Label } from "@/web/components/ui/label";
import { Spinner } from "@/web/components/ui/spinner";
import { Textarea } from "@/web/components/ui/textarea";
import { errorMessage, trpc, type RouterOutputs } from "@/web/lib/trpc";
import { QuestionCard } from "./question-card";

type Leech = RouterOutputs["study"]["leeches"][number];

/** Answers over time, oldest first: a mark per answer with its date. */
function History({ history }: { history: Leech["history"] }) {
  return (
    <ol className="flex flex-wrap gap-1 text-xs" aria-label="Your answers, oldest first">
      {history.map((r, i) => (
        <li
          key={i}
          className={`rounded border px-1.5 py-0.5 ${r.isCorrect ? "border-green-700 text-green-800" : "border-red-700 text-red-800"}`}
        >
          {new Date(r.reviewedAt).toLocaleDateString()} {r.isCorrect ? "right" : "wrong"}
        </li>
      ))}
    </ol>
  );
}

/**
 * Browse › Leeches (issue 34, docs/product/study-plan.md): the questions the resident keeps getting
 * wrong, out of the daily list, with their history; edit (own questions), reset to new, or report.
 */
export function LeechesList({
  userId,
  onEdit,
}: {
  userId: string;
  onEdit: (question: QuestionJson) => void;
}) {
  const utils = trpc.useUtils();
  const leeches = trpc.study.leeches.useQuery();
  const reset = trpc.study.resetLeech.useMutation();
  const report = trpc.study.reportLeech.useMutation();
  const { confirm, dialog } = useConfirm();
  const { show, banner } = useBanner();
  const [reporting, setReporting] = useState<string | null>(null);
  const [note, setNote] = useState("");

  const refresh = () =>
    Promise.all([utils.study.leeches.invalidate(), utils.study.dayPlan.invalidate()]);

  const onReset = async (questionId: string) => {
    const ok = await confirm({
      title: "Reset this question?",
      description:
        "It goes back to new: it comes in again among your new questions, scheduled from scratch. Your past answers stay in your history.",
      confirmLabel: "Reset",
      destructive: true,
    });
    if (!ok) return;
    try {
      await reset.mutateAsync({ questionId, confirm: true });
      await refresh();
      show("success", "Reset: the question is new again");
    } catch (error) {
      show("error", errorMessage(error, "Reset failed"));
    }
  };

  if (leeches.isPending) return <Spinner label="Loading leeches..." showLabel />;
  const list = leeches.data ?? [];
  return (
    <section className="grid gap-3" aria-labelledby="leeches-title" data-testid="leeches-list">
      <h2 id="leeches-title" className="text-lg font-semibold">
        Leeches ({list.length})
      </h2>
      {banner}
      {list.length === 0 && (
        <p className="rounded-lg border border-dashed p-6 text-center text-muted-foreground">
          No leeches: no question has been missed often enough to leave your daily study.
        </p>
      )}
      {list.map((leech) => (
        <div key={leech.question._id} className="grid gap-2 rounded-lg border p-2">
          <QuestionCard
            question={leech.question}
            own={leech.question.creator === userId}
            due={false}
            onEdit={() => onEdit(leech.question)}
          />
          <p className="text-sm">Missed {leech.lapses} times.</p>
          <History history={leech.history} />
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => void onReset(leech.question._id)}>
              Reset to new
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={leech.reported}
              onClick={() => {
                setReporting(leech.question._id);
                setNote("");
              }}
            >
              {leech.reported ? "Reported" : "Report as a bad question"}
            </Button>
          </div>
          {reporting === leech.question._id && (
            <form
              className="grid gap-2"
              onSubmit={(event) => {
                event.preventDefault();
                report
                  .mutateAsync({ questionId: leech.question._id, note })
                  .then(async () => {
                    setReporting(null);
                    await refresh();
                    show("success", "Reported: the question's owner sees it");
                  })
                  .catch((error: unknown) => show("error", errorMessage(error, "Report failed")));
              }}
            >
              <Label htmlFor={`report-${leech.question._id}`}>What is wrong with it?</Label>
              <Textarea
                id={`report-${leech.question._id}`}
                value={note}
                maxLength={1000}
                onChange={(e) => setNote(e.target.value)}
              />
              <div>
                <Button type="submit" size="sm" busy={report.isPending}>
                  Send report
                </Button>
              </div>
            </form>
          )}
        </div>
      ))}
      {dialog}
    </section>
  );
}

/** For an owner: residents who found each of their questions a leech (Browse's cards show it). */
export function useLeechCounts(): Map<string, number> {
  const counts = trpc.study.ownerLeechCounts.useQuery();
  return useMemo(
    () => new Map((counts.data ?? []).map((c) => [c.questionId, c.residents])),
    [counts.data],
  );
}
