import { createFileRoute } from "@tanstack/react-router";
import { RequiresConnection } from "@/web/components/layout/needs-connection";
import { MembersPage } from "@/web/components/programs/members-page";

export const Route = createFileRoute("/_app/program/members")({
  head: () => ({ meta: [{ title: "Program Members · PRITE Study" }] }),
  component: () => (
    <RequiresConnection title="Program" what="The program page">
      <MembersPage />
    </RequiresConnection>
  ),
});
