import { RefreshCw } from "lucide-react";
import { Alert } from "@/web/components/ui/alert";
import { useOffline } from "./offline-provider";

export function waitingText(n: number): string {
  return `${n} ${n === 1 ? "answer" : "answers"} waiting to sync`;
}

/**
 * Says what the offline side is doing (issue 18 item 4; the offline strip itself is OfflineBanner
 * under the header): a failed sync
 * with why and when it retries, a quiet confirmation once answers are synced, and any answer the
 * server refused with its reason.
 */
export function SyncBanner() {
  const { online, waiting, status, refused, dismissRefused, syncNow } = useOffline();
  return (
    <div className="mb-4 space-y-2 empty:hidden">
      {online && status.kind === "failed" && (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-2 rounded-md border border-destructive px-3 py-2 text-sm"
        >
          <span>
            Sync failed: {status.message}. {waitingText(waiting)}; trying again in{" "}
            {Math.round(status.retryInMs / 1000)} s.
          </span>
          <button
            type="button"
            className="inline-flex items-center gap-1 font-medium underline"
            onClick={() => void syncNow()}
          >
            <RefreshCw aria-hidden="true" className="size-3.5" />
            Try now
          </button>
        </div>
      )}
      {online && status.kind === "syncing" && waiting > 0 && (
        <p role="status" className="text-sm text-muted-foreground">
          Syncing {waitingText(waiting).replace(" waiting to sync", "")}…
        </p>
      )}
      {online && status.kind === "synced" && (
        <p role="status" className="text-sm text-success">
          {status.count === 1 ? "1 answer" : `${status.count} answers`} synced.
        </p>
      )}
      {refused.length > 0 && (
        <Alert type="error" onClose={dismissRefused} autoCloseMs={null}>
          {refused.length === 1
            ? "1 answer studied offline could not be saved: "
            : `${refused.length} answers studied offline could not be saved: `}
          {[...new Set(refused.map((r) => r.reason))].join(" ")}
        </Alert>
      )}
    </div>
  );
}
