import { useDeferredValue, useState } from "react";
import { AUDIT_KIND_LABELS, AUDIT_KINDS, type AuditKind } from "@/core/audit";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { OptionSelect } from "@/web/components/ui/select";
import { Spinner } from "@/web/components/ui/spinner";
import { trpc } from "@/web/lib/trpc";

const ALL_KINDS = "all";
const KIND_OPTIONS = [
  { value: ALL_KINDS, label: "All events" },
  ...AUDIT_KINDS.map((kind) => ({ value: kind, label: AUDIT_KIND_LABELS[kind] })),
];
const PAGE_SIZE = 25;

const formatWhen = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

const labelOf = (kind: string) => AUDIT_KIND_LABELS[kind as AuditKind] ?? kind;

/**
 * The audit log on the Admin page (issue 33): newest first, filtered by user and kind, a page at a
 * time. Each entry is a stacked block rather than a wide table row, so it reads at 375 px.
 */
export function AuditLogCard() {
  const [username, setUsername] = useState("");
  const [kind, setKind] = useState<string>(ALL_KINDS);
  // The cursors of the pages before this one; the last is this page's.
  const [cursors, setCursors] = useState<string[]>([]);
  const user = useDeferredValue(username.trim());
  const query = trpc.admin.audit.useQuery({
    username: user || undefined,
    kind: kind === ALL_KINDS ? undefined : (kind as AuditKind),
    cursor: cursors[cursors.length - 1],
    limit: PAGE_SIZE,
  });
  const filter = (apply: () => void) => {
    apply();
    setCursors([]);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Audit Log</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="grid gap-3 sm:grid-cols-[1fr_16rem]">
          <div>
            <Label htmlFor="audit-user" className="sr-only">
              Filter by user
            </Label>
            <Input
              id="audit-user"
              type="search"
              placeholder="Filter by username"
              value={username}
              onChange={(event) => filter(() => setUsername(event.target.value))}
            />
          </div>
          <OptionSelect
            aria-label="Filter by event"
            value={kind}
            onValueChange={(value) => filter(() => setKind(value))}
            options={KIND_OPTIONS}
          />
        </div>
        {query.isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        ) : query.isError ? (
          <p className="py-6 text-center text-muted-foreground">
            Failed to load the audit log. Please try again later.
          </p>
        ) : query.data!.entries.length === 0 ? (
          <p className="py-6 text-center text-muted-foreground">No audit entries.</p>
        ) : (
          <ul aria-label="Audit log" className="flex flex-col divide-y rounded-md border">
            {query.data!.entries.map((e) => (
              <li key={e.id} className="flex min-w-0 flex-col gap-1 px-3 py-2 text-sm">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <span className="font-medium">{labelOf(e.kind)}</span>
                  <time dateTime={e.createdAt} className="text-xs text-muted-foreground">
                    {formatWhen(e.createdAt)}
                  </time>
                </div>
                <p className="break-words">
                  {e.username || "The server"}
                  {e.targetUsername && e.targetUsername !== e.username
                    ? ` → ${e.targetUsername}`
                    : ""}
                  {Object.keys(e.detail).length > 0 ? ` · ${JSON.stringify(e.detail)}` : ""}
                </p>
                <p className="text-xs break-all text-muted-foreground">
                  {e.ip}
                  {e.userAgent ? ` · ${e.userAgent}` : ""}
                </p>
              </li>
            ))}
          </ul>
        )}
        <div className="flex justify-between gap-2">
          <Button
            variant="outline"
            disabled={cursors.length === 0}
            onClick={() => setCursors((c) => c.slice(0, -1))}
          >
            Newer
          </Button>
          <Button
            variant="outline"
            disabled={!query.data?.nextCursor}
            onClick={() => setCursors((c) => [...c, query.data!.nextCursor!])}
          >
            Older
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
