import { Link, useRouter, type ErrorComponentProps } from "@tanstack/react-router";
import { TRPCClientError } from "@trpc/client";
import { Button } from "@/web/components/ui/button";
import { errorMessage } from "@/web/lib/trpc";

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

/** A route failed to load (most often: the server could not be reached). Retrying reloads it. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  if (isStaleBuildError(error)) {
    return (
      <div
        role="alert"
        className="mx-auto flex min-h-[60dvh] max-w-md flex-col items-center justify-center gap-4 p-6 text-center"
      >
        <h1 className="text-2xl font-semibold">PRITE Study has been updated</h1>
        <p className="text-muted-foreground">Reload the page to continue with the new version.</p>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </div>
    );
  }
  const retry = () => {
    reset();
    void router.invalidate();
  };
  return (
    <div
      role="alert"
      className="mx-auto flex min-h-[60dvh] max-w-md flex-col items-center justify-center gap-4 p-6 text-center"
    >
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="text-muted-foreground">
        {error instanceof TRPCClientError
          ? errorMessage(error, "Could not reach the server. Check your connection and try again.")
          : "An unexpected error occurred. Try again, or reload the page."}
      </p>
      <Button onClick={retry}>Try again</Button>
    </div>
  );
}
