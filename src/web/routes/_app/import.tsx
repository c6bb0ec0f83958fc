import { createFileRoute } from "@tanstack/react-router";
import { ImportPage } from "@/web/components/import/import-page";

export const Route = createFileRoute("/_app/import")({
  head: () => ({ meta: [{ title: "Import Questions · PRITE Study" }] }),
  component: ImportPage,
});
