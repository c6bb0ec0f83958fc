import { createFileRoute } from "@tanstack/react-router";
import { ExamsPage } from "@/web/components/exams/exams-page";
import { RequiresConnection } from "@/web/components/layout/needs-connection";

export const Route = createFileRoute("/_app/exams/")({
  // A shared link `/exams?join=CODE` fills the join form.
  validateSearch: (search: Record<string, unknown>): { join?: string } => ({
    join: typeof search.join === "string" ? search.join : undefined,
  }),
  head: () => ({ meta: [{ title: "Practice Exam · PRITE Study" }] }),
  component: ExamsRoute,
});

function ExamsRoute() {
  const { join } = Route.useSearch();
  return (
    <RequiresConnection title="Practice Exam" what="Practice exams">
      <ExamsPage joinCode={join} />
    </RequiresConnection>
  );
}
