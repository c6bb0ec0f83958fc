import { createFileRoute } from "@tanstack/react-router";
import { BrowsePage } from "@/web/components/browse/browse-page";
import { RequiresConnection } from "@/web/components/layout/needs-connection";

export const Route = createFileRoute("/_app/browse")({
  head: () => ({ meta: [{ title: "Browse Questions · PRITE Study" }] }),
  component: () => (
    <RequiresConnection title="Browse Questions" what="Searching the question bank">
      <BrowsePage />
    </RequiresConnection>
  ),
});
