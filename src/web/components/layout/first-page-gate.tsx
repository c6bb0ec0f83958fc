import { Suspense, use, type ReactNode } from "react";
import { PageSpinner } from "@/web/components/ui/spinner";
import { pendingFirstPageData } from "@/web/lib/early-data";

let firstMount: Promise<void> | null = null;
let firstMounted = false;

/**
 * Suspends the first page once: until its early data, if it has any, is in (or waited for long
 * enough) and for at least one task, so the page always mounts in React's retry, even when the data
 * arrived with the session check that lets the frame render (that render is an urgent one, and never
 * split). A page without early data (Browse) is held for the one task only: its mount, five filters
 * and all, is then sliced as well instead of joining the frame's render in one long task.
 */
function Gate({ children }: { children: ReactNode }) {
  if (!firstMounted) {
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
 *
 * The signed-in frame (header, bottom tabs) is held by a gate of its own, around it in `AppShell`,
 * with the whole screen's 'Loading...' as its fallback: the frame and the first page then render
 * together in the one sliced retry, rather than the frame in the long urgent task of the session
 * check's answer. Both gates wait for the same thing, so the inner one never holds anything once the
 * outer has let go; it stays as the content area's boundary for a page's code still loading.
 */
export function FirstPageGate({
  children,
  fallback = <PageSpinner />,
}: {
  children: ReactNode;
  fallback?: ReactNode;
}) {
  return (
    <Suspense fallback={fallback}>
      <Gate>{children}</Gate>
    </Suspense>
  );
}
