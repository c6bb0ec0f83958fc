import { createFileRoute } from "@tanstack/react-router";
import { QuestionImportPage } from "@/web/components/question-import/question-import-page";

export const Route = createFileRoute("/_app/test")({
  head: () => ({ meta: [{ title: "Question import · PRITE Study" }] }),
  component: QuestionImportPage,
});
