import { createFileRoute } from "@tanstack/react-router";

// Scaffolding for issue 32: the programs helper replaces this page.
export const Route = createFileRoute("/_app/join/$code")({
  head: () => ({ meta: [{ title: "Join a Program · PRITE Study" }] }),
  component: JoinProgramRoute,
});

function JoinProgramRoute() {
  return <h1 className="text-xl font-semibold">Join a Program</h1>;
}
