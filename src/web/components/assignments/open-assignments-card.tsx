import { Link } from "@tanstack/react-router";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { trpc } from "@/web/lib/trpc";
import { AssignmentAction, dueText, StatusBadge } from "./assignments-page";

/**
 * The Dashboard's card of the resident's open assignments with their due dates (issue 32); nothing for
 * a user outside a program, a director, or a resident with nothing open.
 */
export function OpenAssignmentsCard() {
  const open = trpc.assignments.open.useQuery(undefined, { staleTime: 60_000 });
  const list = open.data ?? [];
  if (list.length === 0) return null;
  return (
    <Card data-testid="open-assignments">
      <CardHeader>
        <CardTitle>Assignments</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="divide-y">
          {list.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center gap-2 py-2">
              <span className="min-w-0 flex-1">
                <span className="block font-medium">
                  {a.title || (a.kind === "exam" ? "Practice exam" : "Study set")}
                </span>
                <span className="block text-sm text-muted-foreground">
                  Due {dueText(a.dueAt)}
                  {a.kind === "study" && ` · ${a.answered}/${a.questionCount} answered`}
                </span>
              </span>
              <StatusBadge status={a.status} />
              <AssignmentAction a={a} />
            </li>
          ))}
        </ul>
        <Link to="/program/assignments" className="text-sm text-primary underline">
          All assignments
        </Link>
      </CardContent>
    </Card>
  );
}
