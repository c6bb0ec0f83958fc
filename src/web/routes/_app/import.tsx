import { createFileRoute } from "@tanstack/react-router";
import { ImportPage } from "@/web/components/import/import-page";
import { RequiresConnection } from "@/web/components/layout/needs-connection";

export const Route = createFileRoute("/_app/import")({
  head: () => ({ meta: [{ title: "Import Questions · PRITE Study" }] }),
  component: () => (
    <RequiresConnection title="Import Questions" what="Importing">
      <ImportPage />
    </RequiresConnection>
  ),
});
