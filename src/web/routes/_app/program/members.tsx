import { createFileRoute } from "@tanstack/react-router";

// Scaffolding for issue 32: the programs helper replaces this page.
export const Route = createFileRoute("/_app/program/members")({
  head: () => ({ meta: [{ title: "Program Members · PRITE Study" }] }),
  component: MembersRoute,
});

function MembersRoute() {
  return <h1 className="text-xl font-semibold">Program Members</h1>;
}
