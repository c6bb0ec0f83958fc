import { createFileRoute } from "@tanstack/react-router";

// Scaffolding for issue 32: the assignments helper replaces this page.
export const Route = createFileRoute("/_app/program/assignments")({
  head: () => ({ meta: [{ title: "Assignments · PRITE Study" }] }),
  component: AssignmentsRoute,
});

function AssignmentsRoute() {
  return <h1 className="text-xl font-semibold">Assignments</h1>;
}
