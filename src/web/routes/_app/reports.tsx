import { createFileRoute } from "@tanstack/react-router";
import { RequiresConnection } from "@/web/components/layout/needs-connection";
import { ReportsPage } from "@/web/components/reports/reports-page";

export const Route = createFileRoute("/_app/reports")({
  head: () => ({ meta: [{ title: "Reports · PRITE Study" }] }),
  component: () => (
    <RequiresConnection title="Reports" what="Reports on questions">
      <ReportsPage />
    </RequiresConnection>
  ),
});
