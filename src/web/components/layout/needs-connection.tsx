import { WifiOff } from "lucide-react";
import type { ReactNode } from "react";
import { useOnline } from "@/web/lib/use-online";
import { PageHeader } from "./page-header";

interface RequiresConnectionProps {
  /** The page's heading, kept while its content is hidden. */
  title: string;
  /** What needs the server, as the start of a sentence: "Searching the question bank". */
  what: string;
  children: ReactNode;
}

/**
 * A page that only works with the server (Browse, Import, Admin; issue 18). Offline it says so
 * instead of spinning on requests that cannot be answered. The page stays mounted underneath, hidden,
 * so a half-filled import or search is still there when the connection comes back.
 */
export function RequiresConnection({ title, what, children }: RequiresConnectionProps) {
  const online = useOnline();
  return (
    <>
      {!online && (
        <>
          <PageHeader title={title} />
          <NeedsConnection what={what} />
        </>
      )}
      <div hidden={!online}>{children}</div>
    </>
  );
}

/** The message itself, for a page or a panel that cannot work offline. */
export function NeedsConnection({ what }: { what: string }) {
  return (
    <div
      role="status"
      className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-6 text-center"
    >
      <WifiOff className="size-6 text-muted-foreground" aria-hidden="true" />
      <h2 className="font-semibold">This page needs a connection</h2>
      <p className="text-muted-foreground">
        {what} needs the server, and this device is offline. Everything here comes back as it was
        when you are online again.
      </p>
    </div>
  );
}
