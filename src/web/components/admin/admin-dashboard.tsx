import { Search } from "lucide-react";
import { useDeferredValue, useMemo, useState } from "react";
import { pgyLabel } from "@/core/constants";
import { Alert } from "@/web/components/ui/alert";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { OptionSelect } from "@/web/components/ui/select";
import { Spinner } from "@/web/components/ui/spinner";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/web/components/ui/table";
import { PGY_LEVEL_OPTIONS } from "@/web/lib/options";
import { trpc } from "@/web/lib/trpc";
import { ALL_LEVELS, filterUsers } from "./filter-users";
import { ResetLinkButton } from "./reset-link-button";

export const LOAD_ERROR = "Failed to load users. Please try again later.";
const LEVEL_OPTIONS = [{ value: ALL_LEVELS, label: "All PGY Levels" }, ...PGY_LEVEL_OPTIONS];

const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });

function StatCard({ label, value }: { label: string; value: number }) {
  return (
    <Card className="gap-1 py-4">
      <CardContent className="flex flex-col gap-1 px-4">
        <p className="text-sm text-muted-foreground">{label}</p>
        <p className="text-2xl font-semibold tabular-nums">{value.toLocaleString()}</p>
      </CardContent>
    </Card>
  );
}

/** The Admin Dashboard in docs/product/screens.md; every count comes from the server (admin.stats). */
export function AdminDashboard() {
  const usersQuery = trpc.admin.users.useQuery(undefined);
  const statsQuery = trpc.admin.stats.useQuery(undefined);
  const [search, setSearch] = useState("");
  const [level, setLevel] = useState(ALL_LEVELS);
  const deferredSearch = useDeferredValue(search);
  const shown = useMemo(
    () => filterUsers(usersQuery.data ?? [], deferredSearch, level),
    [usersQuery.data, deferredSearch, level],
  );

  // One error view, whichever query failed and whether or not the other is still loading. The banner
  // does not close by itself, and 'Try again' stays when it is dismissed, so the page is never blank.
  // A failed background refresh keeps the figures already shown, under the same message.
  const failed = usersQuery.isError || statsQuery.isError;
  if (failed && (!usersQuery.data || !statsQuery.data)) {
    return (
      <div className="flex flex-col items-start gap-3">
        <Alert type="error" autoCloseMs={null}>
          {LOAD_ERROR}
        </Alert>
        <Button
          variant="outline"
          busy={usersQuery.isFetching || statsQuery.isFetching}
          onClick={() => {
            if (usersQuery.isError) void usersQuery.refetch();
            if (statsQuery.isError) void statsQuery.refetch();
          }}
        >
          Try again
        </Button>
      </div>
    );
  }
  if (usersQuery.isPending || statsQuery.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Loading users..." showLabel />
      </div>
    );
  }
  const stats = statsQuery.data;

  return (
    <div className="flex flex-col gap-5">
      {failed && (
        <Alert
          key={Math.max(usersQuery.errorUpdatedAt, statsQuery.errorUpdatedAt)}
          type="error"
          autoCloseMs={null}
        >
          {LOAD_ERROR}
        </Alert>
      )}
      <section aria-label="User statistics" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <StatCard label="Total Users" value={stats.totalUsers} />
        <StatCard label="Active Users" value={stats.activeUsers} />
        <StatCard label="Questions Added" value={stats.questionsAdded} />
        <StatCard label="Average Questions/User" value={stats.averageQuestionsPerUser} />
      </section>

      <Card>
        <CardHeader>
          <CardTitle>Users by PGY Level</CardTitle>
        </CardHeader>
        <CardContent>
          {stats.pgyDistribution.length === 0 ? (
            <p className="text-sm text-muted-foreground">No users yet.</p>
          ) : (
            <ul className="flex flex-wrap gap-2" aria-label="Users by PGY Level">
              {stats.pgyDistribution.map((entry) => (
                <li
                  key={entry.label}
                  className="flex items-center gap-2 rounded-md border bg-muted/40 px-3 py-2 text-sm"
                >
                  <span>{entry.label}</span>
                  <span className="font-semibold tabular-nums">{entry.count}</span>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>User List</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="grid gap-3 sm:grid-cols-[1fr_14rem]">
            <div className="relative">
              <Label htmlFor="admin-user-search" className="sr-only">
                Search users
              </Label>
              <Search
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
                aria-hidden="true"
              />
              <Input
                id="admin-user-search"
                type="search"
                className="pl-9"
                placeholder="Search by username or email"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
            </div>
            <OptionSelect
              aria-label="Filter by PGY level"
              value={level}
              onValueChange={setLevel}
              options={LEVEL_OPTIONS}
            />
          </div>
          {shown.length === 0 ? (
            <p className="py-6 text-center text-muted-foreground">
              No users found matching the filter criteria
            </p>
          ) : (
            <Table aria-label="Users">
              <TableHeader>
                <TableRow>
                  <TableHead>Username</TableHead>
                  <TableHead>Email</TableHead>
                  <TableHead>PGY Level</TableHead>
                  <TableHead>Joined</TableHead>
                  <TableHead className="text-right">Questions Added</TableHead>
                  <TableHead>Role</TableHead>
                  <TableHead>Password</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {shown.map((u) => (
                  <TableRow key={u._id}>
                    <TableCell className="font-medium">{u.username}</TableCell>
                    <TableCell className="whitespace-nowrap">{u.email}</TableCell>
                    <TableCell className="whitespace-nowrap">{pgyLabel(u.pgyLevel)}</TableCell>
                    <TableCell className="whitespace-nowrap">{formatDate(u.createdAt)}</TableCell>
                    <TableCell className="text-right tabular-nums">{u.questionsAdded}</TableCell>
                    <TableCell>
                      {u.isAdmin ? (
                        <Badge variant="info">Admin</Badge>
                      ) : (
                        <Badge variant="secondary">User</Badge>
                      )}
                    </TableCell>
                    <TableCell>
                      <ResetLinkButton username={u.username} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <p className="text-xs text-muted-foreground">
            Showing {shown.length} of {usersQuery.data.length} users
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
