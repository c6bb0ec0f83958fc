import { createFileRoute } from "@tanstack/react-router";
import { CapturePage } from "@/web/components/capture/capture-page";

export const Route = createFileRoute("/_app/capture")({
  head: () => ({ meta: [{ title: "Capture Questions · PRITE Study" }] }),
  component: CapturePage,
});
