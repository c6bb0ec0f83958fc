import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Spinner } from "@/web/components/ui/spinner";
import { errorMessage, trpc } from "@/web/lib/trpc";

/** Issue 32: every residency program on the server, its size and its directors, for admins. */
export function ProgramsCard() {
  const programs = trpc.programs.all.useQuery();
  return (
    <Card className="mt-4">
      <CardHeader>
        <CardTitle>Programs</CardTitle>
      </CardHeader>
      <CardContent>
        {programs.isPending ? (
          <Spinner label="Loading programs..." showLabel />
        ) : programs.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(programs.error, "Failed to load the programs")}
          </p>
        ) : programs.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No programs yet.</p>
        ) : (
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Programs list">
            <table className="w-full text-sm" aria-label="Programs">
              <thead>
                <tr className="text-left">
                  <th className="py-1 pr-2 font-medium">Program</th>
                  <th className="py-1 pr-2 font-medium">Members</th>
                  <th className="py-1 pr-2 font-medium">Residents</th>
                  <th className="py-1 font-medium">Directors</th>
                </tr>
              </thead>
              <tbody>
                {programs.data.map((p) => (
                  <tr key={p.id} className="border-t align-top">
                    <td className="py-1 pr-2">
                      <span className="font-medium">{p.name}</span>
                      {p.institution && (
                        <span className="block text-muted-foreground">{p.institution}</span>
                      )}
                    </td>
                    <td className="py-1 pr-2">{p.memberCount}</td>
                    <td className="py-1 pr-2">{p.residentCount}</td>
                    <td className="py-1 break-words">{p.directors.join(", ") || "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
