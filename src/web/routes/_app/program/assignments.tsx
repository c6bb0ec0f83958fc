import { createFileRoute } from "@tanstack/react-router";
import { AssignmentsPage } from "@/web/components/assignments/assignments-page";

/** A program's assignments (issue 32): directors assign and follow, residents take them. */
export const Route = createFileRoute("/_app/program/assignments")({
  head: () => ({ meta: [{ title: "Assignments · PRITE Study" }] }),
  component: AssignmentsPage,
});
