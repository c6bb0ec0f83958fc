import { createFileRoute } from "@tanstack/react-router";
import { ImportPage } from "@/web/components/import/import-page";
import { isImportTab, type ImportTab } from "@/web/components/import/import-tabs";
import { RequiresConnection } from "@/web/components/layout/needs-connection";

export const Route = createFileRoute("/_app/import")({
  // `?tab=anki` opens on the Anki tab (a link straight to it; Lighthouse measures that tab so).
  validateSearch: (search: Record<string, unknown>): { tab?: ImportTab } => ({
    tab: isImportTab(search.tab) ? search.tab : undefined,
  }),
  head: () => ({ meta: [{ title: "Import Questions · PRITE Study" }] }),
  component: ImportRoute,
});

function ImportRoute() {
  const { tab } = Route.useSearch();
  return (
    <RequiresConnection title="Import Questions" what="Importing">
      <ImportPage initialTab={tab} />
    </RequiresConnection>
  );
}
