import { createFileRoute } from "@tanstack/react-router";
import { BrowsePage } from "@/web/components/browse/browse-page";

export const Route = createFileRoute("/_app/browse")({
  head: () => ({ meta: [{ title: "Browse Questions · PRITE Study" }] }),
  component: BrowsePage,
});
