import { createFileRoute } from "@tanstack/react-router";

// Scaffolding for issue 32: the dashboard helper replaces this page.
export const Route = createFileRoute("/_app/program/")({
  head: () => ({ meta: [{ title: "Program · PRITE Study" }] }),
  component: ProgramRoute,
});

function ProgramRoute() {
  return <h1 className="text-xl font-semibold">Program</h1>;
}
