import { Suspense, use, type ReactNode } from "react";
import { PageSpinner } from "@/web/components/ui/spinner";
import { firstPageHasEarlyData, pendingFirstPageData } from "@/web/lib/early-data";

let firstMount: Promise<void> | null = null;
let firstMounted = false;

/**
 * Suspends the first page once: until its early data is in (or waited for long enough) and for at
 * least one task, so the page always mounts in React's retry, even when the data arrived with the
 * session check that lets the frame render (that render is an urgent one, and never split).
 */
function Gate({ children }: { children: ReactNode }) {
  if (!firstMounted && firstPageHasEarlyData()) {
    firstMount ??= Promise.all([
      pendingFirstPageData(),
      new Promise((resolve) => setTimeout(resolve, 0)),
    ]).then(() => {
      firstMounted = true;
    });
    use(firstMount);
  }
  return children;
}

/**
 * The first page of a visit mounts once its data, asked for with the session check (lib/early-data),
 * is in the cache (issue 20). The page then renders whole in React's retry of this boundary, which
 * React splits into short tasks, instead of rendering a spinner and then everything at once in the
 * one long task a query's answer triggers (queries reach React through useSyncExternalStore, whose
 * updates are never split). The fallback is the content area's usual 'Loading...'.
 */
export function FirstPageGate({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<PageSpinner />}>
      <Gate>{children}</Gate>
    </Suspense>
  );
}
