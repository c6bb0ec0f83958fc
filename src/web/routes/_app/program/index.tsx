import { createFileRoute, Link, Navigate } from "@tanstack/react-router";
import { ProgramDashboard } from "@/web/components/programs/program-dashboard";
import { Spinner } from "@/web/components/ui/spinner";
import { trpc } from "@/web/lib/trpc";

export const Route = createFileRoute("/_app/program/")({
  head: () => ({ meta: [{ title: "Program · PRITE Study" }] }),
  component: ProgramRoute,
});

/** Directors get the dashboard; residents what their program sees; others the way to join one. */
function ProgramRoute() {
  const mine = trpc.programReport.mine.useQuery();
  if (mine.isPending) return <Spinner label="Loading..." showLabel />;
  if (mine.data?.role === "director") return <ProgramDashboard />;
  if (mine.data?.role === "resident") return <Navigate to="/program/me" replace />;
  return (
    <div className="space-y-2">
      <h1 className="text-xl font-semibold">Program</h1>
      <p>
        You are not in a residency program.{" "}
        <Link to="/program/members" className="underline">
          Create or join one
        </Link>{" "}
        to share a question bank, take assignments and see your class.
      </p>
    </div>
  );
}
