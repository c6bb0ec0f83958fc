import { createFileRoute } from "@tanstack/react-router";
import { StudyPage } from "@/web/components/study/study-page";

export const Route = createFileRoute("/_app/study")({
  head: () => ({ meta: [{ title: "Study · PRITE Study" }] }),
  component: StudyPage,
});
