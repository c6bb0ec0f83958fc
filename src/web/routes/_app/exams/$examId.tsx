import { createFileRoute } from "@tanstack/react-router";
import { TakeExamPage } from "@/web/components/exams/take-exam";
import { RequiresConnection } from "@/web/components/layout/needs-connection";

export const Route = createFileRoute("/_app/exams/$examId")({
  validateSearch: (search: Record<string, unknown>): { notice?: string } => ({
    notice: typeof search.notice === "string" ? search.notice : undefined,
  }),
  head: () => ({ meta: [{ title: "Practice Exam · PRITE Study" }] }),
  component: ExamRoute,
});

function ExamRoute() {
  const { examId } = Route.useParams();
  const { notice } = Route.useSearch();
  return (
    <RequiresConnection title="Practice Exam" what="Practice exams">
      <TakeExamPage key={examId} examId={examId} notice={notice} />
    </RequiresConnection>
  );
}
