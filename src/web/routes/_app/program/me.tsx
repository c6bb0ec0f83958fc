import { createFileRoute } from "@tanstack/react-router";
import { WhatMyProgramSees } from "@/web/components/programs/what-my-program-sees";

export const Route = createFileRoute("/_app/program/me")({
  head: () => ({ meta: [{ title: "What My Program Sees · PRITE Study" }] }),
  component: WhatMyProgramSees,
});
