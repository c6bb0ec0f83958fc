import { createFileRoute } from "@tanstack/react-router";
import { RequiresConnection } from "@/web/components/layout/needs-connection";
import { JoinProgramPage } from "@/web/components/programs/join-page";

// Opened while signed out, Sign In comes back here (routes/_app.tsx, lib/return-to.ts).
export const Route = createFileRoute("/_app/join/$code")({
  head: () => ({ meta: [{ title: "Join a Program · PRITE Study" }] }),
  component: JoinProgramRoute,
});

function JoinProgramRoute() {
  const { code } = Route.useParams();
  return (
    <RequiresConnection title="Join a Program" what="Joining a program">
      <JoinProgramPage code={code} />
    </RequiresConnection>
  );
}
