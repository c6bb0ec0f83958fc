import { createFileRoute } from "@tanstack/react-router";
import { PlanPage } from "@/web/components/study/plan-page";

export const Route = createFileRoute("/_app/study_/plan")({
  head: () => ({ meta: [{ title: "Study plan · PRITE Study" }] }),
  component: PlanPage,
});
