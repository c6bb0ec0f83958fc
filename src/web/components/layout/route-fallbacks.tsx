import { Link, useRouter, type ErrorComponentProps } from "@tanstack/react-router";
import { TRPCClientError } from "@trpc/client";
import { useEffect, useRef, type ReactNode } from "react";
import { Button } from "@/web/components/ui/button";
import { errorMessage } from "@/web/lib/trpc";
import { useOnline } from "@/web/lib/use-online";

export function NotFound() {
  return (
    <div className="mx-auto flex min-h-[60dvh] max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-muted-foreground">The page you were looking for does not exist.</p>
      <Button asChild>
        <Link to="/">Go to Dashboard</Link>
      </Button>
    </div>
  );
}

/**
 * A page's code split chunk could not be loaded: after a new release the old hashed file names are
 * gone, so a tab left open since before the release needs a reload, not a retry.
 */
export function isStaleBuildError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
    message,
  );
}

/** How long after the 'online' event a page that failed offline tries again. */
const RETRY_AFTER_ONLINE_MS = 1000;

/** A full-page message in place of a page that could not load. */
function PageFailure({
  title,
  message,
  action,
}: {
  title: string;
  message: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div
      role="alert"
      className="mx-auto flex min-h-[60dvh] max-w-md flex-col items-center justify-center gap-4 p-6 text-center"
    >
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-muted-foreground">{message}</p>
      {action}
    </div>
  );
}

/** A route failed to load (most often: the server could not be reached). Retrying reloads it. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const online = useOnline();
  const stale = isStaleBuildError(error);
  const retry = () => {
    reset();
    void router.invalidate();
  };
  const latestRetry = useRef(retry);
  latestRetry.current = retry;
  const wasOffline = useRef(!online);
  // Offline, the page failed because nothing could be reached: it loads by itself once the
  // connection is back, so a resident in a basement need not find and press a button (issue 18).
  // The 'online' event can come a moment before requests get through, hence the short wait.
  useEffect(() => {
    if (!online) {
      wasOffline.current = true;
      return;
    }
    if (!wasOffline.current || stale) return;
    wasOffline.current = false;
    const timer = setTimeout(() => latestRetry.current(), RETRY_AFTER_ONLINE_MS);
    return () => clearTimeout(timer);
  }, [online, stale]);
  if (stale) {
    return (
      <PageFailure
        title="PRITE Study has been updated"
        message="Reload the page to continue with the new version."
        action={<Button onClick={() => window.location.reload()}>Reload</Button>}
      />
    );
  }
  if (!online) {
    return (
      <PageFailure
        title="You are offline"
        message="This page needs a connection. It loads by itself when you are back online."
      />
    );
  }
  return (
    <PageFailure
      title="Something went wrong"
      message={
        error instanceof TRPCClientError
          ? errorMessage(error, "Could not reach the server. Check your connection and try again.")
          : "An unexpected error occurred. Try again, or reload the page."
      }
      action={<Button onClick={retry}>Try again</Button>}
    />
  );
}
