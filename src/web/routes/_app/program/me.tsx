import { createFileRoute } from "@tanstack/react-router";

// Scaffolding for issue 32: the dashboard helper replaces this page.
export const Route = createFileRoute("/_app/program/me")({
  head: () => ({ meta: [{ title: "What My Program Sees · PRITE Study" }] }),
  component: WhatMyProgramSeesRoute,
});

function WhatMyProgramSeesRoute() {
  return <h1 className="text-xl font-semibold">What My Program Sees</h1>;
}
