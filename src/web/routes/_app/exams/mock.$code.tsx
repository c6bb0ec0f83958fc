import { createFileRoute } from "@tanstack/react-router";
import { MockResultsPage } from "@/web/components/exams/mock-results";
import { RequiresConnection } from "@/web/components/layout/needs-connection";

export const Route = createFileRoute("/_app/exams/mock/$code")({
  head: () => ({ meta: [{ title: "Mock Exam Results · PRITE Study" }] }),
  component: MockRoute,
});

function MockRoute() {
  const { code } = Route.useParams();
  return (
    <RequiresConnection title="Mock Exam Results" what="Mock exam results">
      <MockResultsPage code={code} />
    </RequiresConnection>
  );
}
